import assert from "node:assert/strict";
import { createLogger, ManualClock, systemClock } from "../core/mod.ts";
import { DEFAULT_IDS as D, startEmulator } from "../emulator/mod.ts";
import { createFeishuApi } from "../feishu/mod.ts";
import { deliverChunks, type DeliveryRoute } from "./deliver.ts";
import { chunkUuids } from "./idempotency.ts";
import { OutboundScheduler } from "./scheduler.ts";
import { uploadMedia } from "./upload.ts";
import { wireBody } from "./wire.ts";

const quiet = createLogger({ sink: () => {} });

async function rig() {
  const emu = await startEmulator();
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
    timeoutMs: 5000,
  });
  const scheduler = new OutboundScheduler({ clock: systemClock });
  return {
    emu,
    api,
    scheduler,
    async [Symbol.asyncDispose]() {
      scheduler.close();
      await emu.close();
    },
  };
}

const texts = (...t: string[]) => t.map((text) => wireBody("text", { text }));
const uuids = (n: number, key?: string) =>
  chunkUuids({ account: "main", idempotencyKey: key, count: n }, {
    newId: () => crypto.randomUUID(),
  });

/** The lane of a route in these tests: its chat (a reply's) or its receive id. */
const laneOf = (route: DeliveryRoute) => route.kind === "reply" ? route.chatId : route.receiveId;

Deno.test("deliverChunks() creates every chunk in order, each with its uuid, in the target chat", async () => {
  await using r = await rig();
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  const ids = uuids(3);
  const out = await deliverChunks(r, {
    route,
    bodies: texts("a", "b", "c"),
    uuids: ids,
    lane: laneOf(route),
  });
  assert.equal(out.failure, undefined);
  assert.deepEqual(out.delivered.map((m) => JSON.parse(m.content!).text), ["a", "b", "c"]);
  const creates = r.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" });
  assert.deepEqual(creates.map((q) => (q.body as { uuid: string }).uuid), ids);
  assert.deepEqual(r.emu.messages(D.team).map((m) => JSON.parse(m.content).text), ["a", "b", "c"]);
});

Deno.test("deliverChunks() replies chunk 1 and creates the rest in the chat when not in a thread", async () => {
  await using r = await rig();
  const { messageId } = r.emu.userSends({ user: D.alice.openId, chat: D.team, text: "question" });
  const route = {
    kind: "reply",
    targetId: messageId!,
    chatId: D.team,
    replyInThread: false,
  } as const;
  const out = await deliverChunks(r, {
    route,
    bodies: texts("one", "two"),
    uuids: uuids(2),
    lane: laneOf(route),
  });
  assert.equal(out.delivered.length, 2);
  assert.equal(r.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).length, 1);
  const replyBody = r.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" })[0]!.body;
  assert.equal((replyBody as { reply_in_thread: boolean }).reply_in_thread, false);
  assert.equal(r.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length, 1);
  assert.equal(out.delivered[0]!.parentId, messageId);
  assert.equal(out.delivered[1]!.parentId, null);
});

Deno.test("deliverChunks() keeps every chunk in the topic when replying in thread", async () => {
  await using r = await rig();
  const { messageId } = r.emu.userSends({ user: D.alice.openId, chat: D.team, text: "q" });
  const route = {
    kind: "reply",
    targetId: messageId!,
    chatId: D.team,
    replyInThread: true,
  } as const;
  const out = await deliverChunks(r, {
    route,
    bodies: texts("x", "y", "z"),
    uuids: uuids(3),
    lane: laneOf(route),
  });
  assert.equal(r.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).length, 3);
  const threads = new Set(out.delivered.map((m) => m.threadId));
  assert.equal(threads.size, 1);
  assert.ok([...threads][0]);
});

Deno.test("deliverChunks() stops at the first failed chunk and never attempts the rest", async () => {
  await using r = await rig();
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  // Feishu refuses a blank text (230001): chunk 2 fails, chunk 3 is never sent.
  const out = await deliverChunks(r, {
    route,
    bodies: texts("1", " ", "3"),
    uuids: uuids(3),
    lane: "oc",
  });
  assert.equal(out.delivered.length, 1);
  assert.equal(out.chunkCount, 3);
  assert.equal(out.failure?.code, "FORMAT_ERROR");
  assert.equal(r.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length, 2);
  assert.deepEqual(r.emu.messages(D.team).map((m) => JSON.parse(m.content).text), ["1"]);
});

Deno.test("deliverChunks() reports a failed first chunk with nothing delivered", async () => {
  await using r = await rig();
  r.emu.faults.add({
    method: "POST",
    path: "/open-apis/im/v1/messages",
    respond: { code: 230002, msg: "Bot is not in the chat." },
  });
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  const out = await deliverChunks(r, {
    route,
    bodies: texts("a", "b"),
    uuids: uuids(2),
    lane: "oc",
  });
  assert.equal(out.delivered.length, 0);
  assert.equal(out.failure?.code, "TARGET_REVOKED");
  assert.equal(r.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length, 1);
});

Deno.test("deliverChunks() counts a chunk answered for a repeated uuid as delivered and creates nothing new", async () => {
  await using r = await rig();
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  const ids = uuids(2, "job-7");
  const first = await deliverChunks(r, { route, bodies: texts("p", "q"), uuids: ids, lane: "oc" });
  const again = await deliverChunks(r, { route, bodies: texts("p", "q"), uuids: ids, lane: "oc" });
  assert.deepEqual(
    again.delivered.map((m) => m.messageId),
    first.delivered.map((m) => m.messageId),
  );
  assert.equal(r.emu.messages(D.team).length, 2);
});

Deno.test("deliverChunks() turns a rate limit into a pause for Feishu's hint: the chat for 230020, the app for 99991400", async () => {
  await using r = await rig();
  const clock = new ManualClock(0);
  using scheduler = new OutboundScheduler({ clock });
  const ports = { api: r.api, scheduler };
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  const send = (lane: string) =>
    deliverChunks(ports, { route, bodies: texts("a"), uuids: uuids(1), lane });
  const waitsFor = async (lane: string): Promise<boolean> => {
    const p = send(lane);
    for (let i = 0; i < 20 && clock.pendingSleeps() === 0; i++) await Promise.resolve();
    const waiting = clock.pendingSleeps() > 0;
    clock.advance(60_000);
    await p;
    return waiting;
  };

  r.emu.faults.add({
    path: "/open-apis/im/v1/messages",
    times: 1,
    respond: {
      status: 429,
      code: 99991400,
      msg: "too many",
      headers: { "x-ogw-ratelimit-reset": "3" },
    },
  });
  const app = await send("oc");
  assert.equal(app.failure?.code, "RATE_LIMITED");
  assert.equal(app.failure?.retryAfterSeconds, 3);
  assert.equal(app.failure?.retryable, true);
  assert.equal(await waitsFor("another-chat"), true);

  r.emu.faults.add({
    path: "/open-apis/im/v1/messages",
    times: 1,
    respond: { code: 230020, msg: "request trigger frequency limit, ext=chat rate limit" },
  });
  const chat = await send("oc");
  assert.equal(chat.failure?.code, "RATE_LIMITED");
  // Another chat goes at once while this one waits out the pause.
  const other = send("another-chat");
  const blocked = send("oc");
  assert.equal((await other).failure, undefined);
  assert.equal(clock.pendingSleeps(), 1);
  clock.advance(1000);
  assert.equal((await blocked).failure, undefined);
});

Deno.test("uploadMedia() uploads a file under its file_name and an image to the image endpoint", async () => {
  await using r = await rig();
  const bytes = new Uint8Array([1, 2, 3]);
  const fileKey = await uploadMedia(r.api, {
    path: "/x/never-opened.bin",
    bytes,
    fileName: "report.pdf",
    fileType: "stream",
  });
  assert.equal(r.emu.world.uploads.get(fileKey)?.fileName, "report.pdf");
  assert.deepEqual(r.emu.world.uploads.get(fileKey)?.bytes, bytes);
  const imageKey = await uploadMedia(r.api, {
    path: "/x/a.png",
    bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    fileName: "a.png",
    fileType: "image",
  });
  assert.equal(r.emu.world.uploads.get(imageKey)?.kind, "image");
});

Deno.test("uploadMedia() reports a refused upload as UPLOAD_FAILED", async () => {
  await using r = await rig();
  await assert.rejects(
    uploadMedia(r.api, {
      path: "/x",
      bytes: new Uint8Array(),
      fileName: "empty.bin",
      fileType: "stream",
    }),
    { code: "UPLOAD_FAILED" },
  );
});

Deno.test("deliverChunks() sends a chunk whose answer was cut off again under its uuid, and it lands once", async () => {
  await using r = await rig();
  const { messageId } = r.emu.userSends({ user: D.alice.openId, chat: D.team, text: "question" });
  const route = {
    kind: "reply",
    targetId: messageId!,
    chatId: D.team,
    replyInThread: false,
  } as const;
  r.emu.faults.add({ path: "/open-apis/im/v1/messages/:id/reply", times: 1, respond: "reset" });
  const told: number[] = [];
  const out = await deliverChunks(r, {
    route,
    bodies: texts("answer"),
    uuids: ["u-reply-1"],
    lane: laneOf(route),
    onDelivered: (k) => told.push(k),
  });
  assert.equal(out.failure, undefined);
  assert.deepEqual(told, [0]);
  const replies = r.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" });
  assert.deepEqual(replies.map((q) => (q.body as { uuid: string }).uuid), [
    "u-reply-1",
    "u-reply-1",
  ]);
  assert.equal(r.emu.messages(D.team).filter((m) => m.sender.type === "app").length, 1);
});

Deno.test("deliverChunks() reports a chunk never answered after its retries as unknown, and stops there", async () => {
  await using r = await rig();
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  r.emu.faults.add({
    method: "POST",
    path: "/open-apis/im/v1/messages",
    when: (q) => (q.body as { uuid?: string }).uuid === "u-2",
    respond: "reset",
  });
  const out = await deliverChunks(r, {
    route,
    bodies: texts("a", "b", "c"),
    uuids: ["u-1", "u-2", "u-3"],
    lane: laneOf(route),
  });
  assert.equal(out.delivered.length, 1);
  assert.equal(out.unknown, true);
  assert.equal(out.failure?.code, "UNKNOWN");
  const sent = r.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" })
    .map((q) => (q.body as { uuid: string }).uuid);
  assert.deepEqual(sent, ["u-1", "u-2", "u-2", "u-2"], "two retries, then chunk 3 is not sent");
});

Deno.test("deliverChunks() does not retry a chunk Feishu refused with a code", async () => {
  await using r = await rig();
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  r.emu.faults.add({
    method: "POST",
    path: "/open-apis/im/v1/messages",
    times: 1,
    respond: { status: 500, code: 55001, msg: "internal error" },
  });
  const out = await deliverChunks(r, {
    route,
    bodies: texts("a"),
    uuids: ["u-1"],
    lane: laneOf(route),
  });
  assert.equal(out.unknown, undefined);
  assert.equal(out.failure?.context.providerCode, 55001);
  assert.equal(r.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length, 1);
});

Deno.test("deliverChunks() keeps a chunk's fate unknown when a retry after a lost answer is refused (the first try landed)", async () => {
  await using r = await rig();
  const route = { kind: "create", receiveId: D.team, receiveIdType: "chat_id" } as const;
  const path = "/open-apis/im/v1/messages";
  // Created, answer lost; then the retry under the same uuid meets a chat rate limit.
  r.emu.faults.add({ method: "POST", path, times: 1, respond: "reset-after" });
  r.emu.faults.add({
    method: "POST",
    path,
    times: 1,
    respond: { code: 230020, msg: "request trigger frequency limit, ext=chat rate limit" },
  });
  const out = await deliverChunks(r, {
    route,
    bodies: texts("a"),
    uuids: ["u-1"],
    lane: laneOf(route),
  });
  assert.equal(r.emu.messages(D.team).filter((m) => m.sender.type === "app").length, 1);
  assert.equal(out.unknown, true, "not reported as refused: Feishu holds it");
  assert.notEqual(out.failure?.code, "RATE_LIMITED");
});
