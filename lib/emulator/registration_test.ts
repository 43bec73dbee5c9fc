import assert from "node:assert/strict";
import { ManualEmuClock } from "./clock.ts";
import { createEmulator, startEmulator } from "./emulator.ts";
import { DEFAULT_IDS } from "./fixtures.ts";
import { TEST_CA_PATH, testTls } from "./testdata/tls.ts";

const form = (params: Record<string, string>) =>
  new Request("http://x/oauth/v1/app/registration", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });

const control = (path: string, body: unknown = {}) =>
  new Request(`http://x/__emu/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

Deno.test("registration: begin, pending, approve issues a working app once", async () => {
  await using emu = createEmulator({
    registration: { intervalSeconds: 0.5, expiresInSeconds: 60 },
  });
  const begin = await (await emu.handle(form({ action: "begin", archetype: "PersonalAgent" })))
    .json();
  assert.equal(begin.interval, 0.5);
  assert.equal(begin.expires_in, 60);
  assert.equal(begin.verification_uri_complete, `http://x/?register=${begin.user_code}`);
  const poll = () => emu.handle(form({ action: "poll", device_code: begin.device_code }));

  const waiting = await poll();
  assert.equal(waiting.status, 400);
  assert.equal((await waiting.json()).error, "authorization_pending");

  const listed = await (await emu.handle(new Request("http://x/__emu/api/registrations"))).json();
  assert.equal(listed.items[0].status, "pending");
  const approved = await (await emu.handle(control("registrations/approve", {
    code: begin.user_code,
    user_id: DEFAULT_IDS.bob.openId,
  }))).json();
  assert.equal(approved.status, "approved");

  const issued = await (await poll()).json();
  assert.match(issued.client_id, /^cli_[0-9a-f]{16}$/);
  assert.deepEqual(issued.user_info, { open_id: DEFAULT_IDS.bob.openId, tenant_brand: "feishu" });
  // Once only: the device code is spent.
  assert.equal((await (await poll()).json()).error, "expired_token");

  const token = await (await emu.handle(
    new Request("http://x/open-apis/auth/v3/tenant_access_token/internal", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ app_id: issued.client_id, app_secret: issued.client_secret }),
    }),
  )).json();
  assert.equal(token.code, 0);
});

Deno.test("registration: deny, expire by hand and by the clock, unknown code", async () => {
  const clock = new ManualEmuClock();
  await using emu = createEmulator({ clock, registration: { expiresInSeconds: 10 } });
  const begin = async () =>
    (await (await emu.handle(form({ action: "begin" }))).json()).device_code;
  const poll = async (code: string) =>
    (await (await emu.handle(form({ action: "poll", device_code: code }))).json()).error;

  const denied = await begin();
  assert.equal((await emu.handle(control("registrations/deny"))).status, 200);
  assert.equal(await poll(denied), "access_denied");

  const expired = await begin();
  await emu.handle(control("registrations/expire", { code: expired }));
  assert.equal(await poll(expired), "expired_token");

  const timed = await begin();
  clock.advance(10_000);
  assert.equal(await poll(timed), "expired_token");
  assert.equal(emu.registrations.find(timed).status, "expired");

  assert.equal(await poll("dc_nope"), "invalid_grant");
  const late = await emu.handle(control("registrations/approve", { code: timed }));
  assert.equal(late.status, 400, "an expired code cannot be approved");
});

Deno.test("TLS listener: same handler over https, long connection discovered as wss", async () => {
  await using emu = await startEmulator({ tls: testTls() });
  assert.match(emu.tlsUrl!, /^https:\/\/127\.0\.0\.1:\d+$/);
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(TEST_CA_PATH)] });
  try {
    const res = await fetch(`${emu.tlsUrl}/callback/ws/endpoint`, {
      client,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ AppID: DEFAULT_IDS.appId, AppSecret: DEFAULT_IDS.appSecret }),
    });
    const body = await res.json();
    assert.equal(body.code, 0);
    assert.ok(String(body.data.URL).startsWith(`wss://${new URL(emu.tlsUrl!).host}/ws/v2?`));
  } finally {
    client.close();
  }
});
