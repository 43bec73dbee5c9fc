import assert from "node:assert/strict";
import { join } from "node:path";
import { createLogger, systemClock } from "../core/mod.ts";
import type { FeishuApi, LongConnection, LongConnectionStatus } from "../feishu/mod.ts";
import { type CanaryDeps, type CanaryRequest, CHECK_NAMES, runChecks } from "./checks.ts";

const APP_ID = "cli_a1b2c3d4e5f6a7b8";
const SECRET = "unit-test-secret";

/** Fake Open API answers by path: `[body, logId]`. */
type Routes = Record<string, unknown>;

function fakeFetch(routes: Routes, seen: string[]): typeof fetch {
  return (input: RequestInfo | URL) => {
    const path = new URL(String(input)).pathname;
    seen.push(path);
    const body = routes[path] ?? { code: 404, msg: "not found" };
    return Promise.resolve(
      new Response(JSON.stringify(body), { headers: { "x-tt-logid": `log_${seen.length}` } }),
    );
  };
}

const failedConnection = (): LongConnection => {
  const s: LongConnectionStatus = {
    state: "failed",
    since: 0,
    lastFrameAt: null,
    lastEventAt: null,
    lastPingAt: null,
    connects: 0,
    reconnects: 0,
    lastError: "Feishu refused the app credentials (code 514)",
    endpointHost: null,
    proxy: null,
    nextRetryAt: null,
  };
  return {
    alias: "main",
    status: () => ({ ...s }),
    close: () => Promise.resolve(),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
};

async function setup(routes: Routes, options: { account?: string } = {}) {
  const dir = await Deno.makeTempDir({ prefix: "canary-checks-" });
  const configPath = join(dir, "config.json");
  await Deno.writeTextFile(
    configPath,
    JSON.stringify({
      accounts: [{
        alias: "main",
        app_id: APP_ID,
        app_secret: SECRET,
        domain: "http://feishu.test",
      }],
    }),
  );
  const seen: string[] = [];
  const secrets: string[] = [];
  const sent: string[] = [];
  let connects = 0;
  const deps: CanaryDeps = {
    fetch: fakeFetch(routes, seen),
    clock: systemClock,
    log: createLogger({ sink: () => {} }),
    newNonce: () => "nonce-1",
    progress: () => {},
    addSecret: (s) => void secrets.push(s),
    createApi: () =>
      ({
        createMessage: (req: { msgType: string }) => {
          sent.push(req.msgType);
          return Promise.resolve({ messageId: "om_1" });
        },
      }) as unknown as FeishuApi,
    connect: () => {
      connects++;
      return failedConnection();
    },
  };
  const request: CanaryRequest = {
    configPath,
    account: options.account ?? null,
    to: "ou_tester",
    timeoutSeconds: 1,
    workdir: dir,
    lingtai: false,
  };
  return { deps, request, seen, secrets, sent, connects: () => connects, dir };
}

const TOKEN_OK = { code: 0, msg: "ok", tenant_access_token: "t-unit0token0value", expire: 7200 };
const BOT_OK = { code: 0, msg: "ok", bot: { open_id: "ou_bot", app_name: "Bot" } };
const scopesWithout = (missing: string) => ({
  code: 0,
  data: {
    scopes: [
      "im:message",
      "im:message:send_as_bot",
      "im:message.p2p_msg:readonly",
      "im:message.group_at_msg:readonly",
      "im:resource",
      "im:message.reactions:write_only",
      "im:message.reactions:read",
      "contact:user.base:readonly",
      "im:chat:readonly",
    ].map((s) => ({ scope_name: s, grant_status: s === missing ? 2 : 1 })),
  },
});

Deno.test("runChecks() skips every check after a refused token, naming the fix", async () => {
  const t = await setup({
    "/open-apis/auth/v3/tenant_access_token/internal": { code: 10014, msg: "app secret invalid" },
  });
  const results = await runChecks(t.request, t.deps);
  assert.deepEqual(results.map((r) => r.name), [...CHECK_NAMES]);
  assert.deepEqual(results.map((r) => r.status), [
    "pass",
    "fail",
    "skip",
    "skip",
    "skip",
    "skip",
    "skip",
  ]);
  assert.match(results[1]!.fix ?? "", /app_secret is wrong/);
  assert.deepEqual(results[1]!.evidence, { http_status: 200, code: 10014, log_id: "log_1" });
  assert.match(results[6]!.detail, /skipped: long_connection did not pass/);
  assert.equal(t.connects(), 0);
  assert.ok(t.secrets.includes(SECRET));
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("runChecks() fails the config check for an unknown --account, naming the aliases", async () => {
  const t = await setup({}, { account: "other" });
  const results = await runChecks(t.request, t.deps);
  assert.equal(results[0]!.status, "fail");
  assert.match(results[0]!.detail, /no account 'other' \(accounts: main\)/);
  assert.deepEqual(t.seen, []);
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("runChecks() goes on after a missing scope; a refused long connection skips only the card", async () => {
  const t = await setup({
    "/open-apis/auth/v3/tenant_access_token/internal": TOKEN_OK,
    "/open-apis/bot/v3/info": BOT_OK,
    "/open-apis/application/v6/scopes": scopesWithout("im:message:send_as_bot"),
  });
  const results = await runChecks(t.request, t.deps);
  const by = Object.fromEntries(results.map((r) => [r.name, r]));
  assert.equal(by.scopes!.status, "fail");
  assert.match(by.scopes!.detail, /missing required: im:message:send_as_bot \(not granted\)/);
  assert.match(
    by.scopes!.fix ?? "",
    /http:\/\/feishu\.test\/app\/cli_a1b2c3d4e5f6a7b8\/auth\?q=im:message:send_as_bot/,
  );
  assert.equal(by.long_connection!.status, "fail");
  assert.match(by.long_connection!.detail, /514/);
  assert.equal(by.dm!.status, "pass");
  assert.equal(by.card_callback!.status, "skip");
  assert.deepEqual(t.sent, ["text"]);
  assert.ok(t.secrets.includes(TOKEN_OK.tenant_access_token));
  await Deno.remove(t.dir, { recursive: true });
});

Deno.test("runChecks() passes the scopes check with a note when only an optional scope is missing", async () => {
  const t = await setup({
    "/open-apis/auth/v3/tenant_access_token/internal": TOKEN_OK,
    "/open-apis/bot/v3/info": BOT_OK,
    "/open-apis/application/v6/scopes": scopesWithout("contact:user.base:readonly"),
  });
  const scopes = (await runChecks(t.request, t.deps)).find((r) => r.name === "scopes")!;
  assert.equal(scopes.status, "pass");
  assert.match(scopes.detail, /optional missing: contact:user\.base:readonly \(not granted\)/);
  assert.match(scopes.fix ?? "", /^optional: grant contact:user\.base:readonly/);
  await Deno.remove(t.dir, { recursive: true });
});
