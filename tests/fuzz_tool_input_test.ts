/**
 * Fuzz, the `feishu` tool: generated and mutated calls (the published
 * schema's own generator, its pools seeded with ids, paths and targets that
 * exist in the emulator's world so calls reach the actions) run thousands of
 * times through the service in process, and a few hundred through the real
 * MCP client over stdio. No call crashes or hangs the server; every failure
 * carries a code of the closed set and none is an internal error (the log
 * line of an unexpected throw); a call refused before Feishu
 * (`INVALID_ARGUMENT`, `ACTION_REQUIRED`, `NOT_FOUND`, `DUPLICATE_BLOCKED`)
 * writes nothing to Feishu, and no failed call leaves a write Feishu
 * accepted. `CHAOS_SEED` replays; `FUZZ_RUNS` scales.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { createLogger, type Deps, Redactor, stateDir, systemClock } from "../lib/core/mod.ts";
import { ERROR_CODES } from "../lib/core/errors.ts";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { FEISHU_ACTIONS, type FeishuAction } from "../lib/mcp/family/actions.ts";
import { feishuInputSchema, type JsonSchema } from "../lib/mcp/family/schema.ts";
import { collectPools, toolCallArbitrary } from "../lib/mcp/family/testdata/schema_arbitrary.ts";
import { startService } from "../lib/service/start.ts";
import { lockWorkdir } from "../lib/store/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";
import { chaosChats, chaosRng, envCount, printFigures } from "./_chaos.ts";

import { presenceDrained } from "./_outbound.ts";
type Rec = Record<string, unknown>;
const RUNS = envCount("FUZZ_RUNS", 2000);
const MCP_RUNS = Math.max(50, Math.round(RUNS / 8));
const BEFORE_FEISHU = new Set(["INVALID_ARGUMENT", "ACTION_REQUIRED", "NOT_FOUND"]);
const UNEXPECTED = "action failed unexpectedly";

const published = feishuInputSchema();
const branchOf = (action: FeishuAction): JsonSchema => {
  const branch =
    (published.properties.input.anyOf as JsonSchema[])[FEISHU_ACTIONS.indexOf(action)]!;
  const { title: _title, ...schema } = branch;
  return schema;
};

/** The schema's pools plus values that name real things in the emulator's world. */
function worldPools(real: string[]) {
  const pools = collectPools(published);
  return { keys: pools.keys, strings: [...pools.strings, ...real] };
}

/** Feishu writes (not reads, not token fetches) after request `from`, and how many Feishu took. */
function writesSince(emu: Emulator, from: number): { all: number; accepted: number } {
  const w = emu.requests().slice(from).filter((r) =>
    r.method !== "GET" && !r.path.includes("/auth/") && !r.path.includes("/callback/")
  );
  return { all: w.length, accepted: w.filter((r) => r.status === 200 && r.code === 0).length };
}

/** Judges one result; returns a problem or null. */
function judge(out: unknown, writes: { all: number; accepted: number }): string | null {
  if (typeof out !== "object" || out === null) return `not an object: ${String(out)}`;
  const r = out as Rec;
  if (r.status !== "failed") return null;
  if (!(ERROR_CODES as readonly unknown[]).includes(r.error_code)) {
    return `unclassified code ${r.error_code}`;
  }
  if (
    (BEFORE_FEISHU.has(String(r.error_code)) || r.error_code === "DUPLICATE_BLOCKED") &&
    writes.all > 0
  ) {
    return `${r.error_code} after ${writes.all} Feishu writes`;
  }
  const partial = r.partial_delivery === true || r.partial_failure === true;
  if (!partial && writes.accepted > 0) {
    return `${r.error_code} although Feishu accepted ${writes.accepted} writes`;
  }
  return null;
}

/** Awkward values a mutation puts in place of a field. */
const NASTY: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202e\u2028",
    "../../etc/passwd",
    "/etc/passwd",
    "oc_../x",
    "ou_x\nrm",
    '<at user_id="all">all</at>',
    "x".repeat(5000),
    "😀".repeat(2000),
    -1,
    0,
    1e308,
    true,
    null,
    [],
    {},
    { type: "text" },
    { type: "card", card: { schema: "2.0", body: { elements: [{ tag: "button" }] } } },
    { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
    { type: "file", source: { type: "path", path: "/etc/hostname" } },
  ),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/**
 * Valid calls aimed at real targets, each mutated at one field (replaced,
 * removed, or joined by a stray key), or left valid now and then so that
 * Feishu is reached.
 */
function mutatedCalls(chats: string[], message: string): fc.Arbitrary<Rec> {
  const templates = fc.constantFrom(...chats).chain((chat) =>
    fc.constantFrom<Rec>(
      ...[
        { action: "send", input: { receive_id: chat, receive_id_type: "chat_id", text: "hi" } },
        {
          action: "send",
          input: {
            receive_id: chat,
            receive_id_type: "chat_id",
            content: { type: "markdown", markdown: "# t\n\n- a\n- b" },
            idempotency_key: "k",
          },
        },
        {
          action: "send",
          input: {
            receive_id: chat,
            receive_id_type: "chat_id",
            content: {
              type: "card",
              card: {
                schema: "2.0",
                body: {
                  elements: [{
                    tag: "button",
                    text: { tag: "plain_text", content: "ok" },
                    behaviors: [{ type: "callback", value: { a: 1 } }],
                  }],
                },
              },
            },
          },
        },
        { action: "reply", input: { message_id: message, text: "re" } },
        { action: "react", input: { message_id: message, operation: "add", emoji_type: "SMILE" } },
        { action: "read", input: { chat_id: chat, limit: 3 } },
        { action: "search", input: { query: "hi" } },
        { action: "edit", input: { message_id: message, text: "e" } },
        { action: "delete", input: { message_id: message } },
      ],
    )
  );
  return fc.tuple(templates, fc.nat(), fc.nat(), NASTY, fc.nat({ max: 9 }), fc.string()).map(
    ([t, a, b, value, how, stray]) => {
      const call = structuredClone(t);
      const input = call.input as Rec;
      // Unique text per call: valid sends are not refused as duplicates.
      if (typeof input.text === "string") input.text = `${input.text} ${a}`;
      const keys = Object.keys(input);
      const key = keys[b % keys.length]!;
      if (how <= 5) input[key] = value;
      else if (how === 6) delete input[key];
      else if (how === 7) input[stray || "extra"] = value;
      else if (how === 8 && typeof input.content === "object") {
        (input.content as Rec)[stray || "extra"] = value;
      }
      return { ...call, reasoning: "fuzz" };
    },
  );
}

/** Real targets: chats, users, a message of Alice's and paths in and out of the media roots. */
async function realValues(emu: Emulator, workdir: string): Promise<string[]> {
  const hello = emu.storeMessage({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
  const media = join(workdir, "a.txt");
  await Deno.writeTextFile(media, "fuzz");
  return [
    D.aliceP2p,
    D.team,
    D.alice.openId,
    D.bob.openId,
    `main:${D.aliceP2p}:${hello.messageId}`,
    `main:${D.aliceP2p}:om_missing`,
    hello.messageId,
    "SMILE",
    "main",
    media,
    join(workdir, "config.json"),
    join(workdir, "feishu", "store.db"),
  ];
}

Deno.test("fuzz feishu tool calls in process: no crash, every refusal classified, nothing written for a refused call", async () => {
  const rng = chaosRng("fuzz-tool");
  await using emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-fuzz-" });
  const configPath = join(workdir, "config.json");
  await Deno.writeTextFile(configPath, JSON.stringify(bridgeConfig(emu.url)));
  const logs: string[] = [];
  const redactor = new Redactor();
  const deps: Deps = {
    clock: systemClock,
    newId: () => crypto.randomUUID(),
    log: createLogger({ redactor, sink: (line) => logs.push(line) }),
    redactor,
  };
  const service = await startService(
    {
      subcommand: "serve",
      configPath,
      configSource: "flag",
      workdir,
      workdirExplicit: true,
      mcpName: "feishu",
      port: null,
      confined: false,
    },
    deps,
    {
      lock: lockWorkdir(stateDir(workdir)),
      push: {
        notifyChannel: () => Promise.resolve(),
        notifyResourceUpdated: () => Promise.resolve(),
      },
    },
  );
  try {
    await emu.ws.whenReady();
    const arb = toolCallArbitrary(branchOf, worldPools(await realValues(emu, workdir)));
    const codes: Record<string, number> = {};
    const problems: string[] = [];
    await fc.assert(
      fc.asyncProperty(arb, async (raw) => {
        const args = JSON.parse(JSON.stringify(raw) ?? "null");
        const from = emu.requests().length;
        const seen = logs.length;
        const out = await service.app.callTool(args);
        const code = String((out as Rec).error_code ?? (out as Rec).status);
        codes[code] = (codes[code] ?? 0) + 1;
        const problem = judge(out, writesSince(emu, from)) ??
          (logs.slice(seen).find((l) => l.includes(UNEXPECTED)) ?? null);
        if (problem) problems.push(`${problem} for ${JSON.stringify(args).slice(0, 300)}`);
        assert.equal(problem, null, JSON.stringify(args));
      }),
      { numRuns: RUNS, seed: rng.seed | 0, endOnFailure: true },
    );
    printFigures("fuzz-tool", {
      inputs: RUNS,
      outcomes: codes,
      feishu_writes: writesSince(emu, 0).all,
      problems: problems.length,
    });
  } finally {
    await service.close();
    await Deno.remove(workdir, { recursive: true });
  }
});

Deno.test("fuzz feishu tool calls through the real MCP client: the server answers each, classified, and stays up", async () => {
  const rng = chaosRng("fuzz-tool-mcp");
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    // The MCP client itself refuses arguments that are not an object.
    const arb = toolCallArbitrary(
      branchOf,
      worldPools(await realValues(emu, bridge.server.workdir)),
    ).filter((a) => typeof a === "object" && a !== null && !Array.isArray(a));
    const codes: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(arb, async (raw) => {
        const args = JSON.parse(JSON.stringify(raw) ?? "null");
        const from = emu.requests().length;
        const res = await bridge.server.client.callTool({ name: "feishu", arguments: args });
        const out = res.structuredContent as Rec | undefined;
        assert.ok(out, `no structured result for ${JSON.stringify(args)}`);
        const code = String(out.error_code ?? out.status);
        codes[code] = (codes[code] ?? 0) + 1;
        assert.equal(judge(out, writesSince(emu, from)), null, JSON.stringify(args));
      }),
      { numRuns: MCP_RUNS, seed: rng.seed | 0, endOnFailure: true },
    );
    const unexpected = bridge.server.stderr().split("\n").filter((l) => l.includes(UNEXPECTED));
    printFigures("fuzz-tool-mcp", {
      inputs: MCP_RUNS,
      outcomes: codes,
      internal_errors: unexpected.length,
    });
    assert.deepEqual(unexpected, []);
    assert.equal((await bridge.call("accounts")).status, "ok");
  } finally {
    await bridge.close();
  }
});

Deno.test("fuzz mutated valid calls against real targets through the real MCP client: Feishu is reached only by valid calls", async () => {
  const rng = chaosRng("fuzz-mutated");
  await using emu = await startEmulator();
  const chats = chaosChats(emu, 20, "oc_fuzz");
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const sent = await bridge.call("send", {
      receive_id: chats[0],
      receive_id_type: "chat_id",
      text: "target",
    });
    const target = String(sent.message_id);
    const codes: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(mutatedCalls(chats, target), async (args) => {
        // A reply's THUMBSUP goes out after its result: not this call's write.
        await presenceDrained(async () => JSON.stringify(await bridge.status()));
        const from = emu.requests().length;
        const res = await bridge.server.client.callTool({ name: "feishu", arguments: args });
        const out = res.structuredContent as Rec;
        const code = String(out.error_code ?? out.status);
        codes[code] = (codes[code] ?? 0) + 1;
        assert.equal(judge(out, writesSince(emu, from)), null, JSON.stringify(args).slice(0, 400));
      }),
      { numRuns: MCP_RUNS * 2, seed: rng.seed | 0, endOnFailure: true },
    );
    const unexpected = bridge.server.stderr().split("\n").filter((l) => l.includes(UNEXPECTED));
    printFigures("fuzz-mutated", {
      inputs: MCP_RUNS * 2,
      outcomes: codes,
      feishu_writes: writesSince(emu, 0).all,
      internal_errors: unexpected.length,
    });
    assert.deepEqual(unexpected, []);
  } finally {
    await bridge.close();
  }
});
