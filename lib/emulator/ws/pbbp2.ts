/**
 * A hand-written proto2 codec for Feishu's `pbbp2.Frame`.
 * Only wire types 0 (varint) and 2 (length-delimited) are produced; the
 * decoder also skips fixed32/fixed64 fields it does not know. The four
 * required fields (SeqID, LogID, service, method) are always encoded, even
 * when 0, and decoding fails when one is missing, as protobufjs does.
 * @module
 */

/** One frame header (`key`/`value` are both required). */
export interface FrameHeader {
  key: string;
  value: string;
}

/** A decoded `pbbp2.Frame`. */
export interface Frame {
  SeqID: number;
  LogID: number;
  service: number;
  method: number;
  headers: FrameHeader[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  LogIDNew?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

class Writer {
  bytes: number[] = [];

  varint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }

  tag(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  uint(field: number, value: number): void {
    this.tag(field, 0);
    this.varint(BigInt(Math.trunc(value)));
  }

  raw(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(BigInt(data.length));
    for (const b of data) this.bytes.push(b);
  }

  text(field: number, value: string): void {
    this.raw(field, encoder.encode(value));
  }
}

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw new Error("Expected a varint but found the end of the frame");
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
    }
    throw new Error("Expected a varint of at most 10 bytes but found a longer one");
  }

  bytes(): Uint8Array {
    const len = Number(this.varint());
    const end = this.pos + len;
    if (end > this.buf.length) {
      throw new Error(`Expected ${len} bytes but found ${this.buf.length - this.pos}`);
    }
    const out = this.buf.slice(this.pos, end);
    this.pos = end;
    return out;
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 2) this.bytes();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`Expected a wire type of 0, 1, 2 or 5 but found ${wire}`);
    if (this.pos > this.buf.length) throw new Error("Expected more bytes but found the end");
  }
}

/**
 * Encodes a frame; the required fields are always written.
 *
 * @example Zero-valued required fields are still present on the wire
 * ```ts
 * import { encodeFrame } from "./pbbp2.ts";
 * const bytes = encodeFrame({ SeqID: 0, LogID: 0, service: 0, method: 0, headers: [] });
 * if (bytes.join() !== "8,0,16,0,24,0,32,0") throw new Error(bytes.join());
 * ```
 */
export function encodeFrame(frame: Frame): Uint8Array {
  const w = new Writer();
  w.uint(1, frame.SeqID);
  w.uint(2, frame.LogID);
  w.tag(3, 0);
  w.varint(BigInt(Math.trunc(frame.service))); // int32: negatives sign-extend to 64 bits
  w.tag(4, 0);
  w.varint(BigInt(Math.trunc(frame.method)));
  for (const h of frame.headers) {
    const hw = new Writer();
    hw.text(1, h.key);
    hw.text(2, h.value);
    w.raw(5, Uint8Array.from(hw.bytes));
  }
  if (frame.payloadEncoding !== undefined) w.text(6, frame.payloadEncoding);
  if (frame.payloadType !== undefined) w.text(7, frame.payloadType);
  if (frame.payload !== undefined) w.raw(8, frame.payload);
  if (frame.LogIDNew !== undefined) w.text(9, frame.LogIDNew);
  return Uint8Array.from(w.bytes);
}

function decodeHeader(buf: Uint8Array): FrameHeader {
  const r = new Reader(buf);
  let key: string | undefined;
  let value: string | undefined;
  while (!r.done()) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 2) key = decoder.decode(r.bytes());
    else if (field === 2 && wire === 2) value = decoder.decode(r.bytes());
    else r.skip(wire);
  }
  if (key === undefined) throw new Error("Expected header field 'key' but found none");
  if (value === undefined) throw new Error("Expected header field 'value' but found none");
  return { key, value };
}

function toInt32(v: bigint): number {
  return Number(BigInt.asIntN(32, v));
}

function toUint64(v: bigint): number {
  return Number(BigInt.asUintN(64, v));
}

/**
 * Decodes a frame; throws when a required field is missing or the bytes are
 * malformed.
 *
 * @example Round trip
 * ```ts
 * import { decodeFrame, encodeFrame } from "./pbbp2.ts";
 * const frame = {
 *   SeqID: 7, LogID: 300, service: 33554678, method: 1,
 *   headers: [{ key: "type", value: "event" }],
 *   payload: new TextEncoder().encode("{}"),
 * };
 * const back = decodeFrame(encodeFrame(frame));
 * if (back.service !== 33554678 || back.headers[0]?.value !== "event") throw new Error();
 * ```
 * @example A frame without its required fields is rejected
 * ```ts
 * import { decodeFrame } from "./pbbp2.ts";
 * let failed = false;
 * try { decodeFrame(new Uint8Array([0x2a, 0])); } catch { failed = true; }
 * if (!failed) throw new Error("decoded a frame without SeqID");
 * ```
 */
export function decodeFrame(bytes: Uint8Array): Frame {
  const r = new Reader(bytes);
  const seen = new Set<number>();
  const frame: Frame = { SeqID: 0, LogID: 0, service: 0, method: 0, headers: [] };
  while (!r.done()) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field >= 1 && field <= 4 && wire === 0) {
      const v = r.varint();
      seen.add(field);
      if (field === 1) frame.SeqID = toUint64(v);
      else if (field === 2) frame.LogID = toUint64(v);
      else if (field === 3) frame.service = toInt32(v);
      else frame.method = toInt32(v);
    } else if (field === 5 && wire === 2) frame.headers.push(decodeHeader(r.bytes()));
    else if (field === 6 && wire === 2) frame.payloadEncoding = decoder.decode(r.bytes());
    else if (field === 7 && wire === 2) frame.payloadType = decoder.decode(r.bytes());
    else if (field === 8 && wire === 2) frame.payload = r.bytes();
    else if (field === 9 && wire === 2) frame.LogIDNew = decoder.decode(r.bytes());
    else r.skip(wire);
  }
  const names = ["", "SeqID", "LogID", "service", "method"];
  for (let f = 1; f <= 4; f++) {
    if (!seen.has(f)) throw new Error(`Expected required field '${names[f]}' but found none`);
  }
  return frame;
}

/**
 * Reads a header value by key (first match).
 *
 * @example
 * ```ts
 * import { headerValue } from "./pbbp2.ts";
 * const v = headerValue({ SeqID: 0, LogID: 0, service: 0, method: 0, headers: [{ key: "type", value: "pong" }] }, "type");
 * if (v !== "pong") throw new Error();
 * ```
 */
export function headerValue(frame: Frame, key: string): string | undefined {
  return frame.headers.find((h) => h.key === key)?.value;
}
