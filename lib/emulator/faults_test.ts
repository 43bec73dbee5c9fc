import assert from "node:assert/strict";
import { lark, sdkClient } from "./testdata/sdk_harness.ts";
import { createEmulator } from "./emulator.ts";
import { DEFAULT_IDS, type Emulator, ManualEmuClock, startEmulator } from "./mod.ts";

const D = DEFAULT_IDS;
const text = (t: string) => JSON.stringify({ text: t });

interface Outcome {
  status?: number;
  code?: number;
  headers?: Record<string, string>;
  network?: string;
}

async function outcome(p: Promise<unknown>): Promise<Outcome> {
  try {
    const r = await p as { code?: number };
    return { status: 200, code: r?.code };
  } catch (e) {
    const err = e as {
      code?: string;
      response?: { status: number; data?: { code?: number }; headers: Record<string, string> };
    };
    if (!err.response?.data?.code) return { network: err.code };
    return {
      status: err.response.status,
      code: err.response.data.code,
      headers: err.response.headers,
    };
  }
}

function sender(emu: Emulator, client = sdkClient(emu)) {
  return (chat: string = D.team) =>
    outcome(client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: chat, msg_type: "text", content: text("x") },
    }));
}

Deno.test("fault rules answer matching requests a set number of times, then requests pass again", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const send = sender(emu, client);
  const root = emu.userSends({ user: D.alice.openId, chat: D.team, text: "root" });
  emu.faults.add({
    method: "POST",
    path: "/open-apis/im/v1/messages/:message_id/reply",
    times: 1,
    respond: { code: 230011, msg: "The message was withdrawn." },
  });
  emu.faults.add({
    method: "POST",
    path: "/open-apis/im/v1/messages",
    times: 2,
    respond: { code: 230020 },
  });
  const reply = () =>
    outcome(client.im.v1.message.reply({
      path: { message_id: root.messageId! },
      data: { msg_type: "text", content: text("r") },
    }));
  assert.equal((await reply()).code, 230011);
  assert.equal((await reply()).code, 0);
  assert.deepEqual([(await send()).code, (await send()).code, (await send()).code], [
    230020,
    230020,
    0,
  ]);
  assert.deepEqual(emu.faults.rules(), []);
  assert.equal(
    emu.requests({ path: "/open-apis/im/v1/messages" }).filter((r) => r.faulted).length,
    2,
  );
});

Deno.test("a fault rule for every call answers 429/99991400 with the rate-limit headers", async () => {
  await using emu = await startEmulator();
  const send = sender(emu);
  await send();
  emu.faults.add({
    path: /^\/open-apis\/im\//,
    respond: {
      status: 429,
      code: 99991400,
      msg: "request trigger frequency limit",
      headers: { "x-ogw-ratelimit-reset": "2" },
    },
  });
  const got = await send();
  assert.deepEqual([got.status, got.code, got.headers?.["x-ogw-ratelimit-reset"]], [
    429,
    99991400,
    "2",
  ]);
  emu.faults.clear();
  assert.equal((await send()).code, 0);
});

Deno.test("a hang fault makes the SDK call time out", async () => {
  await using emu = await startEmulator();
  const send = sender(emu);
  await send();
  const before = lark.defaultHttpInstance.defaults.timeout;
  lark.defaultHttpInstance.defaults.timeout = 100;
  try {
    emu.faults.add({ path: "/open-apis/im/v1/messages", times: 1, respond: "hang" });
    assert.deepEqual(await send(), { network: "ECONNABORTED" });
  } finally {
    lark.defaultHttpInstance.defaults.timeout = before;
  }
});

Deno.test("a reset fault breaks the response body, which the SDK reports as a network failure", async () => {
  await using emu = await startEmulator();
  const send = sender(emu);
  await send();
  emu.faults.add({ path: "/open-apis/im/v1/messages", times: 1, respond: "reset" });
  assert.deepEqual(await send(), { network: "ERR_BAD_RESPONSE" });
  assert.equal((await send()).code, 0);
  assert.deepEqual(
    emu.requests({ path: "/open-apis/im/v1/messages" }).map((r) => r.faulted ?? false),
    [
      false,
      true,
      false,
    ],
  );
});

Deno.test("a hanging request ends when the emulator closes", async () => {
  const emu = createEmulator();
  emu.faults.add({ path: "/open-apis/bot/v3/info", respond: "hang" });
  let settled = false;
  const pending = emu.handle(new Request("http://x/open-apis/bot/v3/info")).then((r) => {
    settled = true;
    return r.status;
  });
  await Promise.resolve();
  assert.equal(settled, false);
  await emu.close();
  assert.equal(await pending, 503);
});

Deno.test("a delayMs fault waits on the emulator clock, then passes the request through", async () => {
  const clock = new ManualEmuClock();
  await using emu = createEmulator({ clock });
  emu.faults.add({ path: "/open-apis/bot/v3/info", respond: { delayMs: 5000 } });
  let status = 0;
  const pending = emu.handle(new Request("http://x/open-apis/bot/v3/info")).then((
    r,
  ) => (status = r.status));
  await emu.waitFor(() => emu.requests().length === 1);
  clock.advance(4999);
  await Promise.resolve();
  assert.equal(status, 0);
  clock.advance(1);
  await pending;
  assert.equal(status, 400); // no token: the real route answered 99991661
});

Deno.test("the chat limiter allows five sends per second per chat, then answers 230020", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock, chatRateLimit: 5 });
  const send = sender(emu);
  const codes = [];
  for (let i = 0; i < 6; i++) codes.push((await send()).code);
  assert.deepEqual(codes, [0, 0, 0, 0, 0, 230020]);
  assert.equal((await send(D.topics)).code, 0);
  clock.advance(1000);
  assert.equal((await send()).code, 0);
  emu.faults.setChatRateLimit(false);
  for (let i = 0; i < 6; i++) assert.equal((await send()).code, 0);
});

Deno.test("the app limiter answers HTTP 429 with 99991400 and x-ogw-ratelimit-reset", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock, appRateLimit: 2 });
  const send = sender(emu);
  assert.equal((await send()).code, 0);
  clock.advance(400);
  assert.equal((await send()).code, 0);
  const limited = await send();
  assert.deepEqual(
    [
      limited.status,
      limited.code,
      limited.headers?.["x-ogw-ratelimit-limit"],
      limited.headers?.["x-ogw-ratelimit-reset"],
    ],
    [429, 99991400, "2", "1"],
  );
  clock.advance(600);
  assert.equal((await send()).code, 0);
});

Deno.test("revoked and expired tokens answer 99991663; a short expire makes the SDK fetch a token per call", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  const send = sender(emu);
  assert.equal((await send()).code, 0);
  emu.faults.revokeTokens();
  assert.equal((await send()).code, 99991663);
  assert.equal((await sender(emu)()).code, 0);
  clock.advance(7200 * 1000);
  const stale = sdkClient(emu);
  assert.equal((await sender(emu, stale)()).code, 0);
  clock.advance(7200 * 1000);
  assert.equal((await sender(emu, stale)()).code, 99991663);
  emu.faults.setTokenExpire(60);
  const fresh = sdkClient(emu);
  const tokenCalls = () =>
    emu.requests({ path: "/open-apis/auth/v3/tenant_access_token/internal" }).length;
  const before = tokenCalls();
  await sender(emu, fresh)();
  await sender(emu, fresh)();
  assert.equal(tokenCalls() - before, 2);
});

Deno.test("reset-after and hang-after carry the send out, then lose its answer: the message exists once", async () => {
  await using emu = await startEmulator();
  const send = sender(emu);
  await send();
  emu.faults.add({ path: "/open-apis/im/v1/messages", times: 1, respond: "reset-after" });
  assert.deepEqual(await send(), { network: "ERR_BAD_RESPONSE" });
  const before = lark.defaultHttpInstance.defaults.timeout;
  lark.defaultHttpInstance.defaults.timeout = 100;
  try {
    emu.faults.add({ path: "/open-apis/im/v1/messages", times: 1, respond: "hang-after" });
    assert.deepEqual(await send(), { network: "ECONNABORTED" });
  } finally {
    lark.defaultHttpInstance.defaults.timeout = before;
  }
  // Both were created although neither caller heard of it; the log keeps Feishu's answer.
  assert.equal(emu.messages(D.team).filter((m) => m.sender.type === "app").length, 3);
  assert.deepEqual(
    emu.requests({ path: "/open-apis/im/v1/messages" }).map((r) => [r.faulted ?? false, r.code]),
    [[false, 0], [true, 0], [true, 0]],
  );
});
