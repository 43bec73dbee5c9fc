/**
 * The sandbox as a person runs it again and again, and its command line:
 * - three runs on one workdir each answer a DM like the first: the page still
 *   shows the earlier runs, every new id is new, the bridge's `read` maps each
 *   id to its own run's text, and Ctrl-C stops everything within 2 s;
 * - every subcommand (and `compile`) answers `--help` and `-h` with its options
 *   and exit 0, with no permission at all (so it starts nothing, reads nothing);
 * - a busy `--port` is an error naming the port.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D } from "../lib/emulator/mod.ts";
import { REPO, startServer } from "./_server.ts";
import { processesNaming, sandboxArgs, startSandbox } from "./_sandbox.ts";

interface PageMessage {
  message_id: string;
  parent_id?: string | null;
  sender: { type: string };
  content: Record<string, unknown>;
}

async function pageMessages(url: string): Promise<PageMessage[]> {
  const res = await fetch(`${url}/__emu/api/chats/${D.aliceP2p}/messages`);
  return (await res.json()).items as PageMessage[];
}

/** Polls the page (the sandbox's own log shows nothing finer) until `pick` finds something. */
async function waitFor<T>(url: string, pick: (ms: PageMessage[]) => T | undefined): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const found = pick(await pageMessages(url));
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the awaited message never appeared");
}

Deno.test("three sandbox runs on one workdir each answer a DM with new messages, keep the earlier ones, and stop within 2 s", async () => {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-sandbox-runs-" });
  const runs: { dm: string; answer: string; text: string }[] = [];
  const seen = new Set<string>();
  const events = new Set<string>();
  try {
    for (let run = 1; run <= 3; run++) {
      const sandbox = await startSandbox(sandboxArgs(join(REPO, "main.ts"), workdir), {
        cwd: REPO,
      });
      try {
        const before = await pageMessages(sandbox.url);
        for (const earlier of runs) {
          assert.ok(
            before.some((m) => m.message_id === earlier.dm) &&
              before.some((m) => m.message_id === earlier.answer),
            `run ${run}: the page still shows ${earlier.text} and its answer`,
          );
        }
        for (const m of before) seen.add(m.message_id);

        const text = `hello from run ${run}`;
        const res = await fetch(`${sandbox.url}/__emu/api/send`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ user_id: D.alice.openId, chat_id: D.aliceP2p, text }),
        });
        const { message_id: dm, event_id: event } = await res.json();
        assert.ok(!seen.has(dm), `run ${run}: the DM got ${dm}, an id an earlier message has`);
        assert.ok(!events.has(event), `run ${run}: the event got ${event}, an earlier event's id`);
        events.add(event);
        const answer = await waitFor(
          sandbox.url,
          (ms) => ms.find((m) => m.sender.type === "app" && m.parent_id === dm),
        );
        assert.ok(!seen.has(answer.message_id), `run ${run}: the answer reuses an old id`);
        assert.match(JSON.stringify(answer.content), new RegExp(`You said:\\*\\* ${text}`));
        runs.push({ dm, answer: answer.message_id, text });
        seen.add(dm).add(answer.message_id);

        // Ctrl-C: the sandbox, the bridge and its confined server are gone within 2 s
        // (`stop` also waits for everyone holding the sandbox's stderr).
        const asked = performance.now();
        assert.equal(await sandbox.stop("SIGINT", 5000), true, sandbox.log());
        const took = performance.now() - asked;
        assert.ok(took < 2000, `run ${run}: the stop took ${Math.round(took)} ms`);
        assert.deepEqual(await processesNaming(workdir), [], `run ${run}: processes left`);
        assert.doesNotMatch(sandbox.log(), / ERROR /);
        assert.doesNotMatch(sandbox.log(), / WARN /);
      } finally {
        await sandbox.stop("SIGKILL");
      }
    }

    // The bridge's own history: each run's DM and answer, once each, under its own id and text.
    const bridge = await startServer({
      workdir,
      args: ["--config", join(workdir, "sandbox-config.json")],
    });
    try {
      const read = await bridge.call("read", { chat_id: D.aliceP2p, limit: null });
      assert.equal(read.status, "ok", JSON.stringify(read));
      const records = read.messages as { id: string; text: string }[];
      for (const { dm, answer, text } of runs) {
        const dms = records.filter((r) => r.id.endsWith(`:${dm}`));
        assert.deepEqual(dms.map((r) => r.text), [text], `the bridge's record of ${dm}`);
        const answers = records.filter((r) => r.id.endsWith(`:${answer}`));
        assert.equal(answers.length, 1, `the bridge's record of ${answer}`);
        assert.match(answers[0]!.text, new RegExp(text));
      }
    } finally {
      await bridge.close();
    }
  } finally {
    await Deno.remove(workdir, { recursive: true });
  }
});

/** Runs `deno run --no-prompt <entry> <args>` with no permission granted. */
async function bare(entry: string, args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", entry, ...args],
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000), // a help that started something fails instead of hanging
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("--help and -h of every subcommand print its options and exit 0, with no permission granted", async () => {
  const main = join(REPO, "main.ts");
  const cases: [string[], RegExp[]][] = [
    [["--help"], [/serve/, /sandbox/, /setup/, /canary/, /doctor/, /compile/]],
    [["serve", "--help"], [/--config F/, /--workdir D/, /--name N/]],
    [["sandbox", "--help"], [/--port N/, /--workdir D/, /FEISHU_SANDBOX_NO_AGENT/]],
    [["setup", "--help"], [/--config F/, /--domain feishu\|lark\|URL/, /--account ALIAS/, /0600/]],
    [["canary", "--help"], [/--config F/, /--to OPEN_ID/, /--timeout S/, /--json/]],
    [["doctor", "--help"], [/--config F/, /--workdir D/, /--json/]],
    [["compile", "--help"], [/--out FILE/, /--binary FILE/]],
  ];
  for (const [args, options] of cases) {
    for (const flag of ["--help", "-h"]) {
      const argv = args.map((a) => a === "--help" ? flag : a);
      const out = await bare(main, argv);
      assert.equal(out.code, 0, `${argv.join(" ")}: ${out.stderr}`);
      assert.equal(out.stderr, "", argv.join(" "));
      for (const option of options) assert.match(out.stdout, option, argv.join(" "));
    }
  }
  // `deno task compile` runs the build script, not main.ts.
  const compile = await bare(join(REPO, "lib", "bundle", "build.ts"), ["--compile", "--help"]);
  assert.equal(compile.code, 0, compile.stderr);
  assert.match(compile.stdout, /--binary FILE/);
});

Deno.test("a busy --port is an error naming it, and nothing starts", async () => {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-sandbox-port-" });
  const busy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (busy.addr as Deno.NetAddr).port;
  try {
    const args = sandboxArgs(join(REPO, "main.ts"), workdir);
    args[args.indexOf("--port") + 1] = String(port);
    const out = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: REPO,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(30_000), // a sandbox that started anyway is stopped (exit 0)
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.notEqual(out.code, 0);
    assert.match(stderr, new RegExp(`Port ${port} is already in use`));
    assert.doesNotMatch(stderr, /web chat|Demo agent/);
    assert.deepEqual(await processesNaming(workdir), []);
  } finally {
    busy.close();
    await Deno.remove(workdir, { recursive: true });
  }
});
