/**
 * The single-file artifact: the bundle is built into a temporary folder (as
 * `deno task bundle` builds it) and run the way an agent runtime runs it — a
 * bare `deno run` from an empty working directory, with an empty `DENO_DIR`,
 * so no `deno.json`, `node_modules` or npm cache can help. Covers what only
 * the bundle can break: embedded assets, the workers started from the bundle
 * itself (search, Opus decoding, markdown planning), and the launcher re-executing the bundle
 * confined (KV without a config file).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { MANUAL } from "../lib/actions/mod.ts";
import { buildBundle } from "../lib/bundle/build.ts";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { defaultEra, eraClient, StdioClientTransport } from "./_mcp_client.ts";
import { REPO } from "./_server.ts";
import { sandboxArgs, startSandbox } from "./_sandbox.ts";

const temps: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of temps) Deno.removeSync(dir, { recursive: true });
});

/** A fresh temporary folder, removed when the test file ends. */
async function tempDir(prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `feishu-mcp-${prefix}-` });
  temps.push(dir);
  return dir;
}

let built: Promise<string> | null = null;

/** Builds the bundle once for this file; later callers share the result. */
function bundle(): Promise<string> {
  built ??= (async () => {
    const outFile = join(await tempDir("bundle"), "feishu-mcp.js");
    return (await buildBundle({ outFile })).path;
  })();
  return built;
}

/** The environment of a process that owns nothing but the bundle. */
async function bareEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DENO_DIR: await tempDir("deno-dir"),
    NO_COLOR: "1",
    ...extra,
  };
}

/** Collects `notifications/claude/channel` pushes and lets the test wait for the n-th. */
class Pushes {
  readonly texts: string[] = [];
  #waiters: { n: number; resolve: () => void }[] = [];

  add(content: string): void {
    this.texts.push(content);
    this.#waiters = this.#waiters.filter((w) => {
      if (this.texts.length < w.n) return true;
      w.resolve();
      return false;
    });
  }

  atLeast(n: number): Promise<void> {
    if (this.texts.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }
}

Deno.test("the bundle serves a whole MCP session from an empty directory: assets, search and voice decoding in workers", async () => {
  const path = await bundle();
  await using emu = await startEmulator();
  const workdir = await tempDir("workdir");
  const cwd = await tempDir("empty-cwd");
  const config = join(workdir, "config.json");
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      accounts: [{ alias: "main", app_id: D.appId, app_secret: D.appSecret, domain: emu.url }],
      transcriber: {
        command: [
          Deno.execPath(),
          "run",
          "--no-prompt",
          "--allow-read",
          join(REPO, "tests", "fixtures", "stub_transcriber.ts"),
          "{wav}",
        ],
      },
    }),
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--no-config",
      path,
      "serve",
      "--workdir",
      workdir,
      "--config",
      config,
    ],
    cwd,
    env: await bareEnv(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Uint8Array) => (stderr += new TextDecoder().decode(d)));
  const client = eraClient("feishu-mcp-bundle-test", defaultEra());
  const pushes = new Pushes();
  client.fallbackNotificationHandler = (n) => {
    if (n.method === "notifications/claude/channel") {
      pushes.add(String((n.params as { content?: unknown }).content));
    }
    return Promise.resolve();
  };
  await client.connect(transport);
  const call = async (action: string, input: Record<string, unknown>) => {
    const res = await client.callTool({
      name: "feishu",
      arguments: { action, input, reasoning: "bundle test" },
    });
    return res.structuredContent as Record<string, unknown>;
  };
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["feishu"]);

    const manual = await call("manual", {});
    assert.equal(manual.status, "ok");
    assert.equal(manual.manual, MANUAL.body);
    const setup = await client.readResource({ uri: "feishu://docs/setup" });
    assert.equal(
      (setup.contents[0] as { text?: string }).text,
      await Deno.readTextFile(join(REPO, "reference", "setup.md")),
    );

    assert.equal((await call("accounts", {})).status, "ok");
    await emu.ws.whenReady();

    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "shipped as one file" });
    await pushes.atLeast(1);
    const found = await call("search", { query: "as ONE file" });
    assert.equal(found.status, "ok", JSON.stringify(found));
    assert.equal(found.total, 1);
    const [match] = found.messages as { text: string }[];
    assert.equal(match?.text, "shipped as one file");

    const voice = await Deno.readFile(join(REPO, "tests", "fixtures", "voice_hello.ogg"));
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      audio: { bytes: voice, duration: 1707 },
    });
    await pushes.atLeast(2);
    const read = await call("read", { chat_id: D.aliceP2p, limit: 1 });
    const [latest] = read.messages as {
      voice_transcript: { text: string } | null;
      attachments: { transcription_status?: string; transcription_error?: string }[];
    }[];
    assert.deepEqual(latest?.attachments.map((a) => a.transcription_error), [undefined]);
    assert.equal(latest?.voice_transcript?.text, "hello from feishu voice");

    // Markdown this long is chunked in the planner worker, started from the bundle too.
    const long = Array.from(
      { length: 60 },
      (_, i) => `## Part ${i}\n\n${"Words in a paragraph. ".repeat(20)}`,
    ).join("\n\n");
    const sent = await call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      content: { type: "markdown", markdown: long },
    });
    assert.equal(sent.status, "sent", JSON.stringify(sent));
    assert.ok(Number(sent.chunk_count) > 1);
    assert.doesNotMatch(stderr, / ERROR /);
  } finally {
    await client.close();
  }
});

Deno.test("the bundle runs the sandbox: the web page and its script come from the bundle, the demo agent reaches the bridge", async () => {
  const path = await bundle();
  const workdir = await tempDir("sandbox");
  const sandbox = await startSandbox(sandboxArgs(path, workdir, ["--no-config"]), {
    cwd: await tempDir("empty-cwd"),
    env: await bareEnv(),
  });
  const url = sandbox.url;
  try {
    const page = await (await fetch(`${url}/`)).text();
    assert.match(page, /<title>Feishu emulator — chat<\/title>/);
    const script = await fetch(`${url}/web/app.js`);
    assert.equal(script.status, 200);
    assert.ok((await script.text()).length > 10_000);
  } finally {
    await sandbox.stop("SIGTERM");
  }
});
