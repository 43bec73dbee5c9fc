import assert from "node:assert/strict";
import { multipartBoundary, parseMultipart, partText } from "./multipart.ts";

const enc = new TextEncoder();

function body(boundary: string, parts: { head: string; data: Uint8Array }[]): Uint8Array {
  const chunks: number[] = [];
  for (const p of parts) {
    chunks.push(...enc.encode(`--${boundary}\r\n${p.head}\r\n\r\n`), ...p.data, 13, 10);
  }
  chunks.push(...enc.encode(`--${boundary}--\r\n`));
  return Uint8Array.from(chunks);
}

Deno.test("parseMultipart() keeps every byte of a binary part that has no filename", () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const b = "--------------------------4be054814d43dd9c23fc0880";
  const raw = body(b, [
    { head: 'Content-Disposition: form-data; name="image_type"', data: enc.encode("message") },
    {
      head:
        'Content-Disposition: form-data; name="image"\r\nContent-Type: application/octet-stream',
      data: bytes,
    },
  ]);
  const parts = parseMultipart(raw, b);
  assert.equal(parts.length, 2);
  assert.equal(partText(parts, "image_type"), "message");
  assert.deepEqual(parts[1]?.data, bytes);
  assert.equal(parts[1]?.contentType, "application/octet-stream");
  assert.equal(parts[1]?.filename, undefined);
});

Deno.test("parseMultipart() does not split on a CRLF-dash sequence that is not the boundary", () => {
  const tricky = enc.encode("a\r\n--not-it\r\n--B-almost");
  const raw = body("B", [
    { head: 'Content-Disposition: form-data; name="file"; filename="x.bin"', data: tricky },
  ]);
  const [part] = parseMultipart(raw, "B");
  assert.deepEqual(part?.data, tricky);
  assert.equal(part?.filename, "x.bin");
});

Deno.test("parseMultipart() reads UTF-8 field names and an empty part", () => {
  const raw = body("B", [
    { head: 'Content-Disposition: form-data; name="file_name"', data: enc.encode("报告.pdf") },
    { head: 'Content-Disposition: form-data; name="file"', data: new Uint8Array() },
  ]);
  const parts = parseMultipart(raw, "B");
  assert.equal(partText(parts, "file_name"), "报告.pdf");
  assert.equal(parts[1]?.data.length, 0);
});

Deno.test("parseMultipart() rejects a body without the boundary", () => {
  assert.throws(() => parseMultipart(enc.encode("nothing here"), "B"), /boundary B/);
});

Deno.test("multipartBoundary() returns undefined for a non-multipart content type", () => {
  assert.equal(multipartBoundary("application/json"), undefined);
  assert.equal(multipartBoundary(null), undefined);
  assert.equal(multipartBoundary("multipart/form-data; boundary=xyz; charset=utf-8"), "xyz");
});
