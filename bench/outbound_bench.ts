// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * Outbound costs, each against a baseline measured in the same run:
 * - per-send latency of our path (MCP `tools/call send`, one text chunk,
 *   through the real server over stdio to the emulator, sent record written)
 *   vs a direct node-sdk `Client` create call to the same emulator. Sends are
 *   spaced (40/s over 10 chats) so the pacing scheduler never has to wait:
 *   this measures overhead, not the 5-per-second chat limit. Two more lines
 *   split the difference: the `send` action in-process (everything but the
 *   MCP hop) vs the same account's `createMessage`, and the MCP floor (a bare
 *   MCP SDK server's echo round trip over stdio);
 * - chunking throughput of a 1 MB markdown document (parse, split, wire
 *   bodies) vs a bare GFM parse (micromark) of 100 KB, and vs the plain-text
 *   chunker on the same document.
 */

import { createConversationLog } from "../lib/conversation/mod.ts";
import { createNotifier } from "../lib/notify/mod.ts";
import * as lark from "@larksuiteoapi/node-sdk";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { join } from "node:path";
import { createAccount } from "../lib/account/mod.ts";
import { type ActionContext, dispatch } from "../lib/actions/mod.ts";
import { createOutboundRuntime } from "../lib/outbound/mod.ts";
import { resolveLaunch } from "../lib/config/mod.ts";
import { parseConfig } from "../lib/config/mod.ts";
import { createLogger, defaultDeps } from "../lib/core/mod.ts";
import { DEFAULT_IDS as D, type Emulator, makeChat, startEmulator } from "../lib/emulator/mod.ts";
import { materialise, normaliseOutbound, splitText } from "../lib/outbound/mod.ts";
import { openStore } from "../lib/store/mod.ts";
import { defaultEra, eraClient, StdioClientTransport } from "../tests/_mcp_client.ts";
import { REPO, startServer } from "../tests/_server.ts";
import { type BenchResult, formatResults, median, percentile } from "./_types.ts";

const SENDS = 80;
const SPACING_MS = 25;
const CHATS = 10;

const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

/** Runs `fn` SENDS times, one start every SPACING_MS, and returns each latency in ms. */
async function spaced(fn: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SENDS; i++) {
    const start = performance.now();
    await fn(i);
    const took = performance.now() - start;
    out.push(took);
    if (took < SPACING_MS) await new Promise((r) => setTimeout(r, SPACING_MS - took));
  }
  return out;
}

async function perSend(): Promise<BenchResult[]> {
  await using emu = await startEmulator();
  const chats = Array.from({ length: CHATS }, (_, i) => {
    const chatId = `oc_bench_${i}`;
    emu.world.addChat(
      makeChat({ chatId, name: chatId, mode: "group", members: [], bots: [D.appId] }),
    );
    return chatId;
  });
  const server = await startServer({
    config: {
      accounts: [{ alias: "main", app_id: D.appId, app_secret: D.appSecret, domain: emu.url }],
    },
  });
  const tokens = new Map<string, unknown>();
  const client = new lark.Client({
    appId: D.appId,
    appSecret: D.appSecret,
    domain: emu.url,
    logger: quiet,
    cache: {
      get: (key) => Promise.resolve(tokens.get(String(key))),
      set: (key, value) => Promise.resolve(tokens.set(String(key), value) && true),
    },
  });
  try {
    const ours = async (i: number) => {
      const out = await server.call("send", {
        receive_id: chats[i % CHATS],
        receive_id_type: "chat_id",
        text: `bench ${i} ${crypto.randomUUID()}`,
      });
      if (out.status !== "sent") throw new Error(`send failed: ${JSON.stringify(out)}`);
    };
    const direct = async (i: number) => {
      const res = await client.im.v1.message.create({
        params: { receive_id_type: "chat_id" },
        data: {
          receive_id: chats[i % CHATS]!,
          msg_type: "text",
          content: JSON.stringify({ text: `direct ${i}` }),
          uuid: crypto.randomUUID(),
        },
      });
      if (res.code !== 0) throw new Error(`create failed: ${res.code}`);
    };
    for (let i = 0; i < 20; i++) { // warm up both paths (service load, tokens, JIT)
      await ours(i);
      await direct(i);
    }
    await new Promise((r) => setTimeout(r, 1100)); // let the warm-up's rate windows pass
    const a = await spaced(ours);
    const b = await spaced(direct);
    const local = await inProcess(emu, chats);
    const floor = await mcpFloor();
    return [
      {
        name: "send latency: MCP tools/call send (1 text chunk) through the server to the emulator",
        value: median(a),
        unit: "ms",
        baseline: median(b),
        ratio: median(a) / median(b),
        target: "< 1.3× direct node-sdk create",
        note: `median of ${SENDS}; p90 ${percentile(a, 90).toFixed(2)} ms vs ${
          percentile(b, 90).toFixed(2)
        } ms`,
      },
      local,
      floor,
    ];
  } finally {
    await server.close();
  }
}

/** The `send` action in-process vs the same account's `createMessage`. */
async function inProcess(emu: Emulator, chats: string[]): Promise<BenchResult> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-bench-" });
  const deps = defaultDeps({ log: createLogger({ sink: () => {} }) });
  const store = openStore(workdir, deps.clock);
  const parsed = parseConfig(
    JSON.stringify({
      accounts: [{ alias: "main", app_id: D.appId, app_secret: D.appSecret, domain: emu.url }],
    }),
    { workdir, lingtai: false },
  );
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  const account = createAccount(parsed.config.accounts[0]!, {
    store,
    clock: deps.clock,
    log: deps.log,
  });
  const api = account.api;
  const outbound = createOutboundRuntime();
  const ctx: ActionContext = {
    deps,
    launch: resolveLaunch({ args: ["serve", "--workdir", workdir], env: {}, cwd: workdir }),
    config: parsed.config,
    store,
    accounts: [account],
    outbound,
    conversation: createConversationLog({
      store,
      notifier: createNotifier({
        liccDir: null,
        claudeChannel: false,
        push: { notifyChannel: async () => {}, notifyResourceUpdated: async () => {} },
        clock: deps.clock,
        log: deps.log,
      }),
      clock: deps.clock,
      log: deps.log,
    }),
    identityPath: join(workdir, "identity.json"),
  };
  try {
    const action = async (i: number) => {
      const out = await dispatch(ctx, {
        action: "send",
        input: {
          receive_id: chats[i % CHATS]!,
          receive_id_type: "chat_id",
          text: `in-process ${i} ${crypto.randomUUID()}`,
        },
      });
      if (out.status !== "sent") throw new Error(`send failed: ${JSON.stringify(out)}`);
    };
    const create = async (i: number) => {
      await api.createMessage({
        receiveId: chats[i % CHATS]!,
        receiveIdType: "chat_id",
        msgType: "text",
        content: JSON.stringify({ text: `create ${i}` }),
        uuid: crypto.randomUUID(),
      });
    };
    for (let i = 0; i < 20; i++) {
      await action(i);
      await create(i);
    }
    await new Promise((r) => setTimeout(r, 1100));
    const a = await spaced(action);
    const b = await spaced(create);
    return {
      name: "send action in-process (no MCP hop) vs the same account's createMessage",
      value: median(a),
      unit: "ms",
      baseline: median(b),
      ratio: median(a) / median(b),
      note: "validation, materialisation, scheduler, record, Typing lookup",
    };
  } finally {
    account.outbox.close();
    outbound.close();
    store.close();
    await Deno.remove(workdir, { recursive: true });
  }
}

/** The MCP floor: a bare MCP SDK server's echo round trip over stdio. */
async function mcpFloor(): Promise<BenchResult> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--no-prompt",
      "--allow-env",
      "--allow-read",
      join(REPO, "bench", "_bare_server.ts"),
    ],
    cwd: REPO,
    stderr: "ignore",
  });
  const client = eraClient("bench", defaultEra());
  await client.connect(transport);
  try {
    const echo = async () => {
      await client.callTool({ name: "echo", arguments: { text: "x" } });
    };
    for (let i = 0; i < 20; i++) await echo();
    const xs = await spaced(echo);
    return {
      name: "MCP floor: bare MCP SDK server echo round trip over stdio",
      value: median(xs),
      unit: "ms",
      note: "part of every tool call, whatever the server does",
    };
  } finally {
    await client.close();
  }
}

/** A mixed markdown document of about `bytes` UTF-16 units. */
function document(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = i % 4 === 0
      ? `## Section ${i}\n\n` + "Prose with **bold**, `code`, 中文 and 😀 here. ".repeat(5) + "\n\n"
      : i % 4 === 1
      ? "```ts\n" + "const value = compute(1); // a line of code\n".repeat(30) + "```\n\n"
      : i % 4 === 2
      ? "| a | b | c |\n|---|---|---|\n" + "| 1 | 2 | 3 |\n".repeat(20) + "\n"
      : "- item one\n- item two\n  - nested item\n".repeat(10) + "\n";
    parts.push(s);
    n += s.length;
  }
  return parts.join("");
}

async function chunking(): Promise<BenchResult[]> {
  const md = document(1_000_000);
  const mb = new TextEncoder().encode(md).length / 1e6;
  const content = await normaliseOutbound({ content: { type: "markdown", markdown: md } });
  materialise(
    await normaliseOutbound({ content: { type: "markdown", markdown: md.slice(0, 50_000) } }),
  ); // warm up
  let t = performance.now();
  const m = materialise(content);
  const oursS = (performance.now() - t) / 1000;

  const slice = md.slice(0, 100_000);
  const sliceMb = new TextEncoder().encode(slice).length / 1e6;
  fromMarkdown(slice.slice(0, 10_000), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  t = performance.now();
  fromMarkdown(slice, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const parseS = (performance.now() - t) / 1000;

  t = performance.now();
  for (let i = 0; i < 5; i++) splitText(md, { limit: 3500 });
  const textS = (performance.now() - t) / 5000;

  return [
    {
      name: `markdown chunking throughput, 1 MB document → ${m.bodies.length} post bodies`,
      value: mb / oursS,
      unit: "MB/s",
      baseline: sliceMb / parseS,
      ratio: (mb / oursS) / (sliceMb / parseS),
      note: "baseline: a bare mdast GFM parse of 100 KB of the same document (higher is better)",
    },
    {
      name: "plain-text chunker throughput on the same document",
      value: mb / textS,
      unit: "MB/s",
      note: "no parser: the cost of the markdown structure is the difference",
    },
  ];
}

/** Runs the outbound benchmarks. */
export async function run(): Promise<BenchResult[]> {
  return [...await perSend(), ...await chunking()];
}

if (import.meta.main) console.log(formatResults(await run()));
