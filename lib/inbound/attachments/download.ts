/**
 * Downloads a message's attachments one after another through an injected
 * `downloadTo` function that streams each file to disk (or a `download` that
 * returns bytes) and puts each file atomically under one folder. A file over
 * the byte cap is stopped and recorded failed with the cap named; a failed
 * download is recorded, never thrown; the folder is only created when a file
 * is written.
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { stateDir, writeFileAtomic } from "../../core/mod.ts";
import { safeFileName, safeFolderName, uniqueName } from "./safe_name.ts";
import type { AttachmentDescriptor, AttachmentType } from "../../store/mod.ts";
import type { Attachment, AttachmentSummary } from "../../store/mod.ts";

/** Longest recorded download error, in code points. */
export const MAX_ERROR_CHARS = 200;

/** The resource API type: `image` for images and stickers, `file` otherwise. */
export type ResourceApiType = "image" | "file";

/** What one download returns: the bytes and the provider's file name, if any. */
export interface DownloadedResource {
  bytes: Uint8Array;
  fileName?: string | null;
}

/** Fetches one message resource (in production: `lib/feishu/`). */
export type DownloadResource = (
  messageId: string,
  fileKey: string,
  apiType: ResourceApiType,
) => Promise<DownloadedResource>;

/** What a streamed download reports: its size and the provider's file name, if any. */
export interface StreamedResource {
  size: number;
  fileName?: string | null;
}

/**
 * Streams one message resource into `to.path` (in production: `lib/feishu/`),
 * never holding the file in memory; past `to.maxBytes` it throws and leaves no file.
 */
export type DownloadResourceTo = (
  messageId: string,
  fileKey: string,
  apiType: ResourceApiType,
  to: { path: string; maxBytes: number },
) => Promise<StreamedResource>;

/** The inbound download cap when none is given (100 MiB). */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

/** Options of {@link downloadAttachments}. */
export interface DownloadOptions {
  /** Feishu message id the resources belong to. */
  messageId: string;
  /** Folder the files go to (created only when a file is written). */
  dir: string;
  /** Streams a resource to a file; preferred over `download`. */
  downloadTo?: DownloadResourceTo;
  /** Returns a resource's bytes (used when there is no `downloadTo`). */
  download?: DownloadResource;
  /** Most bytes one attachment may have (default {@link DEFAULT_MAX_DOWNLOAD_BYTES}). */
  maxBytes?: number;
  /** Stops before the next download; the caller replays the whole message. */
  signal?: AbortSignal;
}

/** Result of {@link downloadAttachments}. */
export interface DownloadResult {
  attachments: Attachment[];
  media: AttachmentSummary | null;
}

/**
 * Where the files of one inbound message go:
 * `<workdir>/feishu/<alias>/attachments/<message_id>/` (the agent opens them by path).
 * A message id outside Feishu's id alphabet becomes a hash-based folder name
 * ({@link safeFolderName}), so the folder is always one level inside
 * `attachments/`.
 *
 * @example
 * ```ts
 * import { attachmentsDir } from "./download.ts";
 * import { dirname } from "node:path";
 * if (attachmentsDir("/w", "main", "om_1") !== "/w/feishu/main/attachments/om_1") throw new Error();
 * if (dirname(attachmentsDir("/w", "main", "../../..")) !== "/w/feishu/main/attachments") {
 *   throw new Error();
 * }
 * ```
 */
export function attachmentsDir(workdir: string, alias: string, messageId: string): string {
  return join(stateDir(workdir), alias, "attachments", safeFolderName(messageId));
}

/**
 * The API type used to fetch a resource of a given attachment type.
 *
 * @example
 * ```ts
 * import { apiTypeFor } from "./download.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(["image", "sticker", "file", "audio", "video"].map((t) => apiTypeFor(t as never)),
 *   ["image", "image", "file", "file", "file"]);
 * ```
 */
export function apiTypeFor(type: AttachmentType): ResourceApiType {
  return type === "image" || type === "sticker" ? "image" : "file";
}

/**
 * Downloads every descriptor in order. Each success is written atomically to
 * `<dir>/<safe name>` (collisions get `-2`, `-3`, …; a replay of the same
 * message reuses the same names); each failure keeps the descriptor and adds a
 * bounded `error`.
 */
export async function downloadAttachments(
  descriptors: readonly AttachmentDescriptor[],
  options: DownloadOptions,
): Promise<DownloadResult> {
  const taken = new Set<string>();
  const attachments: Attachment[] = [];
  for (const [i, d] of descriptors.entries()) {
    options.signal?.throwIfAborted();
    attachments.push(await downloadOne(d, i + 1, taken, options));
  }
  return { attachments, media: mediaSummary(attachments) };
}

async function downloadOne(
  d: AttachmentDescriptor,
  index: number,
  taken: Set<string>,
  options: DownloadOptions,
): Promise<Attachment> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const apiType = apiTypeFor(d.type);
  // A streamed file lands beside the folder first, so a failure leaves the folder untouched.
  const partial = join(dirname(options.dir), `.${index}.${crypto.randomUUID()}.partial`);
  try {
    let providerName: string | null | undefined;
    let bytes: Uint8Array | null = null;
    let size: number;
    if (options.downloadTo) {
      await Deno.mkdir(dirname(options.dir), { recursive: true });
      const got = await options.downloadTo(options.messageId, d.file_key, apiType, {
        path: partial,
        maxBytes,
      });
      providerName = got.fileName;
      size = got.size;
    } else if (options.download) {
      const got = await options.download(options.messageId, d.file_key, apiType);
      if (!(got?.bytes instanceof Uint8Array)) {
        throw new TypeError("Expected the download to return bytes but found none");
      }
      if (got.bytes.byteLength > maxBytes) {
        throw new RangeError(
          `the file is larger than the ${maxBytes}-byte cap (limits.inbound_download_bytes)`,
        );
      }
      providerName = got.fileName;
      bytes = got.bytes;
      size = bytes.byteLength;
    } else {
      throw new TypeError("Expected a download or downloadTo function but found neither");
    }
    const name = safeFileName({
      type: d.type,
      index,
      providerName,
      fileName: d.file_name,
    });
    const filename = uniqueName(name, taken);
    const path = resolve(options.dir, filename);
    if (bytes) await writeFileAtomic(path, bytes);
    else {
      await Deno.mkdir(options.dir, { recursive: true });
      await Deno.rename(partial, path);
    }
    return { ...d, status: "downloaded", filename, path, size };
  } catch (err) {
    await Deno.remove(partial).catch(() => {});
    if (options.signal?.aborted) throw err;
    return { ...d, status: "failed", error: errorText(err) };
  }
}

/**
 * A one-line, bounded error text: whitespace collapsed, at most 200 code
 * points, the error's class name when it has no message.
 *
 * @example
 * ```ts
 * import { errorText } from "./download.ts";
 * import assert from "node:assert/strict";
 * assert.equal(errorText(new Error("  bad \n  gateway ")), "bad gateway");
 * assert.equal(errorText(new RangeError("")), "RangeError");
 * assert.equal(errorText("x".repeat(300)).length, 200);
 * ```
 */
export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err ?? "");
  const collapsed = message.replace(/\s+/g, " ").trim();
  const text = collapsed !== "" ? collapsed : err instanceof Error ? err.name : "Error";
  return Array.from(text).slice(0, MAX_ERROR_CHARS).join("");
}

/**
 * The legacy `media` summary: the first non-cover attachment (or the first
 * one), its non-null `type`, `filename`, `path`, `size`, `file_key`, plus
 * `download_error` when it failed; null without attachments.
 *
 * @example
 * ```ts
 * import { mediaSummary } from "./download.ts";
 * import assert from "node:assert/strict";
 * assert.equal(mediaSummary([]), null);
 * assert.deepEqual(
 *   mediaSummary([{ type: "file", file_key: "k", status: "failed", error: "" }]),
 *   { type: "file", file_key: "k", download_error: "download failed" },
 * );
 * ```
 */
export function mediaSummary(attachments: readonly Attachment[]): AttachmentSummary | null {
  const a = attachments.find((x) => x.role !== "cover") ?? attachments[0];
  if (!a) return null;
  const summary: AttachmentSummary = { type: a.type };
  if (a.status === "downloaded") {
    summary.filename = a.filename;
    summary.path = a.path;
    summary.size = a.size;
  }
  summary.file_key = a.file_key;
  if (a.status === "failed") summary.download_error = a.error || "download failed";
  return summary;
}
