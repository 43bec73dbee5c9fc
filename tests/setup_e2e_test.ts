/**
 * End to end: `main.ts setup` as a subprocess, the real node-sdk
 * `registerApp` against the emulator's accounts endpoint over 127.0.0.1 TLS
 * (the test CA trusted through the environment). A person "scans" through
 * the emulator's control plane: approve writes a config (0600, atomic, the
 * approver as owner, pairing access) that a real server then connects with;
 * deny, expiry and Ctrl-C leave no file at all; `--account` adds an app to
 * an existing config and refuses what would overwrite.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { testTls, trustTestCa } from "../lib/emulator/testdata/tls.ts";
import { parseConfig } from "../lib/config/mod.ts";
import { BUNDLED, ENTRY, REPO, startServer } from "./_server.ts";

interface SetupRun {
  /** Resolves with the exit code and everything printed. */
  done: Promise<{ code: number; stdout: string; stderr: string }>;
  kill(signal: Deno.Signal): void;
}

function runSetup(args: string[]): SetupRun {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-net",
      "--allow-env",
      // As `deno task setup`: Deno's node:tls needs `sys` to read NODE_EXTRA_CA_CERTS.
      "--allow-sys",
      ...(BUNDLED ? ["--no-config"] : []),
      ENTRY,
      "setup",
      ...args,
    ],
    cwd: REPO,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      ...trustTestCa(),
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const text = (s: ReadableStream<Uint8Array>) => new Response(s).text();
  const done = Promise.all([child.status, text(child.stdout), text(child.stderr)])
    .then(([status, stdout, stderr]) => ({ code: status.code, stdout, stderr }));
  return { done, kill: (signal) => child.kill(signal) };
}

/** Emulator with the TLS listener; polls answered back to back. */
function emulator(): Promise<Emulator> {
  return startEmulator({ tls: testTls(), registration: { intervalSeconds: 0.02 } });
}

/** Waits until setup has opened a registration (its QR code is up). */
function pending(emu: Emulator) {
  return emu.waitFor(() => emu.registrations.all.find((r) => r.status === "pending"), {
    description: "a pending registration",
    timeoutMs: 30_000,
  });
}

async function control(emu: Emulator, verb: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${emu.url}/__emu/api/registrations/${verb}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json as Record<string, unknown>;
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

const OPTIONS = { workdir: "/w", lingtai: false };

Deno.test("setup: an approved scan writes a 0600 config a real server connects with", async () => {
  await using emu = await emulator();
  const dir = await Deno.makeTempDir({ prefix: "feishu-setup-" });
  const path = join(dir, "feishu.json");
  const run = runSetup(["--config", path, "--domain", emu.tlsUrl!, "--workdir", dir]);
  const reg = await pending(emu);
  // Bob scans: the owner is whoever approved, not the page's default user.
  const approved = await control(emu, "approve", { user_id: DEFAULT_IDS.bob.openId });
  assert.equal(approved.user_code, reg.userCode);
  const { code, stdout, stderr } = await run.done;
  assert.equal(code, 0, stderr);

  const app = emu.world.apps.get(String(approved.app_id))!;
  assert.match(app.appId, /^cli_[0-9a-f]{16}$/);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.deepEqual(await listDir(dir), ["feishu.json"], "no temp file left");
  const text = await Deno.readTextFile(path);
  assert.ok(parseConfig(text, OPTIONS).ok);
  assert.deepEqual(JSON.parse(text), {
    accounts: [{
      alias: "main",
      app_id: app.appId,
      app_secret: app.appSecret,
      domain: emu.tlsUrl,
      owners: [DEFAULT_IDS.bob.openId],
      access: { dm: "pairing", outbound: "admitted", bots: "mention" },
    }],
  });

  // What it printed: the link, the check, the manual steps, the entry; never the secret.
  assert.ok(!stdout.includes(app.appSecret) && !stderr.includes(app.appSecret));
  assert.ok(stdout.includes(`${emu.tlsUrl}/?register=${reg.userCode}`), stdout);
  assert.match(stdout, /Checked: Feishu issues a tenant token, and the bot EmuAgent \d+ \(ou_/);
  for (
    const word of [
      "im.message.receive_v1",
      "im.message.reaction.created_v1",
      "card.action.trigger",
      `${emu.tlsUrl}/app/${app.appId}/auth?q=im:message`,
      "Publish a version",
      '"mcpServers"',
      path,
    ]
  ) assert.ok(stdout.includes(word), `stdout lacks ${word}`);
  // The token and bot checks reached the emulator with the new app's credentials.
  assert.ok(emu.requests({ path: "/open-apis/bot/v3/info" }).length >= 1);

  // The written config starts a server whose long connection comes up.
  const server = await startServer({
    workdir: dir,
    args: ["--config", path],
    env: trustTestCa(),
  });
  try {
    await emu.ws.whenReady({ app: app.appId });
    const accounts = await server.call("accounts", {});
    assert.ok(JSON.stringify(accounts).includes(app.appId), JSON.stringify(accounts));
  } finally {
    await server.close();
  }
});

for (
  const c of [
    {
      name: "a denied scan",
      verb: "deny",
      code: 1,
      says: /denied the registration; nothing was written/,
    },
    { name: "an expired code", verb: "expire", code: 1, says: /expired .*; nothing was written/ },
  ]
) {
  Deno.test(`setup: ${c.name} leaves no file and exits non-zero`, async () => {
    await using emu = await emulator();
    const dir = await Deno.makeTempDir({ prefix: "feishu-setup-" });
    const run = runSetup(["--config", join(dir, "f.json"), "--domain", emu.tlsUrl!]);
    await pending(emu);
    await control(emu, c.verb);
    const { code, stderr } = await run.done;
    assert.equal(code, c.code);
    assert.match(stderr, c.says);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
    assert.deepEqual(await listDir(dir), []);
  });
}

Deno.test("setup: Ctrl-C while waiting exits at once and leaves no file", async () => {
  await using emu = await emulator();
  const dir = await Deno.makeTempDir({ prefix: "feishu-setup-" });
  const run = runSetup(["--config", join(dir, "f.json"), "--domain", emu.tlsUrl!]);
  await pending(emu);
  run.kill("SIGINT");
  const { code, stderr } = await run.done;
  assert.equal(code, 130);
  assert.match(stderr, /cancelled; nothing was written/);
  assert.deepEqual(await listDir(dir), []);
  assert.equal(emu.registrations.all[0]!.status, "pending", "nobody approved anything");
});

Deno.test("setup --account adds an app to an existing config and refuses to overwrite", async () => {
  await using emu = await emulator();
  const dir = await Deno.makeTempDir({ prefix: "feishu-setup-" });
  const path = join(dir, "feishu.json");
  const first = {
    accounts: [{
      alias: "main",
      app_id: DEFAULT_IDS.appId,
      app_secret: DEFAULT_IDS.appSecret,
      domain: emu.url,
    }],
    notify: { licc: false },
  };
  const before = JSON.stringify(first, null, 2);
  await Deno.writeTextFile(path, before);

  // Without --account, and with an alias already there: refused before any registration.
  for (const extra of [[], ["--account", "main"]]) {
    const { code, stderr } = await runSetup(["--config", path, "--domain", emu.tlsUrl!, ...extra])
      .done;
    assert.equal(code, 2, stderr);
    assert.match(stderr, extra.length ? /already has an account 'main'/ : /--account ALIAS/);
  }
  assert.equal(await Deno.readTextFile(path), before);
  assert.equal(emu.registrations.all.length, 0);

  const run = runSetup(["--config", path, "--domain", emu.tlsUrl!, "--account", "second"]);
  await pending(emu);
  const approved = await control(emu, "approve", {}); // Alice, the page's default user
  const { code, stderr } = await run.done;
  assert.equal(code, 0, stderr);
  const after = JSON.parse(await Deno.readTextFile(path));
  assert.deepEqual(after.notify, first.notify, "other keys kept");
  assert.deepEqual(after.accounts[0], first.accounts[0], "the first account kept");
  assert.equal(after.accounts[1].alias, "second");
  assert.equal(after.accounts[1].app_id, approved.app_id);
  assert.deepEqual(after.accounts[1].owners, [DEFAULT_IDS.alice.openId]);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.deepEqual(await listDir(dir), ["feishu.json"]);
});
