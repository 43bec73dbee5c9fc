/**
 * End to end, `doctor`: run as an operator runs it (`deno task doctor`'s
 * command line) beside the real server, which holds the workdir lock, and
 * after it stopped. It reads the connection from the server's health
 * snapshot, the queue from the journal figures the server persists, pending
 * Typing reactions and the month's API calls;
 * it reports dead letters with their reasons; it exits 0 when healthy, 1
 * when something needs attention and 2 on a usage error; it writes no file
 * in a stopped workdir; and no output of it, text or JSON, holds the app
 * secret or a tenant token the emulator issued.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { createLogger, systemClock } from "../lib/core/mod.ts";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { journalPath, openJournal } from "../lib/journal/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";
import { BUNDLED, ENTRY, REPO } from "./_server.ts";

type Rec = Record<string, unknown>;

/** Every doctor output of this file, for the secret scan. */
const outputs: string[] = [];

async function doctor(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string; json: Rec | null }> {
  const out = await new Deno.Command(Deno.execPath(), {
    // The `doctor` task's permissions: read and env, nothing else.
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      ...(BUNDLED ? ["--no-config"] : []),
      ENTRY,
      "doctor",
      ...args,
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  outputs.push(stdout, stderr);
  let json: Rec | null = null;
  if (args.includes("--json")) json = JSON.parse(stdout);
  return { code: out.code, stdout, stderr, json };
}

const flags = (b: Bridge, extra: string[] = []) => [
  "--config",
  join(b.server.workdir, "config.json"),
  "--workdir",
  b.server.workdir,
  ...extra,
];

/** Names and digests of every file below `dir`. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) {
      for (const [k, v] of Object.entries(await tree(p))) out[`${e.name}/${k}`] = v;
      continue;
    }
    const d = await crypto.subtle.digest("SHA-256", await Deno.readFile(p));
    out[e.name] = [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return out;
}

/** Tokens the emulator issued, read from the requests that carried them. */
function issuedTokens(emu: Emulator): string[] {
  const tokens = new Set<string>();
  for (const r of emu.requests()) {
    const m = /Bearer\s+(\S+)/.exec(r.headers.authorization ?? "");
    if (m) tokens.add(m[1]!);
  }
  return [...tokens];
}

Deno.test("doctor beside a running server, after it stopped, with a dead letter, and on a usage error; no output holds a secret or a token", async (t) => {
  await using emu = await startEmulator();
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, { top: { quota: { monthly_calls: 100_000 } } }),
  });
  const workdir = bridge.server.workdir;
  let closed = false;
  try {
    await emu.ws.whenReady();

    await t.step(
      "while the server runs it reads the snapshot, the queue, the Typing and the quota, and exits 0",
      async () => {
        const seen = bridge.channel.items.length;
        const m = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
        await bridge.channel.atLeast(seen + 1);
        await emu.waitFor(() => emu.reactions(m.messageId!).some((r) => r.emojiType === "Typing"));
        const status = await until(async () => {
          const s = await bridge.status();
          const j = s.journal as Rec;
          // One message: two dedupe keys, its event id and its message id.
          return (s.quota as Rec).used === emu.requests().length && j.pending === 0 &&
            j.dedupe_keys === 2 && s;
        }, { what: "the server to settle" });
        // The server persists its journal figures within seconds of a change.
        const r = await until(async () => {
          const out = await doctor(flags(bridge, ["--json"]));
          const journal = out.json!.journal as Rec;
          return journal.pending === 0 && journal.dedupe_keys === 2 && out;
        }, { what: "the server to write its journal figures" });
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const j = r.json!;
        assert.equal(j.healthy, true);
        assert.deepEqual(j.attention, []);
        const conn = (j.connections as Rec[])[0]!;
        assert.equal(conn.account, "main");
        assert.equal(conn.state, "connected");
        assert.equal(typeof conn.snapshot_age_ms, "number");
        assert.equal((j.journal as Rec).pending, 0);
        assert.equal((j.journal as Rec).dead_letter_count, 0);
        assert.equal((j.journal as Rec).read_mode, "wal_reader");
        assert.equal(typeof (j.journal as Rec).snapshot_age_ms, "number");
        assert.equal((j.journal as Rec).dedupe_keys, (status.journal as Rec).dedupe_keys);
        assert.deepEqual(j.typing_pending, { total: 1, by_account: { main: 1 } });
        assert.equal((status.accounts as Rec[])[0]!.typing_pending, 1);
        const q = j.quota as Rec;
        assert.equal(q.used, emu.requests().length);
        assert.equal(q.monthly_calls, 100_000);
        assert.equal(q.warning, null);
        assert.deepEqual(q.by_category, (status.quota as Rec).by_category);
        const config = j.config as Rec;
        assert.equal(config.valid, true);
        assert.equal((config.accounts as Rec[])[0]!.app_id, D.appId);
        const text = await doctor(flags(bridge));
        assert.equal(text.code, 0);
        assert.match(text.stdout, /^Healthy\.$/m);
        assert.match(text.stdout, /- main: connected since /);
        assert.match(text.stdout, /Typing reactions pending: 1/);
        assert.match(text.stdout, new RegExp(`used: ${emu.requests().length} of 100000`));
      },
    );

    await t.step(
      "after the server stopped it says the connection is closed, exits 1 and writes no file",
      async () => {
        await bridge.close();
        closed = true;
        const before = await tree(workdir);
        const r = await doctor(flags(bridge, ["--json"]));
        assert.equal(r.code, 1);
        const j = r.json!;
        assert.equal((j.connections as Rec[])[0]!.state, "closed");
        assert.deepEqual(j.attention, ["account main: connection closed in the last snapshot"]);
        assert.equal((j.journal as Rec).read_mode, "snapshot");
        assert.deepEqual(
          j.typing_pending,
          { total: 0, by_account: {} },
          "shutdown took Typing away",
        );
        assert.equal((j.quota as Rec).used, emu.requests().length);
        await doctor(flags(bridge));
        assert.deepEqual(await tree(workdir), before, "doctor changed the workdir");
      },
    );

    await t.step("a quota past 80 % of the config doctor reads needs attention", async () => {
      const config = join(workdir, "tight.json");
      await Deno.writeTextFile(
        config,
        JSON.stringify(
          bridgeConfig(emu.url, { top: { quota: { monthly_calls: emu.requests().length } } }),
        ),
      );
      const r = await doctor(["--config", config, "--workdir", workdir, "--json"]);
      assert.equal(r.code, 1);
      assert.equal((r.json!.quota as Rec).saving, true);
      assert.ok((r.json!.attention as string[]).some((a) => /^quota: .*quota is spent/.test(a)));
    });

    await t.step("a dead letter is reported with its reason", async () => {
      const tokens = issuedTokens(emu);
      assert.ok(tokens.length > 0 && tokens.every((x) => x.startsWith("t-")));
      // The journal dead-letters an entry whose handler fails its last attempt.
      const journal = await openJournal({
        path: journalPath(workdir),
        clock: systemClock,
        log: createLogger({ sink: () => {} }),
        maxAttempts: 1,
      });
      journal.start(() => {
        throw new Error(`refused (Bearer ${tokens[0]}, token ${tokens[0]}, secret ${D.appSecret})`);
      });
      await journal.admit({
        account: "main",
        chatKey: D.aliceP2p,
        dedupeKeys: ["doctor-e2e"],
        payload: {},
      });
      await journal.idle();
      await journal.close();
      // Doctor reads what a server wrote: one runs on the workdir again, and stops.
      const again = await startBridge({
        config: bridgeConfig(emu.url, { top: { quota: { monthly_calls: 100_000 } } }),
        workdir,
      });
      await again.close();
      const r = await doctor(flags(bridge, ["--json"]));
      assert.equal(r.code, 1);
      const j = r.json!.journal as Rec;
      assert.equal(j.dead_letter_count, 1);
      const reason = (j.dead_letter_reasons as Rec[])[0]!;
      assert.equal(reason.count, 1);
      assert.match(
        String(reason.error),
        /^Error: refused \(Bearer \[REDACTED\], token t-\[REDACTED\], secret \[REDACTED\]\)$/,
      );
      assert.ok((r.json!.attention as string[]).includes("1 dead letter in the journal"));
      const text = await doctor(flags(bridge));
      assert.match(text.stdout, /dead: 1 × Error: refused/);
    });

    await t.step("usage errors exit 2", async () => {
      assert.equal((await doctor(["--verbose"])).code, 2);
      const serveJson = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--no-prompt",
          "--allow-read",
          "--allow-env",
          ...(BUNDLED ? ["--no-config"] : []),
          ENTRY,
          "serve",
          "--json",
        ],
        stdout: "piped",
        stderr: "piped",
        stdin: "null",
      }).output();
      assert.equal(serveJson.code, 2);
    });

    await t.step(
      "no doctor output holds the app secret or a tenant token the emulator issued",
      () => {
        const tokens = issuedTokens(emu);
        const all = outputs.join("\n");
        assert.ok(outputs.length >= 10);
        assert.ok(!all.includes(D.appSecret), "the app secret was printed");
        for (const token of tokens) assert.ok(!all.includes(token), `token ${token} was printed`);
        assert.doesNotMatch(all, /\bt-(?!\[REDACTED\])[A-Za-z0-9_]/);
      },
    );
  } finally {
    if (!closed) await bridge.close();
  }
});
