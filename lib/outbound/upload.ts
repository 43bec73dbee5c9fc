/**
 * Media uploads: a path source was read during validation from the one
 * handle its checks were made on; its bytes are uploaded once, before any
 * message is created, and the provider key Feishu returns goes into the wire
 * body. Size limits are checked before the file is read; a refused upload is
 * `UPLOAD_FAILED` (or `PERMISSION_DENIED` when a scope is missing, as the
 * classifier decides), never a message.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import type { FeishuApi } from "../feishu/mod.ts";
import type { MediaUpload, NormalisedContent } from "./types.ts";

/** Feishu's upload limits: images 10 MB, files (audio and video too) 30 MB. */
export const UPLOAD_LIMITS = { image: 10 * 1024 * 1024, file: 30 * 1024 * 1024 } as const;

/** The upload calls (a {@link FeishuApi} has them). */
export type UploadApi = Pick<FeishuApi, "uploadImage" | "uploadFile">;

/**
 * Why a file of `size` bytes cannot be uploaded as `fileType`, or undefined
 * when it can: an empty file, or one over Feishu's limit for its kind.
 *
 * @example
 * ```ts
 * import { mediaSizeProblem } from "./upload.ts";
 * if (mediaSizeProblem("image", "a.png", 5) !== undefined) throw new Error();
 * if (mediaSizeProblem("stream", "a.bin", 0)?.code !== "INVALID_ARGUMENT") throw new Error();
 * ```
 */
export function mediaSizeProblem(
  fileType: MediaUpload["fileType"],
  fileName: string,
  size: number,
): BridgeError | undefined {
  const limit = fileType === "image" ? UPLOAD_LIMITS.image : UPLOAD_LIMITS.file;
  if (size === 0) {
    return new BridgeError(
      "INVALID_ARGUMENT",
      `Expected content.source.path to name a non-empty file but found 0 bytes in ${fileName}`,
    );
  }
  if (size > limit) {
    return new BridgeError(
      "INVALID_ARGUMENT",
      `Expected ${fileName} to be at most ${limit} bytes (Feishu's ${
        fileType === "image" ? "image" : "file"
      } upload limit) but found ${size}`,
    );
  }
  return undefined;
}

/**
 * Checks the size of a path source against Feishu's upload limits, before
 * any I/O to Feishu: an empty file or one over the limit is `INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * import { checkMediaSize } from "./upload.ts";
 * const content = {
 *   type: "image", recordContent: { type: "image" }, previewText: "[image: a.png]", messageType: "image",
 *   mediaSummary: { type: "image", filename: "a.png", size: 0 },
 *   media: { type: "image", source: { type: "path", path: "/w/a.png" }, upload: { path: "/w/a.png", bytes: new Uint8Array(), fileName: "a.png", fileType: "image" } },
 * } as const;
 * let code = "";
 * try { checkMediaSize(content); } catch (e) { code = (e as { code: string }).code; }
 * if (code !== "INVALID_ARGUMENT") throw new Error(code);
 * ```
 */
export function checkMediaSize(content: NormalisedContent): void {
  const upload = content.media?.upload;
  const size = content.mediaSummary?.size;
  if (upload === undefined || size === undefined) return;
  const problem = mediaSizeProblem(upload.fileType, upload.fileName, size);
  if (problem !== undefined) throw problem;
}

/**
 * Uploads one local file's bytes (read during validation) and returns its
 * provider key (`image_key` or `file_key`). The upload is named by
 * `upload.fileName` (the content's `file_name` when given).
 */
export async function uploadMedia(api: UploadApi, upload: MediaUpload): Promise<string> {
  const bytes = upload.bytes;
  if (upload.fileType === "image") return await api.uploadImage(bytes);
  return await api.uploadFile({ bytes, fileType: upload.fileType, fileName: upload.fileName });
}
