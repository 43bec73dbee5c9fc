/**
 * A multipart/form-data parser that works on the raw request bytes.
 * `Request.formData()` turns parts without a `filename` into strings and
 * replaces invalid UTF-8, which corrupts binary uploads from the node-sdk;
 * this parser keeps every byte.
 * @module
 */

import type { MultipartPart } from "../types.ts";

const utf8 = new TextDecoder();

/**
 * Extracts the boundary from a `Content-Type` header value.
 *
 * @example
 * ```ts
 * import { multipartBoundary } from "./multipart.ts";
 * const b = multipartBoundary('multipart/form-data; boundary="abc"');
 * if (b !== "abc") throw new Error(String(b));
 * ```
 */
export function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    if (hay[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Finds `\r\n--boundary` followed by `\r\n` or `--` (a real delimiter line). */
function nextDelimiter(body: Uint8Array, needle: Uint8Array, from: number): number {
  for (let at = indexOf(body, needle, from); at >= 0; at = indexOf(body, needle, at + 1)) {
    const a = body[at + needle.length];
    const b = body[at + needle.length + 1];
    if ((a === 0x0d && b === 0x0a) || (a === 0x2d && b === 0x2d)) return at;
  }
  return -1;
}

function parseHeaders(block: string): Omit<MultipartPart, "data"> {
  let name = "";
  let filename: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-type") contentType = value;
    if (key !== "content-disposition") continue;
    const n = /\bname="([^"]*)"/i.exec(value) ?? /\bname=([^;\s]+)/i.exec(value);
    if (n?.[1] !== undefined) name = n[1];
    const f = /\bfilename="([^"]*)"/i.exec(value) ?? /\bfilename=([^;\s]+)/i.exec(value);
    if (f?.[1] !== undefined) filename = f[1];
  }
  return { name, filename, contentType };
}

/**
 * Splits a multipart body on its boundary and returns the parts in order.
 * Header blocks are read as UTF-8 (field names and file names); bodies are
 * left as bytes. Throws when the body does not start with the boundary.
 *
 * @example Binary bytes survive
 * ```ts
 * import { parseMultipart } from "./multipart.ts";
 * const enc = new TextEncoder();
 * const body = new Uint8Array([
 *   ...enc.encode('--B\r\nContent-Disposition: form-data; name="image"\r\n\r\n'),
 *   0xff, 0x00, 0xfe,
 *   ...enc.encode("\r\n--B--\r\n"),
 * ]);
 * const [part] = parseMultipart(body, "B");
 * if (part?.name !== "image" || part.data.join() !== "255,0,254") throw new Error();
 * ```
 */
export function parseMultipart(body: Uint8Array, boundary: string): MultipartPart[] {
  const enc = new TextEncoder();
  const delimiter = enc.encode(`--${boundary}`);
  const separator = enc.encode("\r\n\r\n");
  const parts: MultipartPart[] = [];
  let pos = indexOf(body, delimiter, 0);
  if (pos < 0) throw new Error(`Expected the body to contain boundary ${boundary} but found none`);
  for (;;) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) break; // closing "--"
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) pos += 2;
    const headerEnd = indexOf(body, separator, pos);
    if (headerEnd < 0) throw new Error("Expected a blank line after part headers but found none");
    const headers = parseHeaders(utf8.decode(body.subarray(pos, headerEnd)));
    const dataStart = headerEnd + separator.length;
    const next = nextDelimiter(body, enc.encode(`\r\n--${boundary}`), dataStart);
    if (next < 0) throw new Error(`Expected a closing boundary ${boundary} but found none`);
    parts.push({ ...headers, data: body.slice(dataStart, next) });
    pos = next + 2;
  }
  return parts;
}

/**
 * Reads a text field from parsed parts (UTF-8), or `undefined`.
 *
 * @example
 * ```ts
 * import { partText } from "./multipart.ts";
 * const v = partText([{ name: "a", data: new TextEncoder().encode("x") }], "a");
 * if (v !== "x") throw new Error();
 * ```
 */
export function partText(parts: MultipartPart[], name: string): string | undefined {
  const part = parts.find((p) => p.name === name);
  return part ? utf8.decode(part.data) : undefined;
}
