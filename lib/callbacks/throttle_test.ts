import assert from "node:assert/strict";
import { CLICK_WAKES_PER_WINDOW, CLICK_WINDOW_MS, createClickThrottle } from "./throttle.ts";

Deno.test("createClickThrottle() allows 10 wakes in any minute per user; clicks over the limit do not count", () => {
  const t = createClickThrottle();
  const at = (n: number) => 1_000_000 + n;
  for (let i = 0; i < CLICK_WAKES_PER_WINDOW; i++) assert.equal(t.take("ou_a", at(i)), true);
  assert.equal(t.peek("ou_a", at(10)), false);
  for (let i = 0; i < 100; i++) assert.equal(t.take("ou_a", at(10 + i)), false);
  // The first wake ages out a window after it: one more wake, and only one.
  assert.equal(t.take("ou_a", at(CLICK_WINDOW_MS)), true);
  assert.equal(t.take("ou_a", at(CLICK_WINDOW_MS)), false);
  assert.equal(t.peek("ou_b", at(0)), true);
});

Deno.test("createClickThrottle() forgets idle users first, then the longest known, at its user cap", () => {
  const t = createClickThrottle({ limit: 1, windowMs: 100, maxUsers: 2 });
  assert.equal(t.take("ou_a", 0), true);
  assert.equal(t.take("ou_b", 150), true);
  // a is idle by now: forgotten for c, while b's wake still counts.
  assert.equal(t.take("ou_c", 160), true);
  assert.equal(t.take("ou_b", 170), false);
  // Everyone active: the longest known (b) is forgotten for d, and gets a wake again.
  assert.equal(t.take("ou_d", 180), true);
  assert.equal(t.take("ou_b", 190), true);
});
