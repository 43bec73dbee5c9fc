/**
 * Which schema each client is shown, end to end: `tool_schema: auto` gives
 * LingTai the original's exact shape (`ltp`) and everyone else the flat
 * `portable` one; the config can force either. And the real LangChain JS MCP
 * adapter (which merges every combinator and unions the branches' required
 * keys) can call every action through the `portable` schema, while the `ltp`
 * shape leaves it refusing valid calls on the client side.
 */

import assert from "node:assert/strict";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { FEISHU_ACTIONS } from "../lib/mcp/family/actions.ts";
import { feishuTool } from "../lib/mcp/family/mod.ts";
import { portableExamples } from "../lib/mcp/family/testdata/schema_examples.ts";
import { startArgs, startServer } from "./_server.ts";

type Rec = Record<string, unknown>;

const cases: {
  name: string;
  clientName?: string;
  env?: Record<string, string>;
  toolSchema?: string;
  want: "ltp" | "portable";
}[] = [
  { name: "any other client gets portable by default", want: "portable" },
  { name: "a client named LingTai gets ltp", clientName: "lingtai-kernel", want: "ltp" },
  { name: "a LingTai agent directory gets ltp", env: { LINGTAI_AGENT_DIR: "" }, want: "ltp" },
  {
    name: "tool_schema portable wins over LingTai",
    clientName: "lingtai-kernel",
    toolSchema: "portable",
    want: "portable",
  },
  { name: "tool_schema ltp wins for any client", toolSchema: "ltp", want: "ltp" },
];

for (const c of cases) {
  Deno.test(`tools/list: ${c.name}`, async () => {
    const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-schema-" });
    const env = c.env?.LINGTAI_AGENT_DIR === "" ? { LINGTAI_AGENT_DIR: workdir } : c.env;
    const server = await startServer({
      workdir,
      clientName: c.clientName,
      env,
      // An account whose host refuses connections: the config is valid, nothing is reached.
      config: {
        accounts: [{
          alias: "main",
          app_id: "cli_a1b2c3d4e5f6a7b8",
          app_secret: "not-a-secret",
          domain: "http://127.0.0.1:9",
        }],
        ...(c.toolSchema ? { tool_schema: c.toolSchema } : {}),
      },
    });
    try {
      const { tools } = await server.client.listTools();
      assert.deepEqual(tools[0]!.inputSchema, feishuTool(c.want).inputSchema);
      const status = JSON.parse(await server.resource("lingtai://status"));
      assert.equal(status.mcp.tool_projection, c.want);
      assert.equal(status.mcp.tool_schema, c.toolSchema ?? "auto");
    } finally {
      await server.close();
    }
  });
}

/** The adapter's tools for a server started with the given tool_schema (no Feishu account). */
async function langchainTool(toolSchema: "ltp" | "portable") {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-langchain-" });
  const config = `${workdir}/config.json`;
  // A config the full load refuses (no accounts) still names the schema; the
  // server runs degraded, so every valid call ends at NOT_CONNECTED, past validation.
  await Deno.writeTextFile(config, JSON.stringify({ tool_schema: toolSchema }));
  const client = new MultiServerMCPClient({
    mcpServers: {
      feishu: {
        transport: "stdio",
        command: Deno.execPath(),
        args: startArgs(["--workdir", workdir, "--config", config]),
        env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp" },
        stderr: "ignore",
      },
    },
  });
  const [tool] = await client.getTools();
  assert.equal(tool?.name, "feishu");
  return { tool: tool!, close: () => client.close() };
}

/**
 * Calls the converted tool and returns the server's payload: the adapter
 * raises a failure (`isError`) as a ToolException carrying the payload's JSON;
 * a refusal on the client side has no payload and is rethrown.
 */
async function invoke(tool: { invoke(args: Rec): Promise<unknown> }, args: Rec): Promise<Rec> {
  try {
    return payloadOf(await tool.invoke(args));
  } catch (err) {
    const carried = /returned an error: (\{.*\})$/s.exec((err as Error).message);
    if (!carried) throw err;
    return JSON.parse(carried[1]!) as Rec;
  }
}

/** The payload of a LangChain tool result: its text content block is the payload's JSON. */
function payloadOf(result: unknown): Rec {
  const first = Array.isArray(result) ? result[0] : result;
  const text = typeof first === "string" ? first : (first as { text?: unknown })?.text;
  if (typeof text !== "string") throw new Error(`no text content in ${JSON.stringify(result)}`);
  return JSON.parse(text) as Rec;
}

Deno.test("LangChain's MCP adapter calls every action through the portable schema, and each call passes validation", async () => {
  const schema = feishuTool("portable").inputSchema;
  const { tool, close } = await langchainTool("portable");
  let calls = 0;
  try {
    for (const action of FEISHU_ACTIONS) {
      for (const input of portableExamples(schema, action)) {
        calls++;
        const out = await invoke(tool, { action, input, reasoning: "langchain" });
        const passed = action === "manual"
          ? typeof out.manual === "string"
          : out.error_code === "NOT_CONNECTED";
        assert.ok(passed, `${action} ${JSON.stringify(input)} → ${JSON.stringify(out)}`);
      }
    }
    // Every action, and every text/content, content type, source and operation variant.
    assert.ok(calls > 3 * FEISHU_ACTIONS.length, `only ${calls} calls`);
    // What the flat schema cannot say, the server still refuses, naming the path.
    const bad = await invoke(tool, { action: "send", input: { text: "hi" }, reasoning: "x" });
    assert.equal(bad.error_code, "INVALID_ARGUMENT");
    assert.equal(bad.message, "invalid feishu input: input.receive_id: required for action 'send'");
    // An empty input: one answer names everything missing, so one retry can fix it.
    const empty = await invoke(tool, { action: "send", input: {}, reasoning: "x" });
    assert.equal(
      empty.message,
      "invalid feishu input: input: exactly one of text or content for action 'send'; " +
        "input.receive_id: required for action 'send'",
    );
  } finally {
    await close();
  }
});

Deno.test("LangChain's MCP adapter refuses valid calls on the client side when it is given the ltp shape", async () => {
  const { tool, close } = await langchainTool("ltp");
  try {
    await assert.rejects(
      tool.invoke({ action: "manual", input: {}, reasoning: "langchain" }),
      /did not match expected schema/,
    );
  } finally {
    await close();
  }
});
