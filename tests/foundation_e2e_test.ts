/**
 * End to end: the real server over stdio with the real MCP SDK client, the
 * loopback emulator as Feishu. Issue #2 acceptance: one tool with 13 actions,
 * every validation rejection with its exact code and no disk or network
 * effect, degraded mode, no secrets anywhere, stdout carries JSON-RPC only.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS, startEmulator } from "../lib/emulator/mod.ts";
import { APP_ID, legacyOpening, REPO, startArgs, startServer, storeDigest } from "./_server.ts";

const SECRET = DEFAULT_IDS.appSecret;
const ACTIONS = [
  "send",
  "check",
  "read",
  "reply",
  "react",
  "search",
  "delete",
  "edit",
  "contacts",
  "add_contact",
  "remove_contact",
  "accounts",
  "manual",
];

function configFor(url: string, extra: Record<string, unknown> = {}) {
  return {
    accounts: [{
      alias: "main",
      app_id: DEFAULT_IDS.appId,
      app_secret: SECRET,
      domain: url,
      ...extra,
    }],
  };
}

Deno.test("tools/list shows exactly one tool, feishu, with the 13 actions in canonical order", async () => {
  const server = await startServer();
  try {
    const { tools } = await server.client.listTools();
    assert.equal(tools.length, 1);
    const tool = tools[0]!;
    assert.equal(tool.name, "feishu");
    const schema = tool.inputSchema as unknown as {
      properties: { action: { enum: string[] } };
    };
    assert.deepEqual(schema.properties.action.enum, ACTIONS);
  } finally {
    await server.close();
  }
});

const ROOT_KEYS = ["action", "input", "reasoning", "summarize"];
/** The input keys a failure of that action lists as accepted. */
const ACCEPTED: Record<string, string[]> = {
  accounts: [],
  send: [
    "account",
    "receive_id",
    "receive_id_type",
    "text",
    "content",
    "placeholder",
    "idempotency_key",
  ],
  react: ["message_id", "operation", "emoji_type", "reaction_id"],
};

const REJECTIONS: { name: string; args: Record<string, unknown>; code: string; message: string }[] =
  [
    {
      name: "a legacy _reasoning root key",
      args: { action: "accounts", input: {}, reasoning: "r", _reasoning: "x" },
      code: "INVALID_ARGUMENT",
      message: `unsupported feishu argument: _reasoning (accepted: ${ROOT_KEYS.join(", ")})`,
    },
    {
      name: "an unknown root key",
      args: { action: "accounts", input: {}, reasoning: "r", unknown: 1 },
      code: "INVALID_ARGUMENT",
      message: `unsupported feishu argument: unknown (accepted: ${ROOT_KEYS.join(", ")})`,
    },
    {
      name: "an empty arguments object",
      args: {},
      code: "ACTION_REQUIRED",
      message: `invalid feishu action: expected one of ${ACTIONS.join(", ")}`,
    },
    {
      name: "an unknown action",
      args: { action: "broadcast", input: {}, reasoning: "r" },
      code: "ACTION_REQUIRED",
      message: `invalid feishu action: expected one of ${ACTIONS.join(", ")}`,
    },
    {
      name: "a missing input",
      args: { action: "accounts", reasoning: "r" },
      code: "INVALID_ARGUMENT",
      message: "input must be an object: expected an object",
    },
    {
      name: "a non-string reasoning",
      args: { action: "accounts", input: {}, reasoning: 7 },
      code: "INVALID_ARGUMENT",
      message: "reasoning is required: expected a string",
    },
    {
      name: "a non-boolean summarize",
      args: { action: "accounts", input: {}, reasoning: "r", summarize: "yes" },
      code: "INVALID_ARGUMENT",
      message: "summarize must be a boolean: expected a boolean",
    },
    {
      name: "a closed input with an extra key",
      args: { action: "accounts", input: { receive_id: "ou_x" }, reasoning: "r" },
      code: "INVALID_ARGUMENT",
      message: "invalid feishu input: input.receive_id: unknown key for action 'accounts'",
    },
    {
      name: "a send with another action's field",
      args: {
        action: "send",
        input: { receive_id: "ou_x", text: "hi", message_id: "m" },
        reasoning: "r",
      },
      code: "INVALID_ARGUMENT",
      message: "invalid feishu input: input.message_id: unknown key for action 'send'",
    },
    {
      name: "a send with both text and content",
      args: {
        action: "send",
        input: { receive_id: "ou_x", text: "hi", content: { type: "text", text: "hi" } },
        reasoning: "r",
      },
      code: "INVALID_ARGUMENT",
      message: "invalid feishu input: input: exactly one of text or content for action 'send'",
    },
    {
      name: "a react add with a reaction_id",
      args: {
        action: "react",
        input: {
          message_id: "main:oc_1:om_1",
          operation: "add",
          emoji_type: "SMILE",
          reaction_id: "r",
        },
        reasoning: "r",
      },
      code: "INVALID_ARGUMENT",
      message: "invalid feishu input: input.reaction_id: not allowed when operation is 'add'",
    },
  ];

Deno.test("every validation rejection has its exact code and touches neither disk nor Feishu", async () => {
  await using emu = await startEmulator();
  const server = await startServer({ config: configFor(emu.url) });
  try {
    await server.call("accounts", {}); // the service is up
    await emu.ws.whenReady(); // and connected (identity looked up before connecting)
    const before = await storeDigest(server.workdir);
    const requestsBefore = emu.requests().length;
    for (const r of REJECTIONS) {
      const res = await server.client.callTool({ name: "feishu", arguments: r.args });
      const out = res.structuredContent as Record<string, unknown>;
      assert.equal(res.isError, true, r.name);
      const { details, accepted_keys, ...stable } = out;
      assert.deepEqual(stable, {
        status: "failed",
        error: r.message,
        message: r.message,
        error_code: r.code,
        retryable: false,
        retry_after_seconds: null,
      }, r.name);
      // The message tells the first of the problems listed in details.
      const first = (details as { path: string; message: string }[])[0]!;
      const input = r.message.startsWith("invalid feishu input");
      const told = r.message.startsWith("unsupported")
        ? `${first.path} (accepted: ${ROOT_KEYS.join(", ")})`
        : input
        ? `${first.path}: ${first.message}`
        : first.message;
      assert.equal(r.message.slice(r.message.indexOf(": ") + 2), told, r.name);
      assert.deepEqual(
        accepted_keys,
        input ? ACCEPTED[r.args.action as string] : ROOT_KEYS,
        r.name,
      );
    }
    assert.equal(await storeDigest(server.workdir), before);
    assert.equal(emu.requests().length, requestsBefore);
  } finally {
    await server.close();
  }
});

Deno.test("an unknown tool name is a JSON-RPC invalid-params error", async () => {
  const server = await startServer();
  try {
    await assert.rejects(
      server.client.callTool({ name: "lark", arguments: {} }),
      (e: Error & { code?: number }) => e.code === -32602 && /Unknown tool: lark/.test(e.message),
    );
  } finally {
    await server.close();
  }
});

Deno.test("without a config the server runs degraded: manual works, the rest is NOT_CONNECTED", async () => {
  const server = await startServer();
  try {
    const manual = await server.call("manual", {});
    assert.equal(manual.status, "ok");
    assert.equal(manual.skill, "feishu-mcp-manual");
    assert.ok(String(manual.manual).length > 100);
    for (const action of ["accounts", "check", "contacts"]) {
      const out = await server.call(action, {});
      assert.equal(out.error_code, "NOT_CONNECTED", action);
      assert.equal(out.message, "Feishu manager is not initialized");
    }
    const status = JSON.parse(await server.resource("lingtai://status"));
    assert.equal(status.status, "degraded");
    assert.equal(status.config_path_set, false);
  } finally {
    await server.close();
  }
});

const BAD_CONFIGS: { name: string; config: unknown; lines: string[] }[] = [
  { name: "bad JSON", config: "{not json", lines: ["Feishu config is not valid JSON"] },
  {
    name: "an unknown key and a bad app_id",
    config: { accounts: [{ alias: "main", app_id: "cli_bad", app_secret: SECRET }], extra: true },
    lines: [
      "config: unknown key 'extra'",
      "config accounts[0].app_id: Expected app_id to look like cli_ followed by 16 hex digits",
    ],
  },
  {
    name: "a duplicate alias",
    config: {
      accounts: [
        { alias: "main", app_id: APP_ID, app_secret: SECRET },
        { alias: "main", app_id: APP_ID, app_secret: SECRET },
      ],
    },
    lines: ["config accounts: duplicate alias 'main'"],
  },
];

for (const bad of BAD_CONFIGS) {
  Deno.test(`a config with ${bad.name} is reported on stderr and in status without crashing`, async () => {
    const server = await startServer({ config: bad.config });
    try {
      assert.equal((await server.call("accounts", {})).error_code, "NOT_CONNECTED");
      assert.equal((await server.call("manual", {})).status, "ok");
      const status = JSON.parse(await server.resource("lingtai://status"));
      for (const line of bad.lines) {
        assert.ok(server.stderr().includes(line), `stderr lacks: ${line}`);
        assert.ok(status.notes.some((n: string) => n.includes(line)), `status lacks: ${line}`);
      }
      assert.ok(!server.stderr().includes(SECRET));
      assert.ok(!JSON.stringify(status).includes(SECRET));
    } finally {
      await server.close();
    }
  });
}

Deno.test("secrets never appear in results, resources or stderr", async () => {
  await using emu = await startEmulator();
  const server = await startServer({
    config: configFor(emu.url),
    env: { FEISHU_MCP_LOG: "debug" },
  });
  try {
    const seen: string[] = [];
    for (const action of ["accounts", "check", "contacts", "manual"]) {
      seen.push(JSON.stringify(await server.call(action, {})));
    }
    const { resources } = await server.client.listResources();
    for (const r of resources) {
      seen.push(JSON.stringify(await server.client.readResource({ uri: r.uri })));
    }
    for (const text of [...seen, server.stderr()]) {
      assert.ok(!text.includes(SECRET), "app_secret leaked");
      assert.ok(!/\bt-[A-Za-z0-9]{8,}/.test(text), "a tenant token leaked");
    }
  } finally {
    await server.close();
  }
});

Deno.test("stdout carries only JSON-RPC and the server exits when stdin closes", async () => {
  const workdir = await Deno.makeTempDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: startArgs(["--workdir", workdir]),
    cwd: REPO,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  const lines = [
    ...legacyOpening(1),
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "feishu", arguments: { action: "manual", input: {}, reasoning: "r" } },
    },
  ];
  for (const l of lines) await w.write(new TextEncoder().encode(JSON.stringify(l) + "\n"));
  await w.close(); // EOF: the server must notice and exit
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout).trim().split("\n");
  assert.equal(out.code, 0);
  assert.equal(stdout.length, 3);
  for (const line of stdout) {
    const msg = JSON.parse(line);
    assert.equal(msg.jsonrpc, "2.0");
    assert.ok("result" in msg || "error" in msg);
  }
  assert.deepEqual(stdout.map((l) => JSON.parse(l).id), [1, 2, 3]);
  await Deno.remove(workdir, { recursive: true });
});

Deno.test("a second server on the same workdir exits with a clear message", async () => {
  const first = await startServer();
  try {
    const second = await new Deno.Command(Deno.execPath(), {
      args: startArgs(["--workdir", first.workdir]),
      cwd: REPO,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(second.code, 1);
    assert.match(
      new TextDecoder().decode(second.stderr),
      /Another feishu-mcp server already runs on this workdir/,
    );
    assert.equal(new TextDecoder().decode(second.stdout), "");
  } finally {
    await first.close();
  }
});

Deno.test("the launcher re-executes the server confined to its workdir, config and Feishu host", async () => {
  const server = await startServer({
    config: {
      accounts: [{
        alias: "main",
        app_id: APP_ID,
        app_secret: SECRET,
        domain: "http://127.0.0.1:9",
      }],
    },
  });
  try {
    const status = JSON.parse(await server.resource("lingtai://status"));
    assert.deepEqual(status.permissions, {
      confined: true,
      read_outside_workdir: false,
      write_outside_workdir: false,
      write_workdir: true,
      net_any_host: false,
      run_any_program: false,
    });
  } finally {
    await server.close();
  }
});
