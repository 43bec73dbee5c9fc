import assert from "node:assert/strict";
import {
  type BotWakeCap,
  BotWakeGuard,
  decideBotWake,
  EMPTY_BOT_WAKE_STATE,
  HELD_IDS_KEPT,
} from "./bot_guard.ts";

const CAP: BotWakeCap = { max: 10, windowMs: 600_000 };

/** Runs ids at times through one chat's guard; returns "w" (wake), "h" (held) or "n" (held, notice). */
function run(steps: [string, number][], cap = CAP): string {
  let state = EMPTY_BOT_WAKE_STATE;
  return steps.map(([id, at]) => {
    const v = decideBotWake(state, id, at, cap);
    state = v.state;
    return v.wake ? "w" : v.notice ? "n" : "h";
  }).join("");
}

const ids = (n: number, at: (i: number) => number, prefix = "om_") =>
  Array.from({ length: n }, (_, i) => [`${prefix}${i}`, at(i)] as [string, number]);

Deno.test("decideBotWake() wakes the first ten in the window, holds the rest, and asks for one notice", () => {
  assert.equal(run(ids(13, (i) => i * 1000)), "wwwwwwwwwwnhh");
});

Deno.test("decideBotWake() slides: a wake older than the window frees one place, and the next overflow notices again", () => {
  // Ten at 0..9 s; at 600 s the first has left the window (one place), at 601 s the second.
  const steps: [string, number][] = [
    ...ids(10, (i) => i * 1000),
    ["om_a", 599_999], // still full: held, notice
    ["om_b", 600_000], // om_0 (at 0) left the window: wakes, the episode ends
    ["om_c", 600_500], // full again: held, a new notice
    ["om_d", 601_000], // om_1 (at 1000) left: wakes
    ["om_e", 601_000], // full: a third episode
  ];
  assert.equal(run(steps), "wwwwwwwwwwnwnwn");
});

Deno.test("decideBotWake() gives a repeated id the same answer without counting it again", () => {
  const cap = { max: 2, windowMs: 1000 };
  assert.equal(
    run([["om_1", 0], ["om_1", 1], ["om_2", 2], ["om_3", 3], ["om_3", 4], ["om_2", 5]], cap),
    "wwwnhw",
  );
});

Deno.test("decideBotWake() remembers only the latest held ids", () => {
  let state = EMPTY_BOT_WAKE_STATE;
  for (const [id, at] of ids(HELD_IDS_KEPT + 20, () => 0)) {
    state = decideBotWake(state, id, at, { max: 1, windowMs: 1000 }).state;
  }
  assert.equal(state.held.length, HELD_IDS_KEPT);
  assert.equal(state.wakes.length, 1);
});

Deno.test("BotWakeGuard keeps chats apart", () => {
  const guard = new BotWakeGuard();
  const cap = { max: 1, windowMs: 1000 };
  assert.equal(guard.decide("oc_a", "om_1", 0, cap).wake, true);
  assert.equal(guard.decide("oc_b", "om_2", 0, cap).wake, true);
  assert.deepEqual(
    [guard.decide("oc_a", "om_3", 1, cap), guard.decide("oc_a", "om_3", 2, cap)].map((v) => [
      v.wake,
      v.notice,
    ]),
    [[false, true], [false, false]],
  );
});
