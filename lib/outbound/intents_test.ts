import assert from "node:assert/strict";
import { recoveryDecision, sendIdentity, UUID_SAFE_MS } from "./intents.ts";

const cases: [string, { delivered: number; age: number; recorded: boolean }, string][] = [
  ["its record is there", { delivered: 3, age: 0, recorded: true }, "close"],
  [
    "its record is there, however old",
    { delivered: 3, age: 2 * UUID_SAFE_MS, recorded: true },
    "close",
  ],
  ["fresh, some chunks delivered", { delivered: 2, age: 1000, recorded: false }, "finish"],
  ["fresh, nothing delivered yet", { delivered: 0, age: 0, recorded: false }, "finish"],
  ["just inside the window", { delivered: 1, age: UUID_SAFE_MS - 1, recorded: false }, "finish"],
  ["at the window's end", { delivered: 1, age: UUID_SAFE_MS, recorded: false }, "partial"],
  ["old, nothing delivered", { delivered: 0, age: UUID_SAFE_MS, recorded: false }, "drop"],
];
for (const [what, c, want] of cases) {
  Deno.test(`recoveryDecision() says ${want} for an open intent when ${what}`, () => {
    const got = recoveryDecision(
      { createdAt: 1_000_000, delivered: c.delivered },
      { now: 1_000_000 + c.age, recorded: c.recorded },
    );
    assert.equal(got, want);
  });
}

Deno.test("UUID_SAFE_MS stays well inside Feishu's one-hour uuid window", () => {
  assert.ok(UUID_SAFE_MS <= 50 * 60_000);
});

Deno.test("sendIdentity() tells sends apart by account, target, reply mode, content, key and upload bytes", () => {
  const create = { kind: "create" as const, receiveId: "oc_1", receiveIdType: "chat_id" };
  const reply = {
    kind: "reply" as const,
    chatId: "oc_1",
    messageId: "om_1",
    replyInThread: false,
    storedThread: null,
  };
  const content = { type: "text" as const, text: "hi" };
  const base = { account: "main", target: create, content };
  const ids = [
    sendIdentity(base),
    sendIdentity({ ...base, account: "other" }),
    sendIdentity({ ...base, target: { ...create, receiveId: "oc_2" } }),
    sendIdentity({ ...base, target: { ...create, receiveIdType: "open_id" } }),
    sendIdentity({ ...base, target: reply }),
    sendIdentity({ ...base, target: { ...reply, replyInThread: true } }),
    sendIdentity({ ...base, content: { type: "text", text: "ho" } }),
    sendIdentity({ ...base, idempotencyKey: "k" }),
    sendIdentity({ ...base, upload: new Uint8Array([1]) }),
    sendIdentity({ ...base, upload: new Uint8Array([2]) }),
  ];
  assert.equal(new Set(ids).size, ids.length);
  // The reply's known topic is not part of it: the same reply is the same send.
  assert.equal(
    sendIdentity({ ...base, target: reply }),
    sendIdentity({ ...base, target: { ...reply, storedThread: "omt_1" } }),
  );
});
