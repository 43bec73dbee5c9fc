/**
 * Media uploads: a path source is read from disk and uploaded
 * once, before any message is created; the provider key it returns goes into
 * the wire body. Size limits are checked before any I/O; a refused upload is
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

/** Reads a local file; `Deno.readFile` in production. */
export type ReadFile = (path: string) => Promise<Uint8Array>;

/**
 * Checks the size of a path source against Feishu's upload limits, before
 * any I/O: an empty file or one over the limit is `INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * import { checkMediaSize } from "./upload.ts";
 * const content = {
 *   type: "image", recordContent: { type: "image" }, previewText: "[image: a.png]", messageType: "image",
 *   mediaSummary: { type: "image", filename: "a.png", size: 0 },
 *   media: { type: "image", source: { type: "path", path: "/w/a.png" }, upload: { path: "/w/a.png", fileName: "a.png", fileType: "image" } },
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
  const limit = upload.fileType === "image" ? UPLOAD_LIMITS.image : UPLOAD_LIMITS.file;
  if (size === 0) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Expected content.source.path to name a non-empty file but found 0 bytes in ${upload.fileName}`,
    );
  }
  if (size > limit) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Expected ${upload.fileName} to be at most ${limit} bytes (Feishu's ${
        upload.fileType === "image" ? "image" : "file"
      } upload limit) but found ${size}`,
    );
  }
}

/**
 * Uploads one local file and returns its provider key (`image_key` or
 * `file_key`). The upload is named by `upload.fileName` (the content's
 * `file_name` when given). A file that cannot be read is `UPLOAD_FAILED`.
 */
export async function uploadMedia(
  api: UploadApi,
  upload: MediaUpload,
  io: { readFile: ReadFile },
): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(upload.path);
  } catch (err) {
    throw new BridgeError(
      "UPLOAD_FAILED",
      `Could not read ${upload.fileName} for upload: ${err instanceof Error ? err.message : err}`,
      { cause: err, context: { operation: "upload" } },
    );
  }
  if (upload.fileType === "image") return await api.uploadImage(bytes);
  return await api.uploadFile({ bytes, fileType: upload.fileType, fileName: upload.fileName });
}
