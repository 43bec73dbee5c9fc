/**
 * Payload storage: UTF-8 JSON inline in the FIFO entry when small, otherwise
 * split into parts (a KV value holds at most 64 KiB). Up to
 * {@link COMMIT_PARTS} parts go in the intake commit itself (one commit holds
 * at most 800 KiB); a larger payload's parts are staged in commits of their
 * own before it, and parts no entry points at are swept when the journal
 * opens.
 * @module
 */

import type { StoredBody } from "./_keys.ts";
import type { JsonValue } from "./types.ts";

/** Largest payload stored inline, in bytes of UTF-8 JSON. */
export const INLINE_MAX_BYTES = 60_000;
/** Size of one body part (the KV value limit). */
export const PART_BYTES = 65_536;
/** Most parts written inside the intake commit, leaving room for the rest of it. */
export const COMMIT_PARTS = 10;
/** Largest payload the journal accepts (16 MiB: far above any Feishu event). */
export const MAX_PAYLOAD_BYTES = 256 * PART_BYTES;
/** Most keys one `getMany` reads (Deno KV's limit). */
const READ_BATCH = 10;

/** Reads values in batches `getMany` accepts; missing ones are left out. */
export async function readParts(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let at = 0; at < keys.length; at += READ_BATCH) {
    for (const e of await kv.getMany<Uint8Array[]>(keys.slice(at, at + READ_BATCH))) {
      if (e.value !== null) out.push(e.value);
    }
  }
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An encoded payload: what goes in the entry, plus the parts to write beside it. */
export interface EncodedBody {
  stored: StoredBody;
  parts: Uint8Array[];
  bytes: number;
}

/**
 * Encodes a payload; throws a `RangeError` when it is larger than
 * {@link MAX_PAYLOAD_BYTES}.
 *
 * @example Small payloads stay inline
 * ```ts
 * import { encodeBody } from "./_body.ts";
 * const e = encodeBody({ a: 1 });
 * if (e.stored.parts !== 0 || e.parts.length !== 0 || e.bytes !== 7) throw new Error();
 * ```
 */
export function encodeBody(payload: JsonValue): EncodedBody {
  const json = JSON.stringify(payload);
  if (json === undefined) throw new TypeError("Expected a JSON value but found undefined");
  const bytes = encoder.encode(json);
  if (bytes.length <= INLINE_MAX_BYTES) {
    return { stored: { body: bytes, parts: 0 }, parts: [], bytes: bytes.length };
  }
  if (bytes.length > MAX_PAYLOAD_BYTES) {
    throw new RangeError(
      `Expected a payload of at most ${MAX_PAYLOAD_BYTES} bytes but found ${bytes.length}`,
    );
  }
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += PART_BYTES) {
    parts.push(bytes.subarray(at, at + PART_BYTES));
  }
  return { stored: { parts: parts.length }, parts, bytes: bytes.length };
}

/**
 * Decodes a payload from its entry and, when split, its parts in order.
 *
 * @example Round trip
 * ```ts
 * import { decodeBody, encodeBody } from "./_body.ts";
 * const e = encodeBody({ text: "你好" });
 * if (JSON.stringify(decodeBody(e.stored, e.parts)) !== '{"text":"你好"}') throw new Error();
 * ```
 */
export function decodeBody(stored: StoredBody, parts: readonly Uint8Array[]): JsonValue {
  if (stored.parts === 0) {
    if (!stored.body) throw new TypeError("Expected an inline body but found none");
    return JSON.parse(decoder.decode(stored.body));
  }
  if (parts.length !== stored.parts) {
    throw new TypeError(`Expected ${stored.parts} body parts but found ${parts.length}`);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return JSON.parse(decoder.decode(all));
}
