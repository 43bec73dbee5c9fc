/**
 * Reads the intake journal's Deno KV file without Deno KV: `Deno.openKv`
 * writes (it migrates the schema and sweeps expired keys), so `doctor` opens
 * the SQLite file underneath read-only (`openSqliteReadOnly`) and decodes
 * the rows itself. Keys use KV's ordered tuple encoding (strings, numbers,
 * bytes, booleans and integers are all the journal needs); values are V8
 * serialised, little-endian u64s or raw bytes. The key layout is the
 * journal's (`lib/journal/mod.ts`).
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { deserialize } from "node:v8";

/** One part of a KV key. */
export type KeyPart = string | number | bigint | boolean | Uint8Array;

const STRING = 0x02;
const BYTES = 0x01;
const INT_ZERO = 0x14;
const DOUBLE = 0x21;
const FALSE = 0x26;
const TRUE = 0x27;

/** Reads one escaped, NUL-terminated run (0x00 0xFF is a literal NUL). */
function readRun(b: Uint8Array, at: number): [Uint8Array, number] {
  const out: number[] = [];
  let i = at;
  while (i < b.length) {
    if (b[i] === 0x00) {
      if (b[i + 1] === 0xff) {
        out.push(0);
        i += 2;
        continue;
      }
      return [Uint8Array.from(out), i + 1];
    }
    out.push(b[i]!);
    i++;
  }
  throw new Error("Expected a terminated key part but found the end of the key");
}

/**
 * Decodes a KV key.
 *
 * @example
 * ```ts
 * import { decodeKey, encodeKeyPrefix } from "./_kv.ts";
 * const k = encodeKeyPrefix(["journal", "dead"]);
 * const seq = Uint8Array.of(0x21, 0xc0, 0x31, 0, 0, 0, 0, 0, 0); // 17
 * const key = new Uint8Array([...k, ...seq]);
 * if (JSON.stringify(decodeKey(key)) !== '["journal","dead",17]') throw new Error();
 * ```
 */
export function decodeKey(b: Uint8Array): KeyPart[] {
  const parts: KeyPart[] = [];
  let i = 0;
  while (i < b.length) {
    const tag = b[i++]!;
    if (tag === STRING || tag === BYTES) {
      const [run, next] = readRun(b, i);
      parts.push(tag === STRING ? new TextDecoder().decode(run) : run);
      i = next;
    } else if (tag === DOUBLE) {
      const bytes = b.slice(i, i + 8);
      // Positive numbers had their sign bit flipped, negative ones every bit.
      if (bytes[0]! & 0x80) bytes[0]! ^= 0x80;
      else for (let j = 0; j < 8; j++) bytes[j] = ~bytes[j]! & 0xff;
      parts.push(new DataView(bytes.buffer).getFloat64(0, false));
      i += 8;
    } else if (tag >= INT_ZERO - 8 && tag <= INT_ZERO + 8) {
      const n = Math.abs(tag - INT_ZERO);
      let v = 0n;
      for (let j = 0; j < n; j++) v = (v << 8n) | BigInt(b[i + j]!);
      if (tag < INT_ZERO) v -= (1n << BigInt(8 * n)) - 1n;
      parts.push(v);
      i += n;
    } else if (tag === FALSE || tag === TRUE) {
      parts.push(tag === TRUE);
    } else {
      throw new Error(`Expected a known key part tag but found 0x${tag.toString(16)}`);
    }
  }
  return parts;
}

/** Encodes string parts of a key prefix (all the journal's prefixes are strings). */
export function encodeKeyPrefix(parts: readonly string[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    out.push(STRING);
    for (const byte of new TextEncoder().encode(p)) {
      out.push(byte);
      if (byte === 0) out.push(0xff);
    }
    out.push(0x00);
  }
  return Uint8Array.from(out);
}

/** One row of the KV table, decoded. */
export interface KvRow {
  key: KeyPart[];
  value: unknown;
  /** ms since the epoch, or null for a key without expiry. */
  expiresAt: number | null;
}

function decodeValue(v: Uint8Array, encoding: number): unknown {
  if (encoding === 1) return deserialize(v);
  if (encoding === 2) {
    return new DataView(v.buffer, v.byteOffset, v.byteLength).getBigUint64(0, true);
  }
  return v;
}

/**
 * Every row under a prefix, in key order; values are decoded only when
 * `values` is set (a count needs none).
 */
export function listPrefix(
  db: DatabaseSync,
  prefix: readonly string[],
  options: { values?: boolean; limit?: number } = {},
): KvRow[] {
  const start = encodeKeyPrefix(prefix);
  const end = new Uint8Array([...start, 0xff]);
  const rows = db.prepare(
    `SELECT k, ${options.values ? "v, v_encoding," : ""} expiration_ms FROM kv
     WHERE k >= ? AND k < ? ORDER BY k LIMIT ?`,
  ).all(start, end, options.limit ?? -1);
  return rows.map((r) => {
    const exp = Number(r.expiration_ms);
    return {
      key: decodeKey(r.k as Uint8Array),
      value: options.values ? decodeValue(r.v as Uint8Array, Number(r.v_encoding)) : undefined,
      expiresAt: exp < 0 ? null : exp,
    };
  });
}

/** Counts the rows under a prefix that have not expired at `now`. */
export function countLive(db: DatabaseSync, prefix: readonly string[], now: number): number {
  const start = encodeKeyPrefix(prefix);
  const end = new Uint8Array([...start, 0xff]);
  const r = db.prepare(
    `SELECT count(*) AS n FROM kv WHERE k >= ? AND k < ? AND (expiration_ms < 0 OR expiration_ms > ?)`,
  ).get(start, end, now);
  return Number(r?.n ?? 0);
}
