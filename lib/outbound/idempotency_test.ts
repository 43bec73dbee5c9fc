import { equal, notEqual, ok, throws } from "node:assert/strict";
import { checkIdempotencyKey, chunkUuid, chunkUuids } from "./idempotency.ts";

/** Pinned so a change to the derivation (which would break replays across versions) shows. */
const PINNED = "8cecc72e-99e5-89de-bb77-f84177f7f004";

Deno.test("chunkUuid() is stable across calls for the same account, key and index", () => {
  const spec = { account: "main", idempotencyKey: "reply-7", index: 2 };
  equal(chunkUuid(spec), chunkUuid({ ...spec }));
  equal(chunkUuid(spec), PINNED);
});

Deno.test("chunkUuid() differs when any input differs, including ambiguous joins", () => {
  const seen = new Set<string>();
  const inputs = [
    { account: "main", idempotencyKey: "k", index: 0 },
    { account: "main", idempotencyKey: "k", index: 1 },
    { account: "main", idempotencyKey: "k2", index: 0 },
    { account: "other", idempotencyKey: "k", index: 0 },
    { account: "ma", idempotencyKey: "ink", index: 0 },
    { account: "main:", idempotencyKey: "k", index: 0 },
    { account: "main", idempotencyKey: ":k", index: 0 },
  ];
  for (const i of inputs) seen.add(chunkUuid(i));
  equal(seen.size, inputs.length);
});

Deno.test("chunkUuid() never collides over many keys and indexes", () => {
  const seen = new Set<string>();
  for (let k = 0; k < 200; k++) {
    for (let i = 0; i < 50; i++) {
      seen.add(chunkUuid({ account: "a", idempotencyKey: `key-${k}`, index: i }));
    }
  }
  equal(seen.size, 10_000);
});

Deno.test("chunkUuid() is a version-8 UUID within Feishu's 50 characters", () => {
  const id = chunkUuid({ account: "main", idempotencyKey: "x".repeat(256), index: 999 });
  ok(id.length <= 50);
  ok(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id), id);
  throws(() => chunkUuid({ account: "a", idempotencyKey: "k", index: -1 }), RangeError);
});

Deno.test("chunkUuids() derives ids with a key and draws random ids without one", () => {
  const derived = chunkUuids({ account: "main", idempotencyKey: "k", count: 3 }, {
    newId: () => {
      throw new Error("no random id expected");
    },
  });
  equal(derived.length, 3);
  equal(derived[1], chunkUuid({ account: "main", idempotencyKey: "k", index: 1 }));
  const random = chunkUuids({ account: "main", idempotencyKey: null, count: 2 }, {
    newId: () => crypto.randomUUID(),
  });
  notEqual(random[0], random[1]);
});

Deno.test("checkIdempotencyKey() rejects empty, non-string and over-long keys", () => {
  equal(checkIdempotencyKey(undefined), undefined);
  for (const bad of ["", 5, "x".repeat(257)]) {
    throws(
      () => checkIdempotencyKey(bad),
      /^BridgeError: Expected idempotency_key to be a non-empty string of at most 256 characters but found/,
    );
  }
});
