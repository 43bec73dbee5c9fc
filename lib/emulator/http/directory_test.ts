import assert from "node:assert/strict";
import { sdkClient } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, makeChat, ManualEmuClock, startEmulator } from "../mod.ts";
import { createEmulator } from "../emulator.ts";

const D = DEFAULT_IDS;

Deno.test("contact users get and batch resolve users by id type", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const one = await client.contact.v3.user.get({
    path: { user_id: D.alice.userId },
    params: { user_id_type: "user_id" },
  });
  assert.equal(one.data?.user?.open_id, D.alice.openId);
  assert.equal(one.data?.user?.name, "Alice");
  const batch = await client.request({
    url: "/open-apis/contact/v3/users/batch",
    method: "GET",
    params: { user_id_type: "open_id", user_ids: [D.alice.openId, "ou_nobody", D.bob.openId] },
  }) as { data: { items: { name: string }[] } };
  assert.deepEqual(batch.data.items.map((u) => u.name), ["Alice", "Bob"]);
});

Deno.test("application v6 and chat info report the app, chat modes and members", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const app = await client.request({
    url: `/open-apis/application/v6/applications/${D.appId}`,
    method: "GET",
    params: { lang: "zh_cn" },
  }) as { data: { app: { app_name: string } } };
  assert.equal(app.data.app.app_name, D.botName);
  const topics = await client.im.v1.chat.get({ path: { chat_id: D.topics } });
  assert.equal(topics.data?.chat_mode, "topic");
  assert.equal(topics.data?.name, "Topics");
  const p2p = await client.im.v1.chat.get({ path: { chat_id: D.aliceP2p } });
  assert.equal(p2p.data?.chat_mode, "p2p");
  const first = await client.im.v1.chatMembers.get({
    path: { chat_id: D.team },
    params: { page_size: 1 },
  });
  assert.deepEqual(first.data?.items?.map((m) => m.member_id), [D.alice.openId]);
  assert.equal(first.data?.has_more, true);
  assert.equal(first.data?.member_total, 2);
  const second = await client.im.v1.chatMembers.get({
    path: { chat_id: D.team },
    params: { page_size: 1, page_token: first.data?.page_token },
  });
  assert.deepEqual(second.data?.items?.map((m) => m.name), ["Bob"]);
  assert.equal(second.data?.has_more, false);
});

Deno.test("message.list pages chat history in both orders, filters by seconds and leaves out thread replies", async () => {
  const clock = new ManualEmuClock(1_700_000_000_000);
  await using emu = await startEmulator({ clock });
  const client = sdkClient(emu);
  const ids: string[] = [];
  for (const t of ["a", "b", "c"]) {
    ids.push(emu.userSends({ user: D.alice.openId, chat: D.team, text: t }).messageId!);
    clock.advance(10_000);
  }
  emu.userSends({
    user: D.bob.openId,
    chat: D.team,
    text: "in thread",
    replyTo: ids[0],
    inThread: true,
  });
  const list = (params: Record<string, string | number>) =>
    client.im.v1.message.list({
      params: { container_id_type: "chat", container_id: D.team, ...params },
    });
  const asc = await list({ page_size: 2 });
  assert.deepEqual(asc.data?.items?.map((m) => m.message_id), ids.slice(0, 2));
  const rest = await list({ page_size: 2, page_token: asc.data?.page_token ?? "" });
  assert.deepEqual(rest.data?.items?.map((m) => m.message_id), ids.slice(2));
  const desc = await list({ sort_type: "ByCreateTimeDesc" });
  assert.deepEqual(desc.data?.items?.map((m) => m.message_id), [...ids].reverse());
  const window = await list({ start_time: 1_700_000_010, end_time: 1_700_000_010 });
  assert.deepEqual(window.data?.items?.map((m) => m.message_id), [ids[1]]);
  const threadId = emu.world.messages.get(ids[0]!)?.threadId ?? "";
  const thread = await client.im.v1.message.list({
    params: { container_id_type: "thread", container_id: threadId },
  });
  assert.equal(thread.data?.items?.length, 2);
});

Deno.test("handle() answers 99991661 without a token and 99991663 for an unknown one", async () => {
  await using emu = createEmulator();
  const get = (auth?: string) =>
    emu.handle(
      new Request("http://x/open-apis/im/v1/chats/oc_emu_team", {
        headers: auth ? { authorization: auth } : {},
      }),
    ).then(async (r) => [r.status, (await r.json()).code]);
  assert.deepEqual(await get(), [400, 99991661]);
  assert.deepEqual(await get("Bearer t-forged"), [400, 99991663]);
  const res = await emu.handle(
    new Request("http://x/open-apis/auth/v3/tenant_access_token/internal", {
      method: "POST",
      body: JSON.stringify({ app_id: D.appId, app_secret: "wrong" }),
      headers: { "content-type": "application/json" },
    }),
  );
  assert.equal((await res.json()).code, 10014);
});

Deno.test("chat.list lists the group chats the bot is in (no p2p), paged, by creation or newest activity", async () => {
  const clock = new ManualEmuClock(1_700_000_000_000);
  await using emu = await startEmulator({ clock });
  emu.world.addChat(makeChat({
    chatId: "oc_new",
    name: "New",
    mode: "group",
    members: [D.alice.openId],
    bots: [D.appId],
  }));
  emu.world.addChat(makeChat({
    chatId: "oc_other",
    name: "Not ours",
    mode: "group",
    members: [D.alice.openId],
    bots: [],
  }));
  const client = sdkClient(emu);
  const list = async (params: Record<string, unknown>) => {
    const r = await client.im.v1.chat.list({ params });
    return r.data!;
  };
  const created = await list({});
  assert.deepEqual(created.items?.map((c) => c.chat_id), [D.team, D.topics, "oc_new"]);
  assert.equal(created.has_more, false);
  assert.deepEqual(created.items?.[0], {
    chat_id: D.team,
    avatar: "",
    name: "Team",
    description: "",
    owner_id: D.alice.openId,
    owner_id_type: "open_id",
    external: false,
    tenant_key: D.tenantKey,
    chat_status: "normal",
  });
  // Activity: a thread reply counts; a chat without messages comes last.
  const root = emu.userSends({ user: D.alice.openId, chat: D.topics, text: "t" });
  clock.advance(1000);
  emu.userSends({ user: D.alice.openId, chat: D.team, text: "x" });
  clock.advance(1000);
  emu.userSends({
    user: D.bob.openId,
    chat: D.topics,
    text: "r",
    replyTo: root.messageId,
    inThread: true,
  });
  const first = await list({ sort_type: "ByActiveTimeDesc", page_size: 2 });
  assert.deepEqual(first.items?.map((c) => c.chat_id), [D.topics, D.team]);
  assert.equal(first.has_more, true);
  const second = await list({
    sort_type: "ByActiveTimeDesc",
    page_size: 2,
    page_token: first.page_token,
  });
  assert.deepEqual(second.items?.map((c) => c.chat_id), ["oc_new"]);
  assert.equal(second.has_more, false);
  const bad = await client.im.v1.chat.list({ params: { sort_type: "Nope" as "ByActiveTimeDesc" } })
    .then((r) => r.code, (e) => e.response?.data?.code);
  assert.equal(bad, 99992402);
  assert.equal(emu.requests({ method: "GET", path: "/open-apis/im/v1/chats" }).length, 4);
});
