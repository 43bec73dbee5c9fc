import { deepEqual, equal } from "node:assert/strict";
import {
  canonicalJson,
  DUPLICATE_MESSAGE,
  duplicateBlocked,
  DuplicateGuard,
} from "./duplicate_guard.ts";

const send = { account: "main", receiveId: "ou_1", content: { type: "text", text: "hi" } };

Deno.test("DuplicateGuard passes two identical sends and blocks the third", () => {
  const guard = new DuplicateGuard();
  equal(guard.blocked(send), false);
  guard.record(send);
  equal(guard.blocked(send), false);
  guard.record(send);
  equal(guard.blocked(send), true);
});

Deno.test("DuplicateGuard treats key order as irrelevant and any other field as different", () => {
  const guard = new DuplicateGuard();
  guard.record(send);
  guard.record({ ...send, content: { text: "hi", type: "text" } });
  equal(guard.blocked(send), true);
  for (
    const other of [{ ...send, account: "b" }, { ...send, receiveId: "ou_2" }, {
      ...send,
      content: { type: "text", text: "ho" },
    }]
  ) {
    equal(guard.blocked(other), false);
  }
});

Deno.test("DuplicateGuard forgets the least recently used key past maxKeys", () => {
  const guard = new DuplicateGuard({ maxKeys: 2 });
  const other = (n: number) => ({ ...send, receiveId: `ou_${n}` });
  guard.record(send);
  guard.record(send);
  guard.record(other(2));
  guard.record(other(3));
  equal(guard.blocked(send), false);
});

Deno.test("DuplicateGuard lets the same content out again once the window has passed", () => {
  let now = 1_000_000;
  const guard = new DuplicateGuard({ windowMs: 10_000, now: () => now });
  guard.record(send);
  now += 6_000;
  guard.record(send);
  equal(guard.blocked(send), true);
  now += 4_001; // the first send is now older than the window
  equal(guard.blocked(send), false);
  guard.record(send);
  equal(guard.blocked(send), true, "the second and third sends are within 10 s of each other");
  now += 10_001;
  equal(guard.blocked(send), false);
});

Deno.test("duplicateBlocked() is the failure shape plus the same warning", () => {
  deepEqual(duplicateBlocked(), {
    status: "failed",
    error: DUPLICATE_MESSAGE,
    message: DUPLICATE_MESSAGE,
    error_code: "DUPLICATE_BLOCKED",
    retryable: false,
    retry_after_seconds: null,
    warning: DUPLICATE_MESSAGE,
  });
  equal(canonicalJson([{ b: 2, a: 1 }]), '[{"a":1,"b":2}]');
});
