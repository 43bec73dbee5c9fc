import assert from "node:assert/strict";
import { createLogger } from "../core/mod.ts";
import { DEFAULT_IDS as D, startEmulator } from "../emulator/mod.ts";
import { createFeishuApi } from "./client.ts";
import { proxyEnvOf } from "./proxy.ts";
import { startTestProxy } from "./testdata/recording_proxy.ts";

const CREATE = "/open-apis/im/v1/messages";
const quiet = createLogger({ sink: () => {} });

const text = (t: string) => ({
  receiveId: D.aliceP2p,
  receiveIdType: "chat_id" as const,
  msgType: "text",
  content: JSON.stringify({ text: t }),
  uuid: crypto.randomUUID(),
});

Deno.test("a create that times out is sent once: Deno does not re-send it on a reused keep-alive connection", async () => {
  await using emu = await startEmulator();
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
    timeoutMs: 200,
  });
  // A first create leaves a pooled connection behind (the case Deno re-sends on).
  await api.createMessage(text("warm"));
  emu.faults.add({ method: "POST", path: CREATE, times: 1, respond: { delayMs: 1_000 } });
  await assert.rejects(api.createMessage(text("slow")), { code: "SEND_TIMEOUT" });
  // The held request is answered at last; a re-send would have arrived before it.
  await emu.waitFor(() => emu.requests({ path: CREATE }).every((r) => r.status !== undefined));
  const slow = emu.requests({ method: "POST", path: CREATE }).filter((r) =>
    (r.body as { content?: string }).content?.includes("slow")
  );
  assert.equal(slow.length, 1, "one POST for one create");
});

Deno.test("a message create goes through HTTP_PROXY on its own connection", async () => {
  await using emu = await startEmulator();
  await using proxy = startTestProxy();
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
    proxyEnv: proxyEnvOf({ HTTP_PROXY: proxy.url }),
  });
  const sent = await api.createMessage(text("via proxy"));
  assert.ok(emu.messages(D.aliceP2p).some((m) => m.messageId === sent.messageId));
  assert.deepEqual(proxy.seen.slice(1), [
    `POST ${emu.url}${CREATE}?receive_id_type=chat_id HTTP/1.1`,
  ]);
});

Deno.test("a reaction add that times out is sent once: Deno does not re-send it on a reused keep-alive connection", async () => {
  await using emu = await startEmulator({ duplicateReactions: true });
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
    timeoutMs: 200,
  });
  const { messageId } = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
  await api.addReaction(messageId!, "OK");
  const path = "/open-apis/im/v1/messages/:id/reactions";
  emu.faults.add({ method: "POST", path, times: 1, respond: { delayMs: 1_000 } });
  await assert.rejects(api.addReaction(messageId!, "SMILE"));
  await emu.waitFor(() => emu.requests({ path }).every((r) => r.status !== undefined));
  assert.equal(emu.reactions(messageId!).filter((r) => r.emojiType === "SMILE").length, 1);
  assert.equal(emu.requests({ method: "POST", path }).length, 2, "one POST per reaction");
});

Deno.test("listChats pages the bot's group chats newest activity first, and a refusal is a classified error", async () => {
  await using emu = await startEmulator();
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
  });
  emu.userSends({ user: D.alice.openId, chat: D.topics, text: "now" });
  const first = await api.listChats({ order: "active", pageSize: 1 });
  assert.deepEqual(first.items, [{ chatId: D.topics, name: "Topics" }]);
  assert.equal(first.hasMore, true);
  const second = await api.listChats({ order: "active", pageSize: 1, pageToken: first.pageToken! });
  assert.deepEqual(second.items.map((c) => c.chatId), [D.team]);
  assert.equal(second.hasMore, false);
  const calls = emu.requests({ method: "GET", path: "/open-apis/im/v1/chats" });
  assert.deepEqual(calls.map((c) => c.query.sort_type), ["ByActiveTimeDesc", "ByActiveTimeDesc"]);
  emu.faults.add({ path: "/open-apis/im/v1/chats", times: 1, respond: { code: 99991672 } });
  await assert.rejects(api.listChats({}), (err: Error & { code?: string }) => {
    assert.equal(err.name, "BridgeError");
    return true;
  });
});
