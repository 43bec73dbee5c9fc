/**
 * Writes a byte stream to a file chunk by chunk under a byte cap: at most one
 * chunk is held at a time, and a stream that would pass the cap is stopped
 * before the chunk that crosses it is written, its partial file removed.
 * @module
 */

import { BridgeError } from "../core/mod.ts";

/** Options of {@link writeStreamCapped}. */
export interface CappedWrite {
  /** The file to create (truncated if it exists). */
  path: string;
  /** Most bytes the file may get. */
  maxBytes: number;
  /** Operation name for the error, e.g. `download_resource`. */
  operation?: string;
}

/**
 * Streams `source` into `path`; returns the bytes written. Past `maxBytes`
 * it stops reading (the source is closed), removes the file and throws
 * `DOWNLOAD_FAILED` naming the cap.
 *
 * @example
 * ```ts
 * import { writeStreamCapped } from "./_stream_file.ts";
 * const path = await Deno.makeTempFile();
 * async function* chunks() { yield new Uint8Array(3); yield new Uint8Array(3); }
 * if (await writeStreamCapped(chunks(), { path, maxBytes: 6 }) !== 6) throw new Error();
 * await Deno.remove(path);
 * ```
 */
export async function writeStreamCapped(
  source: AsyncIterable<Uint8Array | string>,
  options: CappedWrite,
): Promise<number> {
  const file = await Deno.open(options.path, { write: true, create: true, truncate: true });
  let written = 0;
  let ok = false;
  try {
    for await (const c of source) {
      const chunk = typeof c === "string" ? new TextEncoder().encode(c) : c;
      if (written + chunk.byteLength > options.maxBytes) throw overCap(options);
      let off = 0;
      while (off < chunk.byteLength) off += await file.write(chunk.subarray(off));
      written += chunk.byteLength;
    }
    ok = true;
    return written;
  } finally {
    file.close();
    if (!ok) await Deno.remove(options.path).catch(() => {});
  }
}

/** The error of a stream past its cap. */
export function overCap(options: { maxBytes: number; operation?: string }): BridgeError {
  const operation = options.operation ?? "download_resource";
  return new BridgeError(
    "DOWNLOAD_FAILED",
    `Feishu ${operation} stopped: the file is larger than the ${options.maxBytes}-byte cap ` +
      "(limits.inbound_download_bytes)",
    { retryable: false, context: { operation } },
  );
}
