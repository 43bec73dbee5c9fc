import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveLaunch } from "../config/mod.ts";
import { planConfig, SetupUsageError, writeAccount } from "./config_file.ts";
import { setupDomain } from "./domain.ts";
import { eventsToSubscribe, scopesToGrant } from "./next_steps.ts";
import { qrLines } from "./qr.ts";

const OPTIONS = { workdir: "/w", lingtai: false };
const ENTRY = {
  alias: "main",
  app_id: "cli_0123456789abcdef",
  app_secret: "s3cret-value",
  domain: "feishu",
  owners: ["ou_owner"],
  access: { dm: "pairing" as const, outbound: "admitted" as const, bots: "mention" as const },
};

Deno.test("setupDomain: the two clouds, an https URL, and nothing else", () => {
  assert.equal(setupDomain("lark").accountsHost, "accounts.larksuite.com");
  assert.equal(setupDomain("feishu").larkAccountsHost, "accounts.larksuite.com");
  assert.equal(setupDomain("https://127.0.0.1:8443/x").configDomain, "https://127.0.0.1:8443");
  assert.throws(() => setupDomain("http://127.0.0.1:8787"), /https URL/);
  assert.throws(() => setupDomain("larksuite"), /feishu, lark or an https URL/);
});

Deno.test("planConfig and writeAccount: new file, refusals, and a refused write keeps the old file", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "f.json");
  assert.deepEqual(await planConfig(path, null, OPTIONS), { path, alias: "main", adding: false });
  const plan = await planConfig(path, null, OPTIONS);
  await writeAccount(plan, ENTRY, OPTIONS);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  const written = await Deno.readTextFile(path);

  await assert.rejects(planConfig(path, null, OPTIONS), SetupUsageError);
  await assert.rejects(planConfig(path, "main", OPTIONS), /already has an account 'main'/);
  // Something the schema refuses is never written: the file stays as it was, no temp file.
  const adding = await planConfig(path, "second", OPTIONS);
  await assert.rejects(
    writeAccount(adding, { ...ENTRY, alias: "second", app_id: "not-an-app-id" }, OPTIONS),
    /not valid/,
  );
  assert.equal(await Deno.readTextFile(path), written);
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["f.json"]);

  await Deno.writeTextFile(path, "{ not json");
  await assert.rejects(planConfig(path, "x", OPTIONS), /not a valid config/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("next steps name the message event first and each scope once; the QR code draws", async () => {
  assert.equal(eventsToSubscribe()[0], "im.message.receive_v1");
  // A first DM is known only from this event: the setup lists it.
  assert.ok(eventsToSubscribe().includes("im.chat.access_event.bot_p2p_chat_entered_v1"));
  for (const e of ["im.message.recalled_v1", "im.chat.disbanded_v1"]) {
    assert.ok(eventsToSubscribe().includes(e), e);
  }
  const scopes = scopesToGrant().map((s) => s.scope);
  assert.equal(new Set(scopes).size, scopes.length);
  assert.ok(scopes.includes("im:message:send_as_bot"));
  const qr = await qrLines("https://accounts.feishu.cn/x?user_code=ABCD");
  assert.ok(qr.split("\n").length > 10 && qr.includes("█"));
});

Deno.test("resolveLaunch: setup takes --domain and --account, other subcommands refuse them", () => {
  const l = resolveLaunch({
    args: ["setup", "--domain", "lark", "--account", "second", "--config", "f.json"],
    env: {},
    cwd: "/caller",
  });
  assert.deepEqual([l.subcommand, l.domain, l.account, l.configPath], [
    "setup",
    "lark",
    "second",
    "/caller/f.json",
  ]);
  assert.throws(
    () => resolveLaunch({ args: ["serve", "--account", "x"], env: {}, cwd: "/" }),
    /--account only with setup/,
  );
});
