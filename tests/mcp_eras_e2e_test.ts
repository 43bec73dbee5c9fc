/**
 * Both MCP protocol eras against the real server over stdio: a client pinned
 * to 2026-07-28 (`server/discover`, per-request envelopes,
 * `subscriptions/listen`), an `initialize`-era client, and a dual-era client
 * that probes and falls back. Each lists the tool, calls every action family
 * against the emulator, reads resources and receives the inbound pushes.
 * Malformed openings get one-line JSON-RPC errors.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";
import { MODERN_REVISION, type TestEra } from "./_mcp_client.ts";
import { legacyOpening, startArgs } from "./_server.ts";

type Rec = Record<string, unknown>;

/** A call result that is not the failure shape. */
function succeeded(out: Rec): void {
  assert.ok(!("error_code" in out) && out.status !== "failed", JSON.stringify(out));
}

const ERAS: { era: TestEra; revision: RegExp }[] = [
  { era: "modern", revision: new RegExp(`^${MODERN_REVISION}$`) },
  { era: "legacy", revision: /^2025-/ },
  { era: "auto", revision: new RegExp(`^${MODERN_REVISION}$`) },
];

for (const { era, revision } of ERAS) {
  Deno.test(`${era} era: tools, every action family, resources and inbound pushes`, async () => {
    await using emu = await startEmulator();
    const bridge = await startBridge({ config: bridgeConfig(emu.url), era });
    try {
      const client = bridge.server.client;
      assert.match(client.getNegotiatedProtocolVersion() ?? "", revision);
      assert.deepEqual(client.getServerCapabilities()?.experimental, { "claude/channel": {} });
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["feishu"]);

      // Inbound: the message is stored, the subscription hears of it, the channel gets it.
      await emu.ws.whenReady();
      const incoming = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "ping" });
      const push = await bridge.channel.atLeast(1).then(() => bridge.channel.items[0]!);
      assert.match(push.content, /ping/);
      await bridge.updates.atLeast(1);
      assert.equal(bridge.updates.items[0], "feishu://inbox");
      const inboundId = `main:${D.aliceP2p}:${incoming.messageId}`;
      const inbox = JSON.parse(await bridge.server.resource("feishu://inbox"));
      assert.ok(JSON.stringify(inbox).includes(incoming.messageId!), JSON.stringify(inbox));

      // Outbound families: send, reply, react, edit, delete.
      const sent = await bridge.call("send", {
        receive_id: D.aliceP2p,
        receive_id_type: "chat_id",
        text: `hello from the ${era} era`,
      });
      succeeded(sent);
      const reply = await bridge.call("reply", { message_id: inboundId, text: "pong" });
      succeeded(reply);
      const added = await bridge.call("react", {
        message_id: inboundId,
        operation: "add",
        emoji_type: "SMILE",
      });
      succeeded(added);
      const removed = await bridge.call("react", {
        message_id: inboundId,
        operation: "remove",
        reaction_id: String(added.reaction_id),
      });
      succeeded(removed);
      const edited = await bridge.call("edit", { message_id: sent.message_id, text: "edited" });
      succeeded(edited);
      const onFeishu = emu.messages(D.aliceP2p).map((m) => m.content).join(" | ");
      assert.ok(onFeishu.includes('"edited"') && onFeishu.includes('"pong"'), onFeishu);
      const deleted = await bridge.call("delete", { message_id: sent.message_id });
      succeeded(deleted);

      // Reading families: check, read, search.
      const checked = await bridge.call("check");
      succeeded(checked);
      const read = await bridge.call("read", { chat_id: D.aliceP2p, limit: null });
      assert.ok((read.messages as Rec[]).some((m) => m.id === inboundId), JSON.stringify(read));
      const found = await bridge.call("search", { query: "ping" });
      assert.equal(found.total, 1, JSON.stringify(found));

      // Address book, accounts, manual.
      const contact = { open_id: D.alice.openId, alias: "alice" };
      succeeded(await bridge.call("add_contact", contact));
      const contacts = await bridge.call("contacts");
      assert.equal((contacts.contacts as Record<string, Rec>)[D.alice.openId]?.alias, "alice");
      succeeded(await bridge.call("remove_contact", { alias: "alice" }));
      assert.deepEqual((await bridge.call("accounts")).accounts, ["main"]);
      // Gemini CLI's own root argument is accepted and ignored.
      const gemini = await bridge.server.call("accounts", {}, { wait_for_previous: true });
      assert.deepEqual(gemini.accounts, ["main"]);
      assert.match(String((await bridge.call("manual")).manual), /feishu/i);

      // Resources.
      const { resources } = await client.listResources();
      assert.ok(resources.some((r) => r.uri === "lingtai://status"));
      const status = JSON.parse(await bridge.server.resource("lingtai://status"));
      assert.equal(status.accounts[0].alias, "main");
      assert.equal(status.mcp.era, era === "legacy" ? "legacy" : "modern");
      assert.equal(status.mcp.client_name, "feishu-mcp-tests");
    } finally {
      await bridge.close();
    }
  });
}

/**
 * Sends raw JSON-RPC lines to a fresh server and returns its answers by id:
 * with `endInput`, stdin is closed right after the lines and everything the
 * server writes until it exits is collected; otherwise reading stops after
 * `until` answers.
 */
async function rawExchange(
  lines: unknown[],
  options: { until?: number; endInput?: boolean },
): Promise<Map<unknown, Rec>> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-raw-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: startArgs(["--workdir", workdir]),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  for (const line of lines) {
    await writer.write(new TextEncoder().encode(JSON.stringify(line) + "\n"));
  }
  if (options.endInput) await writer.close();
  const answers = new Map<unknown, Rec>();
  let buffered = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffered.slice(0, nl)) as Rec;
      buffered = buffered.slice(nl + 1);
      if ("id" in message) answers.set(message.id, message);
    }
    if (!options.endInput && answers.size >= (options.until ?? 1)) break;
  }
  if (!options.endInput) await writer.close();
  await child.status;
  return answers;
}

const LEGACY_OPENING = legacyOpening(0);

Deno.test("a call still running when stdin ends is answered before the server exits", async () => {
  // The first call waits for the service to load, so it is in flight at EOF.
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "feishu", arguments: { action: "manual", input: {}, reasoning: "eof" } },
  };
  const answers = await rawExchange([...LEGACY_OPENING, call], { endInput: true });
  const result = answers.get(1)?.result as Rec | undefined;
  assert.ok(result, `no answer for the call: ${JSON.stringify([...answers.values()])}`);
  assert.match(String((result.structuredContent as Rec).manual), /feishu/i);
});

Deno.test("a malformed initialize gets -32602 with a one-line message, and the connection stays usable", async () => {
  const answers = await rawExchange([
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { capabilities: {} } },
    { ...LEGACY_OPENING[0], id: 2 },
  ], { until: 2 });
  const bad = answers.get(1)!.error as Rec;
  assert.equal(bad.code, -32602);
  assert.equal(
    bad.message,
    "Invalid initialize request: params.protocolVersion: expected string, received undefined (and 1 more)",
  );
  const good = answers.get(2)!.result as Rec;
  assert.equal(good.protocolVersion, "2025-06-18");
});

Deno.test("server/discover names 2026-07-28 and the server's capabilities; a missing envelope is -32602", async () => {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN_REVISION,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const answers = await rawExchange([
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN_REVISION } },
    },
    { jsonrpc: "2.0", id: 2, method: "server/discover", params: { _meta: meta } },
  ], { until: 2 });
  const missing = answers.get(1)!.error as Rec;
  assert.equal(missing.code, -32602);
  assert.doesNotMatch(String(missing.message), /\n/);
  const discovered = answers.get(2)!.result as Rec;
  assert.deepEqual(discovered.supportedVersions, [MODERN_REVISION]);
  assert.deepEqual(
    (discovered.capabilities as Rec).experimental,
    { "claude/channel": {} },
  );
  const meta2 = discovered._meta as Record<string, Rec>;
  assert.equal(meta2["io.modelcontextprotocol/serverInfo"]?.name, "feishu-mcp");
  assert.match(String(discovered.instructions), /Feishu/);
});

/** Reads a stream line by line until a line matches. */
async function lineMatching(stream: ReadableStream<Uint8Array>, pattern: RegExp): Promise<string> {
  const lines = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  while (true) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`the stream ended before a line matched ${pattern}`);
    buffered += decoder.decode(value, { stream: true });
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    const hit = parts.find((l) => pattern.test(l));
    if (hit !== undefined) {
      lines.releaseLock();
      return hit;
    }
  }
}

Deno.test("a server started while the previous one on its workdir is exiting waits for it, then serves", async () => {
  // A dual-era client probes `server/discover` in a throwaway process and
  // starts the real one while the probe is still on its way out.
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-handover-" });
  const spawn = () =>
    new Deno.Command(Deno.execPath(), {
      args: startArgs(["--workdir", workdir]),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  const probe = spawn();
  const discover = {
    jsonrpc: "2.0",
    id: 1,
    method: "server/discover",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN_REVISION,
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  const probeIn = probe.stdin.getWriter();
  await probeIn.write(new TextEncoder().encode(JSON.stringify(discover) + "\n"));
  await lineMatching(probe.stdout, /"supportedVersions"/);

  const session = spawn();
  await lineMatching(session.stderr, /waiting for the previous server on this workdir to exit/);
  await probeIn.close();
  assert.equal((await probe.status).code, 0);
  await probe.stderr.cancel();

  const sessionIn = session.stdin.getWriter();
  await sessionIn.write(new TextEncoder().encode(JSON.stringify(LEGACY_OPENING[0]) + "\n"));
  const answer = JSON.parse(await lineMatching(session.stdout, /"id":0/)) as Rec;
  assert.equal((answer.result as Rec).protocolVersion, "2025-06-18");
  await sessionIn.close();
  assert.equal((await session.status).code, 0);
  await session.stderr.cancel().catch(() => {});
});
