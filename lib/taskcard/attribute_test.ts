import assert from "node:assert/strict";
import { argStrings, Attributor, type KnownRoute, rowTime, working } from "./attribute.ts";

const DM: KnownRoute = { key: "main:oc_dm", account: "main", chatId: "oc_dm", threadId: null };
const TEAM: KnownRoute = {
  key: "main:oc_team",
  account: "main",
  chatId: "oc_team",
  threadId: null,
};
const TOPIC_A: KnownRoute = {
  key: "main:oc_topics:omt_a",
  account: "main",
  chatId: "oc_topics",
  threadId: "omt_a",
};
const TOPIC_B: KnownRoute = { ...TOPIC_A, key: "main:oc_topics:omt_b", threadId: "omt_b" };

function attributor(): Attributor {
  const a = new Attributor();
  for (const r of [DM, TEAM, TOPIC_A, TOPIC_B]) a.addRoute(r);
  a.person("ou_alice", "oc_dm");
  a.message("om_in_a", TOPIC_A.key);
  return a;
}

const call = (args: Record<string, unknown>, round = "r1", id = "c1") => ({
  type: "tool_call",
  tool_name: "feishu",
  tool_call_id: id,
  api_call_id: round,
  tool_args: { _reasoning: "why", ...args },
});
const text = (t: string, round = "r1") => ({ type: "diary", text: t, api_call_id: round });
const turns = (...entries: [string, number][]) => new Map(entries);
const at = (value: unknown, t = 100) => ({ value, at: t });

Deno.test("a call naming a chat goes to that chat's route, whatever the agent is working on", () => {
  const a = attributor();
  const busy = turns([DM.key, 0]);
  for (
    const args of [
      { input: { receive_id: "oc_team", receive_id_type: "chat_id" } },
      { input: { message_id: "main:oc_team:om_1" } },
      { action: "read", input: { chat_id: "oc_team" } },
    ]
  ) {
    assert.deepEqual(a.assign([at(call(args))], busy)[0], { routes: [TEAM.key], visible: true });
  }
  // A person's open id names their direct chat.
  const toAlice = call({ input: { receive_id: "ou_alice" } });
  assert.deepEqual(a.assign([at(toAlice)], turns([TEAM.key, 0]))[0]!.routes, [DM.key]);
});

Deno.test("a message seen in a topic pins its route; otherwise every route of the chat", () => {
  const a = attributor();
  const pinned = call({ input: { message_id: "main:oc_topics:om_in_a" } });
  assert.deepEqual(a.assign([at(pinned)], turns())[0]!.routes, [TOPIC_A.key]);
  const unpinned = call({ input: { message_id: "main:oc_topics:om_unknown" } }, "r2");
  assert.deepEqual(a.assign([at(unpinned)], turns())[0]!.routes, [TOPIC_A.key, TOPIC_B.key]);
});

Deno.test("a call naming several chats, an unknown chat or an unknown person goes nowhere", () => {
  const a = attributor();
  const busy = turns([DM.key, 0]);
  for (
    const args of [
      { input: { message_id: "main:oc_team:om_1", text: "see main:oc_dm:om_2" } },
      { input: { receive_id: "oc_elsewhere" } },
      { input: { message_id: "other:oc_team:om_1" } }, // an account without a route there
      { input: { receive_id: "ou_stranger" } },
    ]
  ) {
    assert.deepEqual(a.assign([at(call(args))], busy)[0], { routes: [], visible: true });
  }
  // Chat ids win over open ids: a reply in the team mentioning Alice is the team's.
  const mention = call({ input: { message_id: "main:oc_team:om_1", mentions: ["ou_alice"] } });
  assert.deepEqual(a.assign([at(mention, 100)], busy)[0]!.routes, [TEAM.key]);
});

Deno.test("an untargeted row goes to the one route being worked on, else nowhere", () => {
  const a = attributor();
  const row = text("your salary is 12345");
  assert.deepEqual(a.assign([at(row)], turns([DM.key, 50]))[0]!.routes, [DM.key]);
  assert.deepEqual(a.assign([at(row)], turns())[0]!.routes, [], "no turn open");
  assert.deepEqual(a.assign([at(row)], turns([DM.key, 50], [TEAM.key, 60]))[0]!.routes, []);
  // A turn that began after the row was written does not take it; an older one does.
  assert.deepEqual(a.assign([at(row, 55)], turns([DM.key, 50], [TEAM.key, 60]))[0]!.routes, [
    DM.key,
  ]);
  assert.deepEqual(a.assign([at(row, 40)], turns([DM.key, 50]))[0]!.routes, []);
  // A call naming nothing is untargeted too.
  const bash = { ...call({ command: "ls" }, "r9"), tool_name: "bash" };
  assert.deepEqual(a.assign([at(bash)], turns([TEAM.key, 0]))[0]!.routes, [TEAM.key]);
});

Deno.test("a round's text follows its targeted call only when no other conversation is worked on", () => {
  const a = attributor();
  const round = [
    at(text("I'll tell the team", "rt")),
    at(call({ input: { chat_id: "oc_team" } }, "rt")),
  ];
  // Read in one batch, the text written before the call follows it.
  assert.deepEqual(a.assign(round, turns()).map((x) => x.routes), [[TEAM.key], [TEAM.key]]);
  assert.deepEqual(a.assign([at(text("more", "rt"))], turns([TEAM.key, 0]))[0]!.routes, [TEAM.key]);
  // With the DM also worked on, the round's text belongs to no one (the call still to the team).
  const both = turns([DM.key, 0], [TEAM.key, 0]);
  assert.deepEqual(a.assign([at(text("salary 12345", "rt"))], both)[0]!.routes, []);
  // With only the DM worked on, the team round's text does not go to the DM either.
  assert.deepEqual(a.assign([at(text("salary", "rt"))], turns([DM.key, 0]))[0]!.routes, []);
});

Deno.test("a round with calls to two chats, or to an unknown one, gives its text to no one", () => {
  const a = attributor();
  const rows = [
    at(call({ input: { chat_id: "oc_team" } }, "rx", "c1")),
    at(call({ input: { receive_id: "ou_alice" } }, "rx", "c2")),
    at(text("summary", "rx")),
  ];
  assert.deepEqual(a.assign(rows, turns([DM.key, 0])).map((x) => x.routes), [
    [TEAM.key],
    [DM.key],
    [],
  ]);
  const unknown = [
    at(call({ input: { chat_id: "oc_elsewhere" } }, "ry")),
    at(text("sent it", "ry")),
  ];
  assert.deepEqual(a.assign(unknown, turns([DM.key, 0])).map((x) => x.routes), [[], []]);
});

Deno.test("results follow their call, telemetry goes to every open turn, hidden rows nowhere", () => {
  const a = attributor();
  a.assign([at(call({ input: { chat_id: "oc_team" } }, "r1", "c7"))], turns());
  const result = { type: "tool_result", tool_call_id: "c7", status: "ok" };
  assert.deepEqual(a.assign([at(result)], turns())[0], { routes: [TEAM.key], visible: false });
  const orphan = { type: "tool_result", tool_call_id: "c8", status: "ok" };
  assert.deepEqual(a.assign([at(orphan)], turns([DM.key, 0]))[0]!.routes, []);
  const carrier = { type: "notification_block_injected" };
  assert.deepEqual(a.assign([at(carrier)], turns([DM.key, 0], [TEAM.key, 500]))[0], {
    routes: [DM.key, TEAM.key],
    visible: false,
  });
  for (const row of [{ type: "thinking", text: "private" }, { ...text("x"), hidden: true }, 7]) {
    assert.deepEqual(a.assign([at(row)], turns([DM.key, 0]))[0], { routes: [], visible: false });
  }
});

Deno.test("a forgotten route takes no more rows", () => {
  const a = attributor();
  a.removeRoute(TEAM.key);
  assert.deepEqual(a.assign([at(call({ input: { chat_id: "oc_team" } }))], turns())[0]!.routes, []);
});

Deno.test("arguments are searched to a bounded depth and count", () => {
  const deep = { a: { b: { c: "oc_team", d: { e: "oc_dm" } } } };
  assert.deepEqual(argStrings(deep, 3, 10), ["oc_team"]);
  assert.deepEqual(argStrings({ list: ["x", "y", "z"] }, 3, 2), ["x", "y"]);
  assert.deepEqual(argStrings("not an object", 3, 10), []);
  assert.deepEqual(working(turns(["a", 1], ["b", 5]), 3), ["a"]);
  assert.equal(rowTime({ ts: 1_700_000_000.25 }, 0), 1_700_000_000_250);
  assert.equal(rowTime({}, 42), 42);
});
