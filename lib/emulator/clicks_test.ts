import assert from "node:assert/strict";
import { sdkClient, startWs } from "./testdata/sdk_harness.ts";
import { createEmulator } from "./emulator.ts";
import { createDefaultWorld } from "./fixtures.ts";
import {
  decodeFrame,
  DEFAULT_IDS,
  type Emulator,
  encodeFrame,
  type Frame,
  ManualEmuClock,
  startEmulator,
} from "./mod.ts";

const D = DEFAULT_IDS;
const noop = () => undefined;
const enc = new TextEncoder();
const header = (f: Frame, k: string) => f.headers.find((h) => h.key === k)?.value;

const ASK = { schema: "2.0", body: { elements: [{ tag: "button", text: { content: "Go" } }] } };
const DONE = { schema: "2.0", body: { elements: [{ tag: "markdown", content: "done" }] } };

/** A card the bot sent to the team chat, through the node-sdk. */
async function botCard(emu: Emulator): Promise<string> {
  const sent = await sdkClient(emu).im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "interactive", content: JSON.stringify(ASK) },
  });
  return sent.data!.message_id!;
}

/** A bare pbbp2 client: pings once, collects data frames, answers what it is told to. */
async function rawClient(emu: Emulator) {
  const res = await fetch(`${emu.url}/callback/ws/endpoint`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ AppID: D.appId, AppSecret: D.appSecret }),
  });
  const url = (await res.json()).data.URL as string;
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  const data: Frame[] = [];
  const waiters: (() => void)[] = [];
  socket.onmessage = (e) => {
    const frame = decodeFrame(new Uint8Array(e.data as ArrayBuffer));
    if (frame.method !== 1) return;
    data.push(frame);
    for (const w of waiters.splice(0)) w();
  };
  await new Promise((r) => (socket.onopen = r));
  const service = Number(new URL(url).searchParams.get("service_id"));
  socket.send(encodeFrame({
    SeqID: 0,
    LogID: 0,
    service,
    method: 0,
    headers: [{ key: "type", value: "ping" }],
  }));
  return {
    async frame(n: number): Promise<Frame> {
      while (data.length < n) await new Promise<void>((r) => waiters.push(r));
      return data[n - 1]!;
    },
    /** ACKs `frame` the way the node-sdk does, with `result` as base64 JSON. */
    ack(frame: Frame, result: unknown): void {
      const payload = { code: 200, data: btoa(JSON.stringify(result)) };
      socket.send(encodeFrame({
        ...frame,
        headers: [...frame.headers, { key: "biz_rt", value: "0" }],
        payload: enc.encode(JSON.stringify(payload)),
      }));
    },
    async close(): Promise<void> {
      const closed = new Promise((r) => (socket.onclose = r));
      socket.close();
      await closed;
    },
  };
}

Deno.test("cardFrameType card: the bare node-sdk drops the click unanswered and it times out, never pushed again", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock, cardFrameType: "card" });
  await using ws = startWs(emu, {
    "im.message.receive_v1": noop,
    "card.action.trigger": () => ({ toast: { type: "success", content: "never seen" } }),
  });
  await emu.ws.whenReady();
  const id = await botCard(emu);
  const click = emu.clickCard({ user: D.bob.openId, messageId: id, value: { k: 1 } });
  assert.equal(emu.event(click.eventId)?.frameType, "card");
  // The SDK reads frames in order: once a later event is ACKed, the card frame was handled.
  const later = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "after" });
  assert.equal((await later.ack).code, 200);
  assert.deepEqual(ws.seen.map((s) => s.type), ["im.message.receive_v1"]);
  assert.deepEqual(emu.event(click.eventId)?.acks, []);
  assert.deepEqual(emu.ws.unmatchedAcks(), []);
  assert.equal(emu.cardResults().length, 0);
  clock.advance(emu.settings.ackTimeoutMs);
  const result = await click.result;
  assert.equal(result.timedOut, true);
  assert.equal(result.errorCode, 200341);
  assert.equal(result.frameType, "card");
  clock.advance(60_000);
  const record = emu.event(click.eventId)!;
  assert.equal(record.status, "timed_out");
  assert.equal(record.attempts.length, 1);
  assert.equal(record.redeliveries, 0);
});

Deno.test("a type=card click ACKed by a raw client is matched by frame id and applied", async () => {
  await using emu = await startEmulator();
  const raw = await rawClient(emu);
  try {
    await emu.ws.whenReady();
    emu.ws.setCardFrameType("card");
    const id = await botCard(emu);
    const click = emu.clickCard({ user: D.bob.openId, messageId: id, value: { k: 1 } });
    const frame = await raw.frame(1);
    assert.equal(header(frame, "type"), "card");
    const envelope = JSON.parse(new TextDecoder().decode(frame.payload));
    assert.equal(envelope.header.event_type, "card.action.trigger");
    assert.match(envelope.event.token, /^c-/);
    raw.ack(frame, {
      toast: { type: "success", content: "ok" },
      card: { type: "raw", data: DONE },
    });
    const result = await click.result;
    assert.equal(result.timedOut, false);
    assert.equal(result.ackCode, 200);
    assert.equal(result.applied, true);
    assert.deepEqual(result.toast, { type: "success", content: "ok" });
    assert.equal(emu.world.messages.get(id)?.content, JSON.stringify(DONE));
    assert.deepEqual(emu.ws.unmatchedAcks(), []);
    assert.equal(emu.event(click.eventId)?.status, "acked");

    // push.frameType overrides the setting for one click, and works for any event.
    const asEvent = emu.clickCard({
      user: D.bob.openId,
      messageId: id,
      value: {},
      push: { frameType: "event" },
    });
    const second = await raw.frame(2);
    assert.equal(header(second, "type"), "event");
    raw.ack(second, {});
    assert.equal((await asEvent.result).ackCode, 200);
    const message = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "in a card frame",
      push: { frameType: "card" },
    });
    const third = await raw.frame(3);
    assert.equal(header(third, "type"), "card");
    raw.ack(third, {});
    assert.equal((await message.ack).code, 200);
    assert.deepEqual(emu.ws.unmatchedAcks(), []);
  } finally {
    await raw.close();
  }
});

Deno.test("a card callback answered after the ACK timeout is recorded as late and not applied", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  const called = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  await using _ws = startWs(emu, {
    "card.action.trigger": async () => {
      called.resolve();
      await release.promise;
      return { toast: { type: "success", content: "too late" }, card: { type: "raw", data: DONE } };
    },
  });
  await emu.ws.whenReady();
  const id = await botCard(emu);
  const click = emu.clickCard({ user: D.bob.openId, messageId: id, value: { k: 1 } });
  await called.promise;
  clock.advance(emu.settings.ackTimeoutMs - 1);
  assert.equal(emu.cardResults().length, 0);
  clock.advance(1);
  const result = await click.result;
  assert.equal(result.timedOut, true);
  assert.equal(result.errorCode, 200341);
  assert.equal(result.applied, false);
  assert.equal(result.toast, undefined);
  release.resolve();
  await emu.waitFor(() => emu.event(click.eventId)?.lateAcks.length === 1);
  const record = emu.event(click.eventId)!;
  assert.equal(record.status, "timed_out");
  assert.equal(record.ack, undefined);
  assert.deepEqual(record.acks, []);
  assert.deepEqual(record.attempts.map((a) => a.reason), ["first"]);
  assert.equal(emu.cardResults().length, 1);
  const stored = emu.world.messages.get(id)!;
  assert.equal(stored.content, JSON.stringify(ASK));
  assert.equal(stored.updated, false);
  const res = await emu.handle(new Request(`http://x/__emu/api/chats/${D.team}/messages`));
  const item = (await res.json()).items.find((m: { message_id: string }) => m.message_id === id);
  assert.equal(item.toast.type, "error");
  assert.match(item.toast.content, /200341/);
});

Deno.test("a click with no connection up times out on the emulator clock instead of waiting in the queue", async () => {
  const clock = new ManualEmuClock();
  await using emu = createEmulator({ clock });
  const card = emu.userSends({ user: D.alice.openId, chat: D.team, interactive: ASK });
  const res = emu.handle(
    new Request("http://x/__emu/api/click", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: D.bob.openId, message_id: card.messageId, value: {} }),
    }),
  );
  const click = await emu.waitFor(() => emu.events({ type: "card.action.trigger" })[0]);
  assert.equal(click.status, "queued");
  clock.advance(emu.settings.ackTimeoutMs);
  const body = await (await res).json();
  assert.equal(body.timed_out, true);
  assert.equal(body.error_code, 200341);
  assert.equal(body.ack, null);
  assert.equal(emu.event(click.eventId)?.status, "timed_out");
  assert.deepEqual(emu.event(click.eventId)?.attempts, []);
});

Deno.test("card callback none: a click pushes nothing and fails with 200340, set in the world or at run time", async () => {
  const world = createDefaultWorld();
  world.primaryApp().cardCallback = "none";
  await using emu = createEmulator({ world });
  const card = emu.userSends({ user: D.alice.openId, chat: D.team, interactive: ASK });
  const before = emu.events().length;
  const click = emu.clickCard({ user: D.bob.openId, messageId: card.messageId!, value: {} });
  const result = await click.result;
  assert.equal(click.eventId, "");
  assert.equal(result.eventId, "");
  assert.equal(result.errorCode, 200340);
  assert.match(result.errorMessage ?? "", /card callback/);
  assert.equal(result.timedOut, false);
  assert.equal(emu.events().length, before);
  assert.equal(emu.world.cardTokens.size, 0);

  const res = await emu.handle(
    new Request("http://x/__emu/api/click", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: D.bob.openId, message_id: card.messageId, value: {} }),
    }),
  );
  const body = await res.json();
  assert.equal(res.status, 200);
  assert.equal(body.event_id, null);
  assert.equal(body.error_code, 200340);
  const list = await (await emu.handle(new Request(`http://x/__emu/api/chats/${D.team}/messages`)))
    .json();
  assert.match(list.items.at(-1).toast.content, /200340/);
  assert.equal(emu.events().length, before);

  emu.faults.setCardCallback("long_connection");
  const pushed = emu.clickCard({ user: D.bob.openId, messageId: card.messageId!, value: {} });
  assert.equal(emu.event(pushed.eventId)?.eventType, "card.action.trigger");
  emu.faults.setCardCallback("none", { app: D.appId });
  const again = await emu.clickCard({ user: D.bob.openId, messageId: card.messageId!, value: {} })
    .result;
  assert.equal(again.errorCode, 200340);
  assert.throws(() => emu.faults.setCardCallback("none", { app: "cli_unknown" }), /app id/);
});
