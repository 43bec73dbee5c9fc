import assert from "node:assert/strict";
import { Attributor } from "./attribute.ts";
import { RouteFrames } from "./frames.ts";
import type { EventsLogLine } from "./project.ts";
import { cardLook } from "./look.ts";
import { otherStepsLine } from "./render.ts";

const same = (s: string) => s;
const LOOK = cardLook(null, same, "UTC");
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const DM = "main:oc_dm";
const TEAM = "main:oc_team";

let offset = 0;
function lines(...rows: Record<string, unknown>[]): EventsLogLine[] {
  return rows.map((value) => {
    const text = JSON.stringify(value);
    const line = { at: offset, text, value };
    offset += text.length + 1;
    return line;
  });
}

function setup() {
  const a = new Attributor();
  a.addRoute({ key: DM, account: "main", chatId: "oc_dm", threadId: null });
  a.addRoute({ key: TEAM, account: "main", chatId: "oc_team", threadId: null });
  return { a, f: new RouteFrames(same) };
}

const diary = (text: string, round: string, ts: number) => ({
  type: "diary",
  text,
  api_call_id: round,
  ts,
});

Deno.test("each route's frame shows only its own rows; the other sees a neutral count while working", () => {
  const { a, f } = setup();
  f.open(DM, 1000);
  const changed = f.take(lines(diary("your salary is 12345", "r1", 2)), a, 0);
  assert.deepEqual([...changed.own], [DM]);
  assert.deepEqual([...changed.counted], []);
  assert.match(f.render(DM, 1, LOOK, NOW), /your salary is 12345/);
  f.open(TEAM, 3000);
  // Both are worked on: a plain row belongs to no one; each open turn counts it.
  const both = f.take(lines(diary("thinking aloud", "r2", 4)), a, 0);
  assert.deepEqual([...both.own], []);
  assert.deepEqual([...both.counted].sort(), [DM, TEAM]);
  const team = f.render(TEAM, 1, LOOK, NOW);
  assert.ok(!team.includes("12345") && !team.includes("thinking aloud"), team);
  assert.ok(team.includes(otherStepsLine(1)), team);
  // A call to the team goes there; the DM counts it.
  const call = {
    type: "tool_call",
    tool_name: "feishu",
    tool_call_id: "c1",
    api_call_id: "r3",
    ts: 5,
    tool_args: { _reasoning: "answer the team", input: { chat_id: "oc_team" } },
  };
  f.take(lines(call), a, 0);
  assert.match(f.render(TEAM, 1, LOOK, NOW), /feishu: answer the team/);
  assert.ok(f.render(DM, 1, LOOK, NOW).includes(otherStepsLine(2)));
  assert.ok(!f.render(DM, 1, LOOK, NOW).includes("answer the team"));
  // The DM's turn ends: its neutral line goes, its rows stay.
  assert.equal(f.close(DM), true);
  const dm = f.render(DM, 10, LOOK, NOW);
  assert.ok(!dm.includes("other conversations") && dm.includes("12345"), dm);
  assert.equal(f.close(DM), false);
});

Deno.test("rows written before a turn began are not counted for it; a route without rows renders empty", () => {
  const { a, f } = setup();
  f.open(TEAM, 10_000);
  const changed = f.take(lines(diary("earlier", "r1", 5)), a, 0);
  assert.deepEqual(changed, { own: new Set(), counted: new Set() });
  assert.ok(!f.render(TEAM, 1, LOOK, NOW).includes("other conversations"));
  assert.ok(f.render("main:oc_nobody", 1, LOOK, NOW).startsWith("📋 ACTIVITIES\n\n"));
});

Deno.test("telemetry reaches only routes working when it is written; idle routes keep theirs", () => {
  const { a, f } = setup();
  const carrier = (calls: number) => ({
    type: "notification_block_injected",
    _meta: { agent_meta: { agent_state: { token_usage: { session: { api_calls: calls } } } } },
  });
  f.open(DM, 0);
  f.take(lines(carrier(3)), a, 0);
  f.close(DM);
  f.open(TEAM, 0);
  f.take(lines(carrier(9)), a, 0);
  assert.match(f.render(DM, 1, LOOK, NOW), /\b3\b/);
  assert.doesNotMatch(f.render(DM, 1, LOOK, NOW), /\b9\b/);
  assert.match(f.render(TEAM, 1, LOOK, NOW), /\b9\b/);
});

Deno.test("the programmable section shows on the routes it was set for until cleared", () => {
  const { f } = setup();
  assert.equal(f.setSlot(DM, "my plan"), true);
  assert.equal(f.setSlot(DM, "my plan"), false);
  assert.ok(f.render(DM, 1, LOOK, NOW).endsWith("— TASK CARD —\nmy plan"));
  assert.ok(!f.render(TEAM, 1, LOOK, NOW).includes("my plan"));
  assert.deepEqual(f.clearSlots(), [DM]);
  assert.ok(!f.render(DM, 1, LOOK, NOW).includes("my plan"));
  f.open(DM, 0);
  f.forget(DM);
  assert.equal(f.working(DM), false);
});
