import assert from "node:assert/strict";
import { startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, ManualEmuClock, startEmulator } from "../mod.ts";

const D = DEFAULT_IDS;
const noop = () => undefined;
type Msg = { event_id: string; message: { message_id: string; content: string } };

Deno.test("WS delivery reassembles a payload sent as three fragments in reverse order, with one ACK", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.message.receive_v1": noop });
  await emu.ws.whenReady();
  const long = "长".repeat(2000);
  const sent = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: long,
    push: { fragments: 3, order: "reverse" },
  });
  assert.equal((await sent.ack).code, 200);
  const data = ws.seen[0]?.data as Msg;
  assert.equal(JSON.parse(data.message.content).text, long);
  const record = emu.event(sent.eventId)!;
  assert.equal(record.attempts[0]?.fragments, 3);
  assert.equal(record.acks.length, 1);
});

Deno.test("WS delivery pushes an un-ACKed event again after the ACK timeout with the same event_id", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  await using ws = startWs(emu, { "im.message.receive_v1": noop });
  await emu.ws.whenReady();
  emu.ws.withholdAcks(true);
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "again?" });
  await emu.waitFor(() => emu.event(sent.eventId)?.ignoredAcks.length === 1);
  assert.equal(emu.event(sent.eventId)?.status, "delivered");
  emu.ws.withholdAcks(false);
  clock.advance(2999);
  assert.equal(emu.event(sent.eventId)?.attempts.length, 1);
  clock.advance(1);
  const ack = await sent.ack;
  assert.equal(ack.code, 200);
  const record = emu.event(sent.eventId)!;
  assert.deepEqual(record.attempts.map((a) => a.reason), ["first", "redelivery"]);
  assert.notEqual(record.attempts[0]?.frameId, record.attempts[1]?.frameId);
  assert.equal(record.redeliveries, 1);
  assert.deepEqual(ws.seen.map((s) => (s.data as Msg).event_id), [sent.eventId, sent.eventId]);
});

Deno.test("WS delivery gives up after maxRedeliveries and marks the event expired", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock, ackTimeoutMs: 500, maxRedeliveries: 1 });
  await using _ws = startWs(emu, { "im.message.receive_v1": noop });
  await emu.ws.whenReady();
  emu.ws.withholdAcks(true);
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "lost" });
  await emu.waitFor(() => emu.event(sent.eventId)?.ignoredAcks.length === 1);
  clock.advance(500);
  await emu.waitFor(() => emu.event(sent.eventId)?.ignoredAcks.length === 2);
  clock.advance(500);
  assert.equal(emu.event(sent.eventId)?.status, "expired");
  assert.equal(emu.event(sent.eventId)?.attempts.length, 2);
  assert.equal(clock.pending(), 0);
});

Deno.test("WS delivery with push lost never pushes the event and marks it expired; the message stays listed", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.message.receive_v1": noop });
  await emu.ws.whenReady();
  const lost = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: "while offline",
    push: { lost: true },
  });
  const next = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "later" });
  await next.ack;
  assert.equal(emu.event(lost.eventId)?.status, "expired");
  assert.deepEqual(emu.event(lost.eventId)?.attempts, []);
  assert.deepEqual(ws.seen.map((s) => (s.data as Msg).event_id), [next.eventId]);
  assert.deepEqual(emu.messages(D.aliceP2p).map((m) => m.messageId), [
    lost.messageId,
    next.messageId,
  ]);
});

Deno.test("WS delivery sends a duplicate on demand and records both ACKs", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.message.receive_v1": noop });
  await emu.ws.whenReady();
  const sent = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: "twice",
    push: { duplicate: true },
  });
  await emu.waitFor(() => emu.event(sent.eventId)?.acks.length === 2);
  assert.ok(emu.ws.duplicate(sent.eventId));
  await emu.waitFor(() => emu.event(sent.eventId)?.acks.length === 3);
  assert.deepEqual(emu.event(sent.eventId)?.attempts.map((a) => a.reason), [
    "first",
    "duplicate",
    "duplicate",
  ]);
  assert.equal(ws.seen.length, 3);
});

Deno.test("WS delivery queues events while no connection is up and delivers them in order on connect", async () => {
  await using emu = await startEmulator();
  const a = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "1" });
  const b = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "2" });
  assert.deepEqual(emu.events().map((e) => e.status), ["queued", "queued"]);
  await using ws = startWs(emu, { "im.message.receive_v1": noop });
  await Promise.all([a.ack, b.ack]);
  assert.deepEqual(ws.seen.map((s) => (s.data as Msg).event_id), [a.eventId, b.eventId]);
});

Deno.test("WS delivery gives each event to one connection of the app (cluster mode)", async () => {
  await using emu = await startEmulator();
  await using one = startWs(emu, { "im.message.receive_v1": noop });
  await using two = startWs(emu, { "im.message.receive_v1": noop });
  await emu.waitFor(() => emu.ws.status().filter((s) => s.ready).length === 2);
  const sends = ["a", "b", "c", "d"].map((t) =>
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: t })
  );
  await Promise.all(sends.map((s) => s.ack));
  assert.equal(one.seen.length + two.seen.length, 4);
  assert.equal(one.seen.length, 2);
  const ids = [...one.seen, ...two.seen].map((s) => (s.data as Msg).event_id).sort();
  assert.deepEqual(ids, sends.map((s) => s.eventId).sort());
});

Deno.test("WS delivery ACKs carry the handler outcome: 500 when it throws, the no-handler note otherwise", async () => {
  await using emu = await startEmulator();
  await using _ws = startWs(emu, {
    "im.message.receive_v1": () => {
      throw new Error("handler failed");
    },
  });
  await emu.ws.whenReady();
  const thrown = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "boom" });
  assert.equal((await thrown.ack).code, 500);
  assert.equal(emu.event(thrown.eventId)?.ack, undefined);
  const read = emu.userReads({ user: D.alice.openId, messageIds: [thrown.messageId!] });
  const ack = await read.ack;
  assert.equal(ack.code, 200);
  assert.equal(ack.data, "no im.message.message_read_v1 event handle");
  assert.match(ack.bizRt ?? "", /^-?\d+$/);
});

Deno.test("WS delivery counts an ACK whose code is not 200 as a failed delivery and pushes the event again after the ACK timeout", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  let failing = true;
  await using ws = startWs(emu, {
    "im.message.receive_v1": () => {
      if (failing) throw new Error("disk full");
    },
  });
  await emu.ws.whenReady();
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "again" });
  assert.equal((await sent.ack).code, 500);
  const failed = emu.event(sent.eventId)!;
  assert.equal(failed.status, "delivered");
  assert.deepEqual(failed.failedAcks.map((a) => a.code), [500]);
  assert.deepEqual(failed.acks, []);
  failing = false;
  clock.advance(emu.settings.ackTimeoutMs - 1);
  assert.equal(emu.event(sent.eventId)?.attempts.length, 1);
  clock.advance(1);
  await emu.waitFor(() => emu.event(sent.eventId)?.status === "acked");
  const record = emu.event(sent.eventId)!;
  assert.deepEqual(record.attempts.map((a) => a.reason), ["first", "redelivery"]);
  assert.equal(record.ack?.code, 200);
  assert.equal(record.redeliveries, 1);
  assert.deepEqual(ws.seen.map((s) => (s.data as Msg).event_id), [sent.eventId, sent.eventId]);
  assert.equal(clock.pending(), 0);
});

Deno.test("WS delivery gives up on an event that keeps failing after maxRedeliveries, like a missing ACK", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock, ackTimeoutMs: 500, maxRedeliveries: 2 });
  await using _ws = startWs(emu, {
    "im.message.receive_v1": () => {
      throw new Error("disk full");
    },
  });
  await emu.ws.whenReady();
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "doomed" });
  for (let n = 1; n <= 3; n++) {
    await emu.waitFor(() => emu.event(sent.eventId)?.failedAcks.length === n);
    clock.advance(500);
  }
  const record = emu.event(sent.eventId)!;
  assert.equal(record.status, "expired");
  assert.equal(record.attempts.length, 3);
  assert.equal(record.ack, undefined);
  assert.equal(clock.pending(), 0);
});

Deno.test("WS delivery with readyOn open pushes at once, before the first ping, and redelivery recovers a lost frame", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock, readyOn: "open" });
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "early" });
  await using ws = startWs(emu, { "im.message.receive_v1": noop });
  const pingsAtFirstSend = await emu.waitFor(() =>
    emu.event(sent.eventId)?.attempts.length ? { pings: emu.ws.status()[0]?.pings } : undefined
  );
  assert.deepEqual(pingsAtFirstSend, { pings: 0 });
  await emu.waitFor(() => (emu.ws.status()[0]?.pings ?? 0) > 0);
  if (!emu.event(sent.eventId)?.ack) clock.advance(emu.settings.ackTimeoutMs);
  assert.equal((await sent.ack).code, 200);
  assert.ok(ws.seen.every((s) => (s.data as Msg).event_id === sent.eventId));
});
