/**
 * `deno task canary` end to end: the canary's own command line (source or,
 * with `FEISHU_MCP_ENTRY`, the single-file bundle) against the emulator
 * playing a healthy tenant, a tenant that withholds a scope and a tenant
 * without card callback delivery, in both output formats; the test clicks
 * the canary's card as the test user would. Every output is kept and
 * scanned at the end for the app secret and every token the emulators
 * issued.
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig } from "./_inbound.ts";
import { BUNDLED, ENTRY, REPO } from "./_server.ts";

/** The permissions of the `canary` task. */
const PERMISSIONS = ["--no-prompt", "--allow-read", "--allow-net", "--allow-env"];

/** The canary's argv: the task's command line, or the bundle's (`--no-config`). */
function canaryArgv(extra: string[]): string[] {
  return ["run", ...PERMISSIONS, ...(BUNDLED ? ["--no-config"] : []), ENTRY, "canary", ...extra];
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Every output of every run, for the final secret scan. */
const OUTPUTS: string[] = [];
/** Every tenant token and WS ticket prefix the emulators issued. */
const TOKENS: string[] = [];

async function spawnCanary(
  args: string[],
  onSpawned?: (stop: AbortSignal) => Promise<unknown>,
): Promise<Run & { side: unknown }> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
  };
  const child = new Deno.Command(Deno.execPath(), {
    args: canaryArgv(args),
    cwd: REPO,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const exited = new AbortController();
  const side = onSpawned?.(exited.signal);
  const out = await child.output().finally(() => exited.abort());
  const run = {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
  OUTPUTS.push(run.stdout, run.stderr);
  return { ...run, side: await side };
}

/** The canary's card in Alice's DM, clicked as Alice would; the click's result. */
async function clickCanaryCard(emu: Emulator, stop: AbortSignal) {
  const card = await emu.waitForMessage(
    (m) => m.chatId === D.aliceP2p && m.sender.type === "app" && m.msgType === "interactive",
    { signal: stop, timeoutMs: 600_000, description: "the canary's card" },
  ).catch(() => null);
  if (!card) return null;
  const nonce = JSON.stringify(JSON.parse(card.content)).match(/"feishu_mcp_canary":"([^"]+)"/);
  assert.ok(nonce, "the card carries the canary's button value");
  return await emu.clickCard({
    user: D.alice.openId,
    messageId: card.messageId,
    tag: "button",
    value: { feishu_mcp_canary: nonce[1] },
  }).result;
}

type Statuses = Record<string, string>;

/** The check statuses of either format. */
function statusesOf(stdout: string, json: boolean): Statuses {
  if (json) {
    const report = JSON.parse(stdout) as { checks: { name: string; status: string }[] };
    return Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
  }
  const rows = stdout.split("\n").map((l) => /^([a-z_]+)\s+(pass|FAIL|skip)\s/.exec(l))
    .filter((m) => m !== null);
  return Object.fromEntries(rows.map((m) => [m[1]!, m[2]!.toLowerCase()]));
}

const NAMES = [
  "config",
  "tenant_token",
  "bot_identity",
  "scopes",
  "long_connection",
  "dm",
  "card_callback",
];
const allPass = (except: Statuses = {}) =>
  Object.fromEntries(NAMES.map((n) => [n, except[n] ?? "pass"]));

async function scenario(
  options: { json: boolean; setup?: (emu: Emulator) => void; timeout?: number },
) {
  await using emu = await startEmulator();
  options.setup?.(emu);
  const dir = await Deno.makeTempDir({ prefix: "feishu-mcp-canary-" });
  const config = join(dir, "config.json");
  await Deno.writeTextFile(config, JSON.stringify(bridgeConfig(emu.url)));
  const run = await spawnCanary(
    [
      "--config",
      config,
      "--to",
      D.alice.openId,
      ...(options.timeout ? ["--timeout", String(options.timeout)] : []),
      ...(options.json ? ["--json"] : []),
    ],
    (stop) => clickCanaryCard(emu, stop),
  );
  TOKENS.push(...emu.world.tokens.keys());
  await Deno.remove(dir, { recursive: true });
  return { ...run, click: run.side as Awaited<ReturnType<typeof clickCanaryCard>>, url: emu.url };
}

for (const json of [false, true]) {
  const format = json ? "--json" : "table";
  Deno.test(`canary (${format}) passes every check on a healthy tenant once the test user clicks`, async () => {
    const run = await scenario({ json });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(statusesOf(run.stdout, json), allPass());
    assert.deepEqual(run.click?.toast, { type: "success", content: "Canary: callback received" });
    if (json) {
      const report = JSON.parse(run.stdout);
      assert.equal(report.ok, true);
      const card = report.checks.find((c: { name: string }) => c.name === "card_callback");
      assert.equal(card.evidence.clicked_by_test_user, true);
      const token = report.checks.find((c: { name: string }) => c.name === "tenant_token");
      assert.match(token.evidence.log_id, /^log_emu_/);
    } else {
      assert.match(run.stdout, /^feishu-mcp canary: PASS \(7 passed, 0 failed, 0 skipped\)/);
    }
    assert.match(run.stderr, /\[7\/7\] card_callback: pass/);
  });

  Deno.test(`canary (${format}) fails the scopes check naming a withheld scope and its console link`, async () => {
    const scope = "im:message.p2p_msg:readonly";
    const run = await scenario({
      json,
      setup: (emu) => emu.faults.setScopes({ withhold: [scope] }),
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    // A missing scope does not stop the live checks: they ran, and the click came back.
    assert.deepEqual(statusesOf(run.stdout, json), allPass({ scopes: "fail" }));
    const link = `${run.url}/app/${D.appId}/auth?q=${scope}`;
    if (json) {
      const scopes = JSON.parse(run.stdout).checks.find((c: { name: string }) =>
        c.name === "scopes"
      );
      assert.match(scopes.detail, /missing required: im:message\.p2p_msg:readonly \(not granted\)/);
      assert.ok(scopes.fix.includes(link), scopes.fix);
    } else {
      assert.ok(run.stdout.includes(link), run.stdout);
    }
  });

  Deno.test(`canary (${format}) fails the card check with the 200340 explanation when callbacks are not delivered`, async () => {
    const run = await scenario({
      json,
      timeout: 3,
      setup: (emu) => emu.faults.setCardCallback("none"),
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.click?.errorCode, 200340);
    assert.deepEqual(statusesOf(run.stdout, json), allPass({ card_callback: "fail" }));
    const text = json
      ? JSON.stringify(
        JSON.parse(run.stdout).checks.find((c: { name: string }) => c.name === "card_callback"),
      )
      : run.stdout;
    assert.match(text, /200340/);
    assert.match(text, /card\.action\.trigger/);
    assert.match(text, /publish a version/);
  });
}

Deno.test("canary exits 2 with one line on a usage error", async () => {
  const cases = [
    ["--to", D.alice.openId],
    ["--config", "/nowhere.json"],
    ["--config", "/nowhere.json", "--to", D.alice.openId, "--bogus"],
    ["--config", "/nowhere.json", "--to", D.alice.openId, "--timeout", "soon"],
    ["--config", "/nowhere.json", "--to", D.alice.openId, "--timeout", "0"],
  ];
  for (const args of cases) {
    const run = await spawnCanary(args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.equal(run.stdout, "");
    const lines = run.stderr.split("\n").filter((l) => l !== "");
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /^feishu-mcp canary: Expected|^feishu-mcp canary: Unknown option/);
  }
});

Deno.test("the canary task runs the command line these tests spawn", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).tasks;
  assert.equal(tasks.canary, `deno run ${PERMISSIONS.join(" ")} main.ts canary`);
});

Deno.test("no canary output, in either format or scenario, shows the app secret or a token", () => {
  // Six scenario runs and the usage errors, each with stdout and stderr.
  assert.ok(OUTPUTS.length >= 2 * 6, `only ${OUTPUTS.length} outputs were collected`);
  assert.ok(TOKENS.length >= 6, `only ${TOKENS.length} tokens were issued`);
  for (const text of OUTPUTS) {
    assert.ok(!text.includes(D.appSecret), "the app secret was printed");
    for (const token of TOKENS) assert.ok(!text.includes(token), `token ${token} was printed`);
    assert.doesNotMatch(text, /\bt-emu_\d+/);
    assert.doesNotMatch(text, /tk_emu_|access_key=(?!\[REDACTED\])/);
  }
});
