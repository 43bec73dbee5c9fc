/**
 * End to end, the composition root's seams, in-process against the
 * emulator: a local command answered through the account's outbox is
 * neither recorded nor marked seen; a card click is answered synchronously
 * (its value becomes the frame's ACK) and handled later in chat order; the
 * conversation log tells its listeners once per message that woke the agent,
 * when the record is already readable; and the service's status is typed data.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, ManualEmuClock, startEmulator } from "../lib/emulator/mod.ts";
import type { RecordedListener } from "../lib/conversation/mod.ts";
import type { InboundSeams } from "../lib/inbound/mod.ts";
import type { RawEnvelope } from "../lib/feishu/mod.ts";
import { chunkUuids, wireBody } from "../lib/outbound/mod.ts";
import type { ServiceStatus } from "../lib/service/status.ts";
import { Tally, until } from "./_inbound.ts";
import { startTrunk } from "./_trunk.ts";

type Rec = Record<string, unknown>;
const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";

/** The uuid of a command's answer: derived from the event it answers. */
const answerUuid = (alias: string, eventId: string | null) =>
  chunkUuids({ account: alias, idempotencyKey: `command:${eventId}`, count: 1 }, {
    newId: () => crypto.randomUUID(),
  });

/** Whether the app put `emoji` on a message. */
const reacted =
  (emu: { reactions(id: string): { emojiType: string; operatorId: string }[] }) =>
  (messageId: string, emoji: string) =>
    emu.reactions(messageId).some((r) => r.emojiType === emoji && r.operatorId === D.appId);

Deno.test("a local command answered through the outbox gets its reply and leaves no record and no OK; other messages are recorded", async () => {
  await using emu = await startEmulator();
  const seams: InboundSeams = {
    async interceptCommand({ account, record, eventId }) {
      if (record.text.trim() !== "/ping") return false;
      const out = await account.outbox.deliver({
        route: {
          kind: "reply",
          targetId: record.feishu_message_id,
          chatId: record.chat_id,
          replyInThread: false,
        },
        bodies: [wireBody("text", { text: "pong" })],
        uuids: answerUuid(account.alias, eventId),
      });
      if (out.failure) throw out.failure;
      return true;
    },
  };
  await using trunk = await startTrunk(emu.url, { seams });
  await emu.ws.whenReady();
  const ping = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/ping" });
  const hello = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
  // Chat order: the command was handled before the message behind it was notified.
  await trunk.channel.atLeast(1);
  await trunk.drained();

  const replies = emu.messages(D.aliceP2p).filter((m) =>
    m.sender.type === "app" && m.parentId === ping.messageId
  );
  assert.deepEqual(replies.map((m) => JSON.parse(m.content).text), ["pong"]);
  assert.equal(replies[0]!.uuid, answerUuid("main", ping.eventId)[0]);
  const records = await trunk.records(D.aliceP2p);
  assert.deepEqual(records.map((r) => r.feishu_message_id), [hello.messageId]);
  const found = await trunk.call("search", { query: "ping" });
  assert.deepEqual(found.messages ?? [], [], JSON.stringify(found));
  const has = reacted(emu);
  assert.equal(has(ping.messageId!, "OK"), false);
  assert.equal(has(hello.messageId!, "OK"), true);
  assert.equal(trunk.channel.items.length, 1);
  const admission = trunk.service.status().accounts[0]!.admission as Rec;
  assert.equal(admission.commands, 1);
  assert.equal(admission.admitted, 1);
});

Deno.test("a card click is answered at once with the seam's value as the ACK and handled after the chat's earlier message", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const order: string[] = [];
  const handled = new Tally<{ alias: string; envelope: RawEnvelope }>();
  const seams: InboundSeams = {
    answerCard({ envelope }) {
      const value = (envelope.event as { action?: { value?: { choice?: string } } }).action?.value;
      return { toast: { type: "success", content: `got ${value?.choice}` } };
    },
    handleCard({ account, envelope }) {
      order.push(`card:${envelope.header?.event_id}`);
      handled.push({ alias: account.alias, envelope });
      return Promise.resolve();
    },
  };
  const listeners: RecordedListener[] = [(r) => {
    if (r.kind === "message" && r.woke) order.push(`message:${r.record.feishu_message_id}`);
  }];
  await using trunk = await startTrunk(emu.url, { seams, listeners });
  await emu.ws.whenReady();
  const card = {
    schema: "2.0",
    body: { elements: [{ tag: "markdown", content: "Deploy?" }] },
  };
  const sent = await trunk.call("send", {
    receive_id: D.aliceP2p,
    receive_id_type: "chat_id",
    content: { type: "card", card },
  });
  assert.equal(sent.status, "sent", JSON.stringify(sent));
  const cardId = emu.lastSent(D.aliceP2p)!.messageId;

  // Alice's image holds her chat (its download waits on the emulator clock).
  emu.faults.add({ method: "GET", path: RESOURCE, times: 1, respond: { delayMs: 60_000 } });
  const image = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    image: { bytes: crypto.getRandomValues(new Uint8Array(128)) },
  });
  await emu.waitFor(() => emu.requests({ method: "GET", path: RESOURCE }).length === 1);
  const click = emu.clickCard({
    user: D.alice.openId,
    messageId: cardId,
    value: { choice: "yes" },
    tag: "button",
  });
  const result = await click.result;
  // Answered while the chat is still held: nothing handled, nothing recorded yet.
  assert.deepEqual(result.toast, { type: "success", content: "got yes" });
  assert.deepEqual(emu.cardResults().map((r) => r.eventId), [click.eventId]);
  assert.equal(handled.items.length, 0);
  assert.deepEqual(order, []);

  clock.advance(60_000);
  await handled.atLeast(1);
  await trunk.drained();
  assert.deepEqual(order, [`message:${image.messageId}`, `card:${click.eventId}`]);
  assert.equal(handled.items.length, 1);
  assert.equal(handled.items[0]!.alias, "main");
  const ctx = (handled.items[0]!.envelope.event as { context?: Rec }).context;
  assert.equal(ctx?.open_message_id, cardId);
  // The click itself is no message: the chat holds the card we sent and Alice's image.
  assert.deepEqual(
    (await trunk.records(D.aliceP2p)).map((r) => [r._direction, r.feishu_message_id]),
    [["outgoing", cardId], ["incoming", image.messageId]],
  );
});

Deno.test("the conversation log tells its listeners once per message that woke the agent, when the record is already readable", async () => {
  await using emu = await startEmulator();
  const seen: { id: string; chat: string; readable: boolean }[] = [];
  const calls = new Tally<string>();
  await using trunk = await startTrunk(emu.url, (self) => ({
    listeners: [(r) => {
      if (r.kind !== "message" || !r.woke) return;
      const { record, route } = r;
      void self().call("read", { chat_id: record.chat_id, limit: null }).then((read) => {
        const ids = (read.messages as Rec[] | undefined ?? []).map((m) => m.id);
        seen.push({ id: record.id, chat: record.chat_id, readable: ids.includes(record.id) });
        calls.push(route.account);
      });
    }],
  }));
  await emu.ws.whenReady();
  const sent = [
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "one" }),
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "two", push: { duplicate: true } }),
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "three", mentions: ["bot"] }),
  ];
  await calls.atLeast(3);
  await emu.waitFor(() => sent.every((m) => emu.event(m.eventId)?.acks.length));
  await trunk.drained();
  const records = (await Promise.all(
    [D.aliceP2p, D.bobP2p, D.team].map((c) => trunk.records(c)),
  )).flat();
  assert.equal(records.length, 3);
  assert.deepEqual(
    seen.map((s) => s.id).sort(),
    records.map((r) => String(r.id)).sort(),
    "one call per record",
  );
  assert.ok(seen.every((s) => s.readable), JSON.stringify(seen));
  assert.deepEqual(calls.items, ["main", "main", "main"]);
});

Deno.test("the service status is typed data with the account's connection state and the journal", async () => {
  await using emu = await startEmulator();
  await using trunk = await startTrunk(emu.url, {});
  await emu.ws.whenReady();
  emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
  await trunk.channel.atLeast(1);
  await trunk.drained();
  const status: ServiceStatus = await until(() => {
    const s = trunk.service.status();
    return Promise.resolve(s.accounts[0]?.connection.state === "connected" && s);
  }, { what: "the account to be connected" });
  assert.equal(status.status, "ok");
  assert.equal(status.accounts_count, 1);
  const account = status.accounts[0]!;
  assert.equal(account.alias, "main");
  assert.equal(account.app_id, D.appId);
  assert.equal(account.connection.state, "connected");
  assert.equal(account.connection.connects, 1);
  assert.equal(account.intake?.queued, 1);
  assert.equal((account.admission as Rec).admitted, 1);
  const journal = status.journal!;
  assert.equal(journal.pending, 0);
  assert.equal(journal.in_flight, 0);
  assert.equal(journal.dead_letters, 0);
  assert.equal(journal.admitted, 1);
  assert.equal(journal.processed, 1);
  // The status resource renders the same object.
  const resource = await trunk.service.app.readResource("lingtai://status");
  const rendered = JSON.parse(resource!.text) as ServiceStatus;
  assert.deepEqual(rendered.journal, journal);
  assert.equal(rendered.accounts[0]!.connection.state, "connected");
});
