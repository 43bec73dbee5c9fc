import assert from "node:assert/strict";
import { createLogger, systemClock } from "../core/mod.ts";
import { DEFAULT_IDS as D, makeChat, ManualEmuClock, startEmulator } from "../emulator/mod.ts";
import { createFeishuApi } from "../feishu/mod.ts";
import { openStore, type RecordInput, type Store } from "../store/mod.ts";
import { incomingRecord } from "../store/testdata/records.ts";
import { discoverChats } from "./discover.ts";

const LIST = "/open-apis/im/v1/chats";

function heardFrom(store: Store, chatId: string): void {
  const id = `main:${chatId}:om_${chatId}`;
  store.records.insert({
    account: "main",
    id,
    chatId,
    feishuMessageId: `om_${chatId}`,
    direction: "incoming",
    kind: "message",
    createTime: 1,
    record: incomingRecord(`om_${chatId}`, { id, chat_id: chatId, chat_type: "group" }),
  } as RecordInput);
}

function opened(store: Store, n: number, atMs: number): void {
  const id = `main:events:ev_${n}`;
  store.records.insert({
    account: "main",
    id,
    chatId: "events",
    feishuEventId: `ev_${n}`,
    direction: "incoming",
    kind: "event",
    createTime: atMs,
    record: {
      id,
      feishu_event_id: `ev_${n}`,
      chat_id: "events",
      chat_type: "synthetic",
      thread_id: null,
      message_type: "event",
      event_type: "p2p_entered",
      from_open_id: `ou_${n}`,
      from_name: null,
      text: "[p2p_entered]",
      date: new Date(atMs).toISOString(),
      synthetic: true,
      source_chat_id: `oc_dm_${n}`,
      event: { chat_id: `oc_dm_${n}` },
      feishu: {},
    },
  } as RecordInput);
}

Deno.test("discoverChats() takes never-seen groups most active first, DMs people opened for at most half, within its page and chat bounds", async () => {
  const clock = new ManualEmuClock(1_800_000_000_000);
  await using emu = await startEmulator({ clock });
  // 150 groups besides Team and Topics; the higher the number, the more recent its message.
  for (let n = 0; n < 150; n++) {
    const chatId = `oc_g${String(n).padStart(3, "0")}`;
    emu.world.addChat(makeChat({
      chatId,
      name: chatId,
      mode: "group",
      members: [D.alice.openId],
      bots: [D.appId],
    }));
    emu.userSends({ user: D.alice.openId, chat: chatId, text: "x" });
    clock.advance(1000);
  }
  const dir = await Deno.makeTempDir();
  const store = openStore(dir, systemClock);
  try {
    const api = createFeishuApi({
      alias: "main",
      appId: D.appId,
      appSecret: D.appSecret,
      baseUrl: emu.url,
      log: createLogger({ sink: () => {} }),
    });
    heardFrom(store, "oc_g149");
    heardFrom(store, "oc_g147");
    for (let n = 0; n < 15; n++) opened(store, n, 10_000 + n);
    heardFrom(store, "oc_dm_14");
    const base = { api, records: store.records, enteredSinceMs: 0 };

    const found = await discoverChats(base);
    assert.deepEqual(
      found.slice(0, 10),
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((n) => ({
        chatId: `oc_dm_${n}`,
        chatType: "p2p",
      })),
    );
    assert.deepEqual(found.slice(10).map((c) => c.chatId), [
      "oc_g148",
      "oc_g146",
      "oc_g145",
      "oc_g144",
      "oc_g143",
      "oc_g142",
      "oc_g141",
      "oc_g140",
      "oc_g139",
      "oc_g138",
    ]);
    assert.ok(found.slice(10).every((c) => c.chatType === "group"));
    // Twenty found on the first page: no second one.
    assert.equal(emu.requests({ method: "GET", path: LIST }).length, 1);

    // A wide bound stops at the page bound: 100 listed, the two known skipped.
    const wide = await discoverChats({
      ...base,
      enteredSinceMs: 20_000,
      maxChats: 500,
      maxPages: 1,
    });
    assert.equal(wide.length, 98);
    // All pages: every never-seen group, Team and Topics (no message: last).
    const all = await discoverChats({ ...base, enteredSinceMs: 20_000, maxChats: 500 });
    assert.equal(all.length, 150);
    assert.deepEqual(all.slice(-2).map((c) => c.chatId), [D.topics, D.team]);
    assert.equal(emu.requests({ method: "GET", path: LIST }).length, 1 + 1 + 2);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
