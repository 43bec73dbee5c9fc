import assert from "node:assert/strict";
import { decodeFrame, encodeFrame, type Frame } from "./pbbp2.ts";

const sample: Frame = {
  SeqID: 2 ** 40 + 5,
  LogID: 12345678901,
  service: 33554678,
  method: 1,
  headers: [
    { key: "type", value: "event" },
    { key: "message_id", value: "fm_emu_0001" },
    { key: "trace_id", value: "中文" },
  ],
  payload: Uint8Array.from([0, 255, 128, 10]),
};

Deno.test("encodeFrame() and decodeFrame() round-trip every field", () => {
  const back = decodeFrame(encodeFrame({ ...sample, payloadEncoding: "x", LogIDNew: "n" }));
  assert.deepEqual(back, { ...sample, payloadEncoding: "x", LogIDNew: "n" });
});

Deno.test("encodeFrame() writes a negative int32 service as a ten-byte varint that decodes back", () => {
  const bytes = encodeFrame({ SeqID: 0, LogID: 0, service: -1, method: 0, headers: [] });
  assert.equal(bytes.length, 2 + 2 + 11 + 2);
  assert.equal(decodeFrame(bytes).service, -1);
});

for (const missing of ["SeqID", "LogID", "service", "method"]) {
  Deno.test(`decodeFrame() rejects a frame without the required ${missing}`, () => {
    const fields = { SeqID: 0x08, LogID: 0x10, service: 0x18, method: 0x20 } as const;
    const bytes: number[] = [];
    for (const [name, tag] of Object.entries(fields)) if (name !== missing) bytes.push(tag, 1);
    assert.throws(() => decodeFrame(Uint8Array.from(bytes)), new RegExp(missing));
  });
}

Deno.test("decodeFrame() skips unknown fields of every wire type", () => {
  const base = encodeFrame({ SeqID: 1, LogID: 2, service: 3, method: 4, headers: [] });
  const extra = [0x58, 5, 0x61, 1, 2, 3, 4, 5, 6, 7, 8, 0x6d, 1, 2, 3, 4, 0x72, 1, 9];
  const back = decodeFrame(Uint8Array.from([...base, ...extra]));
  assert.deepEqual([back.SeqID, back.LogID, back.service, back.method], [1, 2, 3, 4]);
});

Deno.test("decodeFrame() rejects a truncated length-delimited field", () => {
  const base = encodeFrame({ SeqID: 1, LogID: 2, service: 3, method: 4, headers: [] });
  assert.throws(() => decodeFrame(Uint8Array.from([...base, 0x42, 10, 1])), /Expected 10 bytes/);
});

Deno.test("decodeFrame() rejects a header without a value", () => {
  const base = encodeFrame({ SeqID: 1, LogID: 2, service: 3, method: 4, headers: [] });
  assert.throws(() => decodeFrame(Uint8Array.from([...base, 0x2a, 3, 0x0a, 1, 0x61])), /value/);
});
