import assert from "node:assert/strict";
import { type Account, createAccount } from "../account/mod.ts";
import { type Clock, createLogger, ManualClock, systemClock } from "../core/mod.ts";
import {
  DEFAULT_IDS as D,
  type Emulator,
  type EmulatorOptions,
  ManualEmuClock,
  type RequestRecord,
  startEmulator,
  TENANT_KEY,
} from "../emulator/mod.ts";
import { incomingRecord } from "../store/testdata/records.ts";
import { openStore, type Store } from "../store/mod.ts";
import type { DeliveryRoute } from "./deliver.ts";
import { PRIORITY } from "./scheduler.ts";
import { wireBody } from "./wire.ts";

const quiet = createLogger({ sink: () => {} });

/** A second app in the emulator's world, with its bot in the group "Team". */
const SECOND = { appId: "cli_b2b2b2b2b2b2b2b2", appSecret: "second-secret" };

const MESSAGES = "/open-apis/im/v1/messages";

/** The emulator, a real store in a temp dir, and accounts built on them as the service builds them. */
async function rig(options: { emulator?: EmulatorOptions; clock?: Clock } = {}) {
  const emu = await startEmulator(options.emulator);
  emu.world.addApp({
    ...SECOND,
    botOpenId: "ou_emu_bot_two",
    botUnionId: "on_emu_bot_two",
    botName: "SecondBot",
    tenantKey: TENANT_KEY,
  });
  emu.world.chats.get(D.team)!.bots.add(SECOND.appId);
  const dir = await Deno.makeTempDir({ prefix: "feishu-mcp-outbox-" });
  const clock = options.clock ?? systemClock;
  const store: Store = openStore(dir, clock);
  const accounts: Account[] = [];
  const account = (alias: string, app: { appId: string; appSecret: string } = D) => {
    const a = createAccount({
      alias,
      appId: app.appId,
      appSecret: app.appSecret,
      allowedUsers: null,
      baseUrl: emu.url,
    }, { store, clock, log: quiet });
    accounts.push(a);
    return a;
  };
  return {
    emu,
    store,
    account,
    async [Symbol.asyncDispose]() {
      for (const a of accounts) a.outbox.close();
      store.close();
      await emu.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** One text message sent to a chat (or a user), as one chunk. */
function send(
  receiveId: string,
  text: string,
  receiveIdType: "chat_id" | "open_id" = "chat_id",
) {
  return {
    route: { kind: "create", receiveId, receiveIdType } as const,
    bodies: [wireBody("text", { text })],
    uuids: [crypto.randomUUID()],
  };
}

/**
 * Turns a hang into a failure on a broken build; nothing is timed by it
 * (a passing run never comes near it).
 */
async function guard<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Expected ${what} but it never settled`)), 30_000);
  });
  try {
    return await Promise.race([p, stop]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a logged request carries a text body with `text`. */
const sentText = (text: string) => (r: RequestRecord) =>
  typeof (r.body as { content?: unknown } | undefined)?.content === "string" &&
  JSON.parse((r.body as { content: string }).content).text === text;

/** Lets queued work run until `n` sleeps wait on the clock (bounded by turns, not time). */
async function armed(clock: ManualClock, n: number): Promise<void> {
  for (let turn = 0; turn < 1000 && clock.pendingSleeps() < n; turn++) {
    await new Promise((r) => setTimeout(r, 0));
  }
  assert.equal(clock.pendingSleeps(), n, "sleeps armed on the clock");
}

/**
 * Holds the lane of `chatId`: a message whose create the emulator answers
 * only when its clock is advanced. Resolves once the held request arrived.
 */
async function holdLane(emu: Emulator, account: Account, chatId: string) {
  emu.faults.add({ method: "POST", path: MESSAGES, times: 1, respond: { delayMs: 60_000 } });
  const held = account.outbox.deliver(send(chatId, "held"));
  await emu.waitFor(() => emu.requests({ method: "POST", path: MESSAGES }).some(sentText("held")));
  return {
    held,
    release: async () => {
      (emu.clock as ManualEmuClock).advance(60_000);
      const out = await held;
      assert.equal(out.failure, undefined);
    },
  };
}

/** Texts the app `appId` sent to a chat, oldest first. */
function textsBy(emu: Emulator, chatId: string, appId: string): string[] {
  return emu.messages(chatId)
    .filter((m) => m.sender.type === "app" && m.sender.id === appId)
    .map((m) => JSON.parse(m.content).text);
}

Deno.test("a 429 rate limit answered to one app pauses that app for its hint and never the other app", async () => {
  const clock = new ManualClock(Date.now());
  await using r = await rig({ clock });
  const a = r.account("a");
  const b = r.account("b", SECOND);
  r.emu.faults.add({
    method: "POST",
    path: MESSAGES,
    times: 1,
    respond: {
      status: 429,
      code: 99991400,
      msg: "request trigger frequency limit",
      headers: { "x-ogw-ratelimit-reset": "30" },
    },
  });
  const first = await a.outbox.deliver(send(D.team, "a1"));
  assert.equal(first.failure?.code, "RATE_LIMITED");
  assert.equal(first.failure?.retryAfterSeconds, 30);

  // A's next send goes to another chat: only an app-wide pause holds it.
  let aSettled = false;
  const second = a.outbox.deliver(send(D.aliceP2p, "a2"));
  second.finally(() => (aSettled = true)).catch(() => {});
  await armed(clock, 1);
  assert.deepEqual(clock.pendingDelays(), [30_000]);

  const other = await guard(b.outbox.deliver(send(D.team, "b1")), "app B's send to finish");
  assert.equal(other.failure, undefined);
  assert.deepEqual(textsBy(r.emu, D.team, SECOND.appId), ["b1"]);
  // B finished while A's send was still waiting for the hint, unsent.
  assert.equal(aSettled, false);
  assert.deepEqual(clock.pendingDelays(), [30_000]);
  assert.deepEqual(textsBy(r.emu, D.aliceP2p, D.appId), []);

  clock.advance(29_999);
  assert.deepEqual(clock.pendingDelays(), [1]);
  clock.advance(1);
  const out = await guard(second, "app A's send after the pause");
  assert.equal(out.failure, undefined);
  assert.deepEqual(textsBy(r.emu, D.aliceP2p, D.appId), ["a2"]);
  assert.equal(r.emu.requests({ method: "POST", path: MESSAGES }).length, 3);
});

Deno.test("a burst of 12 edits and 12 reactions to one chat lands at most 5 writes in any rolling second", async () => {
  await using r = await rig();
  const a = r.account("main");
  const sent = await a.outbox.deliver(send(D.team, "v0"));
  const messageId = sent.delivered[0]!.messageId;
  const emoji = [
    "OK",
    "THUMBSUP",
    "SMILE",
    "LAUGH",
    "HEART",
    "CLAP",
    "MUSCLE",
    "FIREWORKS",
    "PARTY",
    "DONE",
    "JIAYI",
    "Get",
  ];
  const target = { chatId: D.team, messageId };
  const outcomes = await Promise.all([
    ...Array.from({ length: 12 }, (_, i) =>
      a.outbox.edit({
        ...target,
        method: "PUT",
        body: wireBody("text", { text: `v${i + 1}` }),
      })),
    ...emoji.map((emojiType) => a.outbox.react({ ...target, emojiType })),
  ]);
  assert.equal(outcomes.length, 24);
  const writes = r.emu.requests({ path: /^\/open-apis\/im\/v1\/messages/ });
  assert.equal(writes.length, 25);
  assert.ok(writes.every((w) => w.status === 200), "every write was accepted");
  const at = writes.map((w) => w.at).sort((x, y) => x - y);
  for (let i = 0; i + 5 < at.length; i++) {
    assert.ok(
      at[i + 5]! - at[i]! >= 1000,
      `writes ${i + 1}..${i + 6} arrived within ${at[i + 5]! - at[i]!} ms`,
    );
  }
  assert.equal(JSON.parse(r.emu.world.messages.get(messageId)!.content).text, "v12");
  assert.equal(r.emu.reactions(messageId).length, 12);
});

Deno.test("writes waiting for a held lane start in priority order: answer, then card update, then presence", async () => {
  await using r = await rig({ emulator: { clock: new ManualEmuClock(Date.now()) } });
  const a = r.account("main");
  const card = (text: string) =>
    wireBody("interactive", {
      schema: "2.0",
      body: { elements: [{ tag: "markdown", content: text }] },
    });
  const cardMsg = (await a.outbox.deliver({
    route: { kind: "create", receiveId: D.team, receiveIdType: "chat_id" },
    bodies: [card("working")],
    uuids: [crypto.randomUUID()],
  })).delivered[0]!.messageId;
  const lane = await holdLane(r.emu, a, D.team);
  const before = r.emu.requests().length;

  // Queued least urgent first.
  const presence = a.outbox.react({
    chatId: D.team,
    messageId: cardMsg,
    emojiType: "OK",
    priority: PRIORITY.presence,
  });
  const update = a.outbox.edit({
    chatId: D.team,
    messageId: cardMsg,
    method: "PATCH",
    body: card("done"),
    priority: PRIORITY.update,
  });
  const answer = a.outbox.deliver(send(D.team, "the answer"));
  await lane.release();
  await Promise.all([presence, update, answer]);

  const started = r.emu.requests().slice(before).map((q) => `${q.method} ${q.path}`);
  assert.deepEqual(started, [
    `POST ${MESSAGES}`,
    `PATCH ${MESSAGES}/${cardMsg}`,
    `POST ${MESSAGES}/${cardMsg}/reactions`,
  ]);
  assert.deepEqual(textsBy(r.emu, D.team, D.appId).slice(-2), ["held", "the answer"]);
});

Deno.test("coalescing edits of one message waiting behind a held lane send only the latest content", async () => {
  await using r = await rig({ emulator: { clock: new ManualEmuClock(Date.now()) } });
  const a = r.account("main");
  const messageId = (await a.outbox.deliver(send(D.team, "v0"))).delivered[0]!.messageId;
  const lane = await holdLane(r.emu, a, D.team);
  const edits = ["v1", "v2", "v3", "v4"].map((text) =>
    a.outbox.edit({
      chatId: D.team,
      messageId,
      method: "PUT",
      body: wireBody("text", { text }),
      coalesce: true,
    })
  );
  await lane.release();
  assert.deepEqual(await Promise.all(edits), ["coalesced", "coalesced", "coalesced", "sent"]);
  const puts = r.emu.requests({ method: "PUT", path: `${MESSAGES}/${messageId}` });
  assert.deepEqual(
    puts.map((q) => JSON.parse((q.body as { content: string }).content).text),
    ["v4"],
  );
  const stored = r.emu.world.messages.get(messageId)!;
  assert.equal(JSON.parse(stored.content).text, "v4");
  assert.equal(stored.editCount, 1);
});

Deno.test("sends by open_id share the lane of replies in the user's p2p chat once the chat is known", async () => {
  await using r = await rig({ emulator: { clock: new ManualEmuClock(Date.now()) } });
  const a = r.account("main");
  const byOpenId: DeliveryRoute = {
    kind: "create",
    receiveId: D.alice.openId,
    receiveIdType: "open_id",
  };
  const { messageId: aliceMsg } = r.emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: "hi",
  });
  const reply = (text: string) => ({
    route: { kind: "reply", targetId: aliceMsg!, chatId: D.aliceP2p, replyInThread: false },
    bodies: [wireBody("text", { text })],
    uuids: [crypto.randomUUID()],
  } as const);
  assert.equal(a.outbox.laneOf(byOpenId), `open_id:${D.alice.openId}`);
  // Learned from our own send by open_id.
  assert.equal(
    (await a.outbox.deliver(send(D.alice.openId, "first", "open_id"))).failure,
    undefined,
  );
  assert.equal(a.outbox.laneOf(byOpenId), D.aliceP2p);
  assert.equal(a.outbox.laneOf(reply("x").route), D.aliceP2p);

  // A reply held in the p2p chat holds the send by open_id; another chat's send passes.
  const path = `${MESSAGES}/:message_id/reply`;
  r.emu.faults.add({ method: "POST", path, times: 1, respond: { delayMs: 60_000 } });
  const held = a.outbox.deliver(reply("held reply"));
  held.catch(() => {});
  await r.emu.waitFor(() => r.emu.requests({ method: "POST", path }).some(sentText("held reply")));
  const behind = a.outbox.deliver(send(D.alice.openId, "after the reply", "open_id"));
  behind.catch(() => {});
  const elsewhere = await guard(a.outbox.deliver(send(D.team, "elsewhere")), "the group send");
  assert.equal(elsewhere.failure, undefined);
  // Neither the held reply nor the send behind it has landed in Alice's chat.
  assert.deepEqual(textsBy(r.emu, D.aliceP2p, D.appId), ["first"]);
  assert.ok(!r.emu.requests({ method: "POST", path: MESSAGES }).some(sentText("after the reply")));
  (r.emu.clock as ManualEmuClock).advance(60_000);
  await held;
  assert.equal((await behind).failure, undefined);
  const creates = r.emu.requests({ path: /^\/open-apis\/im\/v1\/messages(\/[^/]+\/reply)?$/ })
    .filter((q) => q.method === "POST")
    .map((q) => (q.body as { content: string }).content);
  assert.deepEqual(creates.map((c) => JSON.parse(c).text), [
    "first",
    "held reply",
    "elsewhere",
    "after the reply",
  ]);

  // Known from the store: a user who wrote from a p2p chat.
  r.store.records.insert({
    account: "main",
    id: `main:${D.bobP2p}:om_bob_1`,
    chatId: D.bobP2p,
    feishuMessageId: "om_bob_1",
    direction: "incoming",
    kind: "message",
    createTime: Date.now(),
    fromOpenId: D.bob.openId,
    record: incomingRecord("om_bob_1", {
      chat_id: D.bobP2p,
      chat_type: "p2p",
      from_open_id: D.bob.openId,
    }),
  });
  assert.equal(
    a.outbox.laneOf({ kind: "create", receiveId: D.bob.openId, receiveIdType: "open_id" }),
    D.bobP2p,
  );
});

Deno.test("a once-only reaction whose ledger entry is pending adopts the app's reaction already on the message", async () => {
  await using r = await rig({ emulator: { duplicateReactions: true } });
  const a = r.account("main");
  const { messageId } = r.emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
  const target = { chatId: D.aliceP2p, messageId: messageId!, emojiType: "OK" };
  const key = `seen:${messageId}`;
  // A crash after Feishu added it and before the ledger recorded it.
  r.store.writes.begin("main", key);
  const existing = await a.api.addReaction(messageId!, "OK");

  const id = await a.outbox.react({ ...target, priority: PRIORITY.presence, once: key });
  assert.equal(id, existing);
  assert.deepEqual(r.store.writes.get("main", key), { state: "done", result: existing });
  const mine = () => r.emu.reactions(messageId!).filter((x) => x.operatorId === D.appId);
  assert.deepEqual(mine().map((x) => x.emojiType), ["OK"]);
  // Done now: a later replay makes no call at all.
  const calls = r.emu.requests().length;
  assert.equal(await a.outbox.react({ ...target, once: key }), existing);
  assert.equal(r.emu.requests().length, calls);

  // Pending with nothing on Feishu (the crash came before the call): it is added once.
  const { messageId: other } = r.emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: "again",
  });
  r.store.writes.begin("main", `seen:${other}`);
  await a.outbox.react({ ...target, messageId: other!, once: `seen:${other}` });
  assert.equal(r.emu.reactions(other!).length, 1);
  // The emulator in this mode would add a second one to any repeated call.
  await a.api.addReaction(messageId!, "OK");
  assert.equal(mine().length, 2);
});

Deno.test("two concurrent once-only reactions with one key (a replay racing the start-up resume) make one reaction", async () => {
  await using r = await rig({ emulator: { duplicateReactions: true } });
  const a = r.account("main");
  const { messageId } = r.emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
  const key = `seen:${messageId}`;
  // Left pending by a run that stopped before Feishu answered.
  r.store.writes.begin("main", key);
  const target = { chatId: D.aliceP2p, messageId: messageId!, emojiType: "OK", once: key };
  const [x, y] = await Promise.all([a.outbox.react(target), a.outbox.react(target)]);
  assert.equal(x, y);
  assert.equal(r.emu.reactions(messageId!).filter((e) => e.operatorId === D.appId).length, 1);
  assert.deepEqual(r.store.writes.pending("main", "seen:"), []);
});

Deno.test("a card PATCH whose answer is cut off is sent again (the same content, harmless), a PUT is not", async () => {
  await using r = await rig();
  const a = r.account("main");
  const card = (text: string) =>
    wireBody("interactive", {
      schema: "2.0",
      body: { elements: [{ tag: "markdown", content: text }] },
    });
  const [cardMsg, textMsg] = await Promise.all([card("working"), wireBody("text", { text: "v1" })]
    .map(async (body) =>
      (await a.outbox.deliver({
        route: { kind: "create", receiveId: D.team, receiveIdType: "chat_id" },
        bodies: [body],
        uuids: [crypto.randomUUID()],
      })).delivered[0]!.messageId
    ));
  r.emu.faults.add({ method: "PATCH", path: `${MESSAGES}/:id`, times: 1, respond: "reset" });
  const patched = await a.outbox.edit({
    chatId: D.team,
    messageId: cardMsg!,
    method: "PATCH",
    body: card("done"),
  });
  assert.equal(patched, "sent");
  assert.equal(r.emu.requests({ method: "PATCH" }).length, 2);
  assert.match(r.emu.world.messages.get(cardMsg!)!.content, /done/);

  r.emu.faults.add({ method: "PUT", path: `${MESSAGES}/:id`, times: 1, respond: "reset" });
  await assert.rejects(
    a.outbox.edit({
      chatId: D.team,
      messageId: textMsg!,
      method: "PUT",
      body: wireBody("text", { text: "v2" }),
    }),
  );
  assert.equal(r.emu.requests({ method: "PUT" }).length, 1, "an edit counts against Feishu's 20");
});

Deno.test("a gone chat: writes are refused before any request, one queued before it went is refused at its turn, and its once-only key is dropped", async () => {
  await using r = await rig({ emulator: { clock: new ManualEmuClock(Date.now()) } });
  const a = r.account("main");
  const target = (await a.outbox.deliver(send(D.team, "first"))).delivered[0]!.messageId;
  const lane = await holdLane(r.emu, a, D.team);
  const before = r.emu.requests().length;
  // Queued behind the held write, then the chat goes.
  const queued = a.outbox.react({
    chatId: D.team,
    messageId: target,
    emojiType: "OK",
    priority: PRIORITY.presence,
    once: `seen:${target}`,
  });
  r.store.goneChats.mark("main", { chatId: D.team, reason: "bot_removed", at: Date.now() });
  await lane.release();
  await assert.rejects(queued, /no longer has the bot \(removed\)/);
  assert.equal(r.store.writes.get("main", `seen:${target}`), null, "nothing left to resume");
  const refused = await a.outbox.deliver(send(D.team, "later"));
  assert.equal(refused.failure?.code, "TARGET_REVOKED");
  assert.equal(refused.delivered.length, 0);
  await assert.rejects(
    a.outbox.delete({ chatId: D.team, messageId: target }),
    (err: Error & { code?: string }) => err.code === "TARGET_REVOKED",
  );
  assert.equal(r.emu.requests().length, before, "no request since the held one");
  // Feishu's 230045 on another chat's write marks that chat gone.
  r.emu.faults.add({
    method: "POST",
    path: MESSAGES,
    times: 1,
    respond: { code: 230045, msg: "The chat has been dissolved." },
  });
  const dissolved = await a.outbox.deliver(send(D.aliceP2p, "hello?"));
  assert.equal(dissolved.failure?.context.providerCode, 230045);
  assert.equal(r.store.goneChats.get("main", D.aliceP2p)?.reason, "dissolved");
});
