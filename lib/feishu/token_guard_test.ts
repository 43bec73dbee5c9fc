import assert from "node:assert/strict";
import { BridgeError, createLogger } from "../core/mod.ts";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../emulator/mod.ts";
import { createFeishuApi } from "./client.ts";
import { authSummary } from "./token_guard.ts";

const TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

function apiOn(emu: Emulator) {
  return createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: createLogger({ sink: () => {} }),
  });
}

const tokenRequests = (emu: Emulator) => emu.requests({ path: TOKEN_PATH }).length;
const send = (api: ReturnType<typeof apiOn>, text: string, uuid?: string) =>
  api.createMessage({
    receiveId: D.aliceP2p,
    receiveIdType: "chat_id",
    msgType: "text",
    content: JSON.stringify({ text }),
    uuid,
  });
const botTexts = (emu: Emulator) =>
  emu.messages(D.aliceP2p).filter((m) => m.sender.type === "app").map((m) =>
    JSON.parse(m.content).text
  );

async function refusal(p: Promise<unknown>): Promise<BridgeError> {
  const err = await p.then(() => null, (e) => e);
  assert.ok(err instanceof BridgeError, `expected a BridgeError, got ${err}`);
  return err;
}

Deno.test("a revoked token is dropped: the next send fetches exactly one new token and goes out once", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  await send(api, "before");
  assert.equal(tokenRequests(emu), 1);
  emu.faults.revokeTokens();
  const sent = await send(api, "after", "uuid-after");
  assert.equal(tokenRequests(emu), 2);
  assert.deepEqual(botTexts(emu), ["before", "after"]);
  // The refused create and its repeat carried the same uuid; Feishu created one message.
  const creates = emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" });
  assert.deepEqual(creates.slice(-2).map((r) => [r.code, (r.body as { uuid?: string }).uuid]), [
    [99991663, "uuid-after"],
    [0, "uuid-after"],
  ]);
  assert.equal(botTexts(emu).length, 2);
  assert.ok(sent.messageId);
  const auth = api.auth!();
  assert.equal(auth.state, "ok");
  assert.equal(auth.refreshes, 1);
  assert.equal(authSummary(auth), null);
});

Deno.test("calls refused together share one token refetch", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  await send(api, "warm up");
  emu.faults.revokeTokens();
  await Promise.all([send(api, "a"), send(api, "b"), send(api, "c")]);
  assert.equal(tokenRequests(emu), 2);
  assert.deepEqual(botTexts(emu).slice(1).sort(), ["a", "b", "c"]);
  assert.equal(api.auth!().refreshes, 1);
});

Deno.test("a fresh token refused too is final: PERMISSION_DENIED, not retryable, and the auth state says so", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  await send(api, "before");
  emu.faults.add({
    method: "POST",
    path: "/open-apis/im/v1/messages",
    times: 2,
    respond: { code: 99991663, msg: "Invalid access token for authorization." },
  });
  const err = await refusal(send(api, "refused", "uuid-refused"));
  assert.equal(err.code, "PERMISSION_DENIED");
  assert.equal(err.retryable, false);
  assert.equal(err.context.providerCode, 99991663);
  assert.equal(tokenRequests(emu), 2);
  assert.deepEqual(botTexts(emu), ["before"]);
  const auth = api.auth!();
  assert.equal(auth.state, "token_rejected");
  assert.match(authSummary(auth)!, /^auth: token rejected at \d{4}-.*Z \(.*99991663/);
  // The next call that succeeds clears it.
  await send(api, "later");
  assert.equal(api.auth!().state, "ok");
});

Deno.test("a token request the endpoint refuses is final and named; each later call tries one fetch, and recovery clears it", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  await send(api, "before");
  emu.faults.revokeTokens();
  emu.faults.add({
    method: "POST",
    path: TOKEN_PATH,
    respond: { code: 10014, msg: "app secret invalid" },
  });
  const err = await refusal(send(api, "refused"));
  assert.equal(err.code, "PERMISSION_DENIED");
  assert.equal(err.retryable, false);
  assert.equal(err.context.providerCode, 10014);
  assert.match(err.message, /token request refused: app secret invalid/);
  assert.equal(tokenRequests(emu), 2);
  assert.equal(api.auth!().state, "token_request_failed");
  assert.match(authSummary(api.auth!())!, /^auth: token request failed at .*10014/);
  await refusal(send(api, "refused again"));
  assert.equal(tokenRequests(emu), 3);
  emu.faults.clear();
  await send(api, "after");
  assert.deepEqual(botTexts(emu), ["before", "after"]);
  assert.equal(api.auth!().state, "ok");
});

Deno.test("a token endpoint that answers HTTP 200 without a token (the SDK's plain Error) is classified by its code too", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  emu.faults.add({
    method: "POST",
    path: TOKEN_PATH,
    respond: { status: 200, code: 10014, msg: "app secret invalid" },
  });
  const err = await refusal(send(api, "refused"));
  assert.equal(err.code, "PERMISSION_DENIED");
  assert.equal(err.retryable, false);
  assert.equal(err.context.providerCode, 10014);
  assert.equal(err.context.operation, "send");
  assert.equal(api.auth!().state, "token_request_failed");
  assert.equal(emu.requests({ path: TOKEN_PATH }).at(-1)!.status, 200);
});
