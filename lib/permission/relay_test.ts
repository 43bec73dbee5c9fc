import assert from "node:assert/strict";
import { createAccount } from "../account/mod.ts";
import type { CardCallback } from "../callbacks/mod.ts";
import { createLogger, ManualClock } from "../core/mod.ts";
import { DEFAULT_IDS as D, startEmulator } from "../emulator/mod.ts";
import { openStore } from "../store/mod.ts";
import { createPermissionRelay, REQUEST_TTL_MS } from "./relay.ts";

/** A relay over a real account (REST and outbox) against the emulator, on a manual clock. */
async function relayRig(allowed: string[] | null, owners: string[] = [], language?: string) {
  const emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-relay-" });
  const clock = new ManualClock(Date.now());
  const log = createLogger({ sink: () => {} });
  const store = openStore(workdir, clock);
  const account = createAccount({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    allowedUsers: allowed,
    owners,
    baseUrl: emu.url,
  }, { store, clock, log });
  const verdicts: unknown[] = [];
  const relay = createPermissionRelay({
    accounts: [account],
    clock,
    log,
    notifyVerdict: (v) => Promise.resolve(void verdicts.push(v)),
    profile: () => Promise.resolve({ language: language ?? null, timeZone: "Asia/Shanghai" }),
  });
  /** The approval card last sent to Alice's DM. */
  const card = () => emu.lastSent(D.aliceP2p)?.messageId ?? null;
  const click = (
    requestId: string,
    behavior: "allow" | "deny",
    openId: string = D.alice.openId,
    where: { card?: string | null; chat?: string } = {},
  ) => {
    const cb: CardCallback = {
      eventId: crypto.randomUUID(),
      chatId: where.chat ?? D.aliceP2p,
      threadId: null,
      sourceMessageId: where.card === undefined ? card() : where.card,
      operator: { open_id: openId, name: "Alice" },
      action: { tag: "button", value: {} },
      token: null,
      atMs: null,
      raw: {},
    };
    return relay.click(account, cb, { requestId, behavior }) as Promise<
      { toast: { type: string; content: string }; card?: unknown }
    >;
  };
  const ask = (requestId: string) =>
    relay.request({
      request_id: requestId,
      tool_name: "Bash",
      description: "d",
      input_preview: "x",
    });
  return {
    emu,
    clock,
    relay,
    verdicts,
    click,
    card,
    account,
    ask,
    async [Symbol.asyncDispose]() {
      account.outbox.close();
      store.close();
      await emu.close();
    },
  };
}

Deno.test("createPermissionRelay() refuses a click after the request's time to live and sends no verdict", async () => {
  await using rig = await relayRig([D.alice.openId]);
  await rig.ask("abcde");
  assert.match(rig.emu.lastSent(D.aliceP2p)!.content, /request abcde/);
  rig.clock.advance(REQUEST_TTL_MS + 1);
  const answer = await rig.click("abcde", "allow");
  assert.deepEqual(answer, {
    toast: { type: "warning", content: "This permission request has expired." },
  });
  assert.deepEqual(rig.verdicts, []);
  assert.equal(rig.relay.counters.refused, 1);
});

Deno.test("createPermissionRelay() answers two simultaneous clicks once", async () => {
  await using rig = await relayRig([D.alice.openId]);
  await rig.ask("abcde");
  const [a, b] = await Promise.all([rig.click("abcde", "allow"), rig.click("abcde", "deny")]);
  assert.deepEqual(rig.verdicts, [{ request_id: "abcde", behavior: "allow" }]);
  assert.equal(a.toast.content, "Allowed");
  assert.ok(a.card);
  assert.equal(b.toast.content, "Already answered: allowed by Alice.");
  assert.equal(b.card, undefined);
});

Deno.test("createPermissionRelay() is off without allowed_users and ignores malformed or repeated requests", async () => {
  await using open = await relayRig(null);
  assert.equal(open.relay.enabled, false);
  await open.ask("abcde");
  assert.equal(open.relay.counters.undelivered, 1);
  assert.equal(open.emu.lastSent(D.aliceP2p), undefined);

  await using gated = await relayRig([D.alice.openId]);
  await gated.relay.request({
    request_id: "abcdl",
    tool_name: "x",
    description: "",
    input_preview: "",
  });
  await gated.relay.request({ request_id: "abcde", tool_name: 1 });
  assert.equal(gated.relay.counters.requests, 0);
  await gated.ask("abcde");
  await gated.ask("abcde");
  assert.equal(gated.relay.counters.requests, 1);
  assert.equal(gated.relay.counters.cards, 1);
});

Deno.test("createPermissionRelay() counts a vote only from the request's own card in its chat", async () => {
  await using rig = await relayRig([D.alice.openId]);
  await rig.ask("abcde");
  const first = rig.card()!;
  await rig.ask("fghij");
  const second = rig.card()!;
  assert.notEqual(first, second);
  assert.equal(rig.relay.approvalChat(rig.account, first), D.aliceP2p);
  assert.equal(rig.relay.approvalChat(rig.account, second), D.aliceP2p);
  assert.equal(rig.relay.approvalChat(rig.account, "om_other"), null);
  // fghij's card cannot answer abcde, nor can abcde's card from another chat.
  const wrongCard = await rig.click("abcde", "allow", D.alice.openId, { card: second });
  assert.deepEqual(wrongCard.toast, {
    type: "error",
    content: "This card does not answer that permission request.",
  });
  const wrongChat = await rig.click("abcde", "allow", D.alice.openId, {
    card: first,
    chat: D.team,
  });
  assert.equal(wrongChat.toast.type, "error");
  assert.deepEqual(rig.verdicts, []);
  const right = await rig.click("abcde", "deny", D.alice.openId, { card: first });
  assert.equal(right.toast.content, "Denied");
  assert.deepEqual(rig.verdicts, [{ request_id: "abcde", behavior: "deny" }]);
});

Deno.test("createPermissionRelay() takes a verdict only from an owner when owners are named", async () => {
  // Bob may talk to the agent; only Alice, the owner, may approve what it does.
  await using rig = await relayRig([D.alice.openId, D.bob.openId], [D.alice.openId]);
  assert.equal(rig.relay.enabled, true);
  await rig.ask("abcde");
  const bob = await rig.click("abcde", "allow", D.bob.openId);
  assert.deepEqual(bob.toast, {
    type: "error",
    content: "Only an owner of the agent can answer this request.",
  });
  assert.deepEqual(rig.verdicts, []);
  const alice = await rig.click("abcde", "deny");
  assert.equal(alice.toast.content, "Denied");
  assert.deepEqual(rig.verdicts, [{ request_id: "abcde", behavior: "deny" }]);

  // Owners alone (no allowed_users) also switch the relay on; the card goes to the owner's DM.
  await using ownersOnly = await relayRig(null, [D.alice.openId]);
  assert.equal(ownersOnly.relay.enabled, true);
  await ownersOnly.ask("fghij");
  assert.match(ownersOnly.emu.lastSent(D.aliceP2p)!.content, /request fghij/);
});

Deno.test("createPermissionRelay() speaks the agent's language on the card, before and after the verdict", async () => {
  await using rig = await relayRig([D.alice.openId], [], "zh");
  await rig.ask("abcde");
  const open = rig.emu.lastSent(D.aliceP2p)!.content;
  assert.match(open, /权限请求/);
  assert.match(open, /"允许"/);
  assert.doesNotMatch(open, /Permission request|"Allow"/);
  const answer = await rig.click("abcde", "allow");
  const done = JSON.stringify(answer.card);
  assert.match(done, /已允许/);
  assert.match(done, /Asia\/Shanghai/);
});
