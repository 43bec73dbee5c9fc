import assert from "node:assert/strict";
import { backoffDelay, classifyWsError, DEFAULT_BACKOFF, type WsFailureKind } from "./backoff.ts";

const classified: [string, WsFailureKind, number | null][] = [
  ["pullConnectConfig failed: code=514, msg=auth failed", "auth", 514],
  ["pullConnectConfig failed: code=403, msg=forbidden", "refused", 403],
  ["pullConnectConfig failed: code=1, msg=system busy", "refused", 1],
  ["pullConnectConfig failed: code=1000040350, msg=exceed_conn_limit", "refused", 1000040350],
  ["WebSocket reconnect exhausted after 3 attempts", "exhausted", null],
  ["WebSocket connect failed and autoReconnect is disabled", "other", null],
  ["client assertion token is empty", "other", null],
];

for (const [message, kind, code] of classified) {
  Deno.test(`classifyWsError() reads "${message}" as ${kind}`, () => {
    assert.deepEqual(classifyWsError(message), { kind, code });
  });
}

Deno.test("backoffDelay() doubles from 1 s and stops at the 60 s cap", () => {
  const top = () => 1 - Number.EPSILON;
  const got = [1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) =>
    Math.round(backoffDelay(n, { kind: "refused", random: top }))
  );
  assert.deepEqual(got, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
});

Deno.test("backoffDelay() jitters within [half, all] of the step", () => {
  for (const r of [0, 0.25, 0.5, 0.999]) {
    const d = backoffDelay(4, { kind: "exhausted", random: () => r });
    assert.equal(d, 8_000 * (0.5 + 0.5 * r));
  }
});

Deno.test("backoffDelay() waits at least the auth delay after a 514, even on the first attempt", () => {
  assert.equal(backoffDelay(1, { kind: "auth", random: () => 0.5 }), DEFAULT_BACKOFF.authMs * 0.75);
  const policy = { baseMs: 10, maxMs: 100, authMs: 50 };
  assert.equal(backoffDelay(9, { kind: "auth", random: () => 0, policy }), 50);
  assert.equal(backoffDelay(9, { kind: "other", random: () => 0, policy }), 50);
  assert.equal(backoffDelay(1, { kind: "other", random: () => 0, policy }), 5);
});
