import assert from "node:assert/strict";
import { sdkClient } from "../testdata/sdk_harness.ts";
import { createEmulator } from "../emulator.ts";
import { DEFAULT_SCOPES } from "../fixtures.ts";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";

const D = DEFAULT_IDS;

async function tokenOf(emu: { handle(r: Request): Promise<Response> }): Promise<string> {
  const res = await emu.handle(
    new Request("http://emu/open-apis/auth/v3/tenant_access_token/internal", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ app_id: D.appId, app_secret: D.appSecret }),
    }),
  );
  return (await res.json()).tenant_access_token;
}

async function scopes(
  emu: { handle(r: Request): Promise<Response> },
): Promise<Record<string, number>> {
  const res = await emu.handle(
    new Request("http://emu/open-apis/application/v6/scopes", {
      headers: { authorization: `Bearer ${await tokenOf(emu)}` },
    }),
  );
  const body = await res.json() as {
    code: number;
    data: { scopes: { scope_name: string; grant_status: number }[] };
  };
  assert.equal(body.code, 0);
  return Object.fromEntries(body.data.scopes.map((s) => [s.scope_name, s.grant_status]));
}

Deno.test("application/v6/scopes lists every default scope as granted, read by the node-sdk", async () => {
  await using emu = await startEmulator();
  const res = await sdkClient(emu).application.v6.scope.list();
  assert.equal(res.code, 0);
  assert.deepEqual(res.data?.scopes?.map((s) => s.scope_name), [...DEFAULT_SCOPES]);
  assert.ok(res.data?.scopes?.every((s) => s.grant_status === 1 && s.scope_type === "tenant"));
});

Deno.test("faults.setScopes() lists withheld scopes as not granted and leaves omitted ones out", async () => {
  await using emu = createEmulator();
  emu.faults.setScopes({
    withhold: ["im:message.p2p_msg:readonly", "im:extra"],
    omit: ["im:chat:readonly"],
  });
  const listed = await scopes(emu);
  assert.equal(listed["im:message.p2p_msg:readonly"], 2);
  assert.equal(listed["im:extra"], 2);
  assert.equal(listed["im:message"], 1);
  assert.equal("im:chat:readonly" in listed, false);
  emu.faults.setScopes({});
  const again = await scopes(emu);
  assert.deepEqual(Object.keys(again), [...DEFAULT_SCOPES]);
  assert.ok(Object.values(again).every((g) => g === 1));
});

Deno.test("application/v6/scopes needs a tenant token", async () => {
  await using emu = createEmulator();
  const res = await emu.handle(new Request("http://emu/open-apis/application/v6/scopes"));
  assert.equal((await res.json()).code, 99991661);
});

Deno.test("every Open API answer carries an x-tt-logid header, successes included", async () => {
  await using emu = createEmulator();
  const good = await emu.handle(
    new Request("http://emu/open-apis/bot/v3/info", {
      headers: { authorization: `Bearer ${await tokenOf(emu)}` },
    }),
  );
  await good.body?.cancel();
  const bad = await emu.handle(new Request("http://emu/open-apis/bot/v3/info"));
  await bad.body?.cancel();
  const a = good.headers.get("x-tt-logid");
  const b = bad.headers.get("x-tt-logid");
  assert.match(a ?? "", /^log_emu_/);
  assert.match(b ?? "", /^log_emu_/);
  assert.notEqual(a, b);
});
