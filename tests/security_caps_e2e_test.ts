/**
 * End to end: size caps and the right error codes, through the real MCP
 * client over stdio against the loopback emulator. Outbound text past its cap
 * is refused before anything reaches Feishu; inbound frames of any size Feishu
 * sends are journaled and recorded; an inbound file past its cap is stopped
 * and recorded as a failed attachment; numbers, patterns, credentials and
 * config values that used to end as misleading codes or wider permissions get
 * their own clear answer.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS, startEmulator } from "../lib/emulator/mod.ts";
import { startServer } from "./_server.ts";
import { D, startRig } from "./_outbound.ts";

const SECRET = DEFAULT_IDS.appSecret;

function account(url: string, extra: Record<string, unknown> = {}) {
  return { alias: "main", app_id: DEFAULT_IDS.appId, app_secret: SECRET, domain: url, ...extra };
}

const REFUSED: { name: string; config: (url: string) => unknown; line: string }[] = [
  {
    name: "a media root holding a comma",
    config: (url) => ({ accounts: [account(url)], media_roots: ["/tmp/x,/etc"] }),
    line:
      "config media_roots[0]: Expected a media root without ',' (a comma would widen the server's permissions)",
  },
  {
    name: "a domain holding a comma",
    config: (url) => ({ accounts: [account(`${url},evil.example`)] }),
    line:
      "config accounts[0].domain: Expected domain without ',' (a comma would widen the server's permissions)",
  },
  {
    name: "a transcriber whose program is an empty string",
    config: (url) => ({ accounts: [account(url)], transcriber: { command: [""] } }),
    line:
      "config transcriber.command: Expected the program (the first element) to be a non-empty string",
  },
];

for (const bad of REFUSED) {
  Deno.test(`a config with ${bad.name} is refused at start with one clear line on stderr and in status`, async () => {
    await using emu = await startEmulator();
    const server = await startServer({ config: bad.config(emu.url) });
    try {
      assert.equal((await server.call("accounts", {})).error_code, "NOT_CONNECTED");
      const status = JSON.parse(await server.resource("lingtai://status"));
      assert.equal(status.status, "degraded");
      assert.equal(server.stderr().split("\n").filter((l) => l.includes(bad.line)).length, 1);
      assert.deepEqual(status.notes.filter((n: string) => n.includes("config ")), [bad.line]);
      assert.deepEqual(status.permissions.read_outside_workdir, false);
    } finally {
      await server.close();
    }
  });
}

Deno.test("a wrong app secret answers PERMISSION_DENIED, not retryable, and sends nothing", async () => {
  await using emu = await startEmulator();
  const server = await startServer({
    config: { accounts: [account(emu.url, { app_secret: "not-the-secret" })] },
  });
  try {
    const sent = await server.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "hi",
    });
    assert.equal(sent.error_code, "PERMISSION_DENIED", JSON.stringify(sent));
    assert.equal(sent.retryable, false);
    assert.match(String(sent.message), /app secret invalid/);
    assert.equal(emu.messages(D.aliceP2p).length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("read with limit 1e308 is INVALID_ARGUMENT and a 200 KB search pattern is refused without being echoed", async () => {
  await using rig = await startRig();
  const read = await rig.call("read", { chat_id: D.aliceP2p, limit: 1e308 });
  assert.equal(read.error_code, "INVALID_ARGUMENT", JSON.stringify(read));
  assert.match(String(read.message), /limit/);
  const pattern = "a".repeat(200_000);
  const before = rig.server.stderr().length;
  const found = await rig.call("search", { query: pattern });
  assert.equal(found.error_code, "INVALID_ARGUMENT");
  assert.match(String(found.message), /at most 1000 code points but found 200000/);
  assert.ok(JSON.stringify(found).length < 1000, "the result stays small");
  assert.ok(!rig.server.stderr().slice(before).includes("a".repeat(1001)), "the log stays small");
  // A pattern at the documented length still runs.
  const ok = await rig.call("search", { query: "a".repeat(1000) });
  assert.equal(ok.status, "ok", JSON.stringify(ok));
});

Deno.test("a 1 MB text send is FORMAT_ERROR naming the cap and no message reaches Feishu", async () => {
  await using rig = await startRig();
  const before = rig.emu.messages(D.aliceP2p).length;
  const sent = await rig.call("send", {
    receive_id: D.aliceP2p,
    receive_id_type: "chat_id",
    text: "x".repeat(1_000_000),
  });
  assert.equal(sent.error_code, "FORMAT_ERROR", JSON.stringify(sent).slice(0, 300));
  assert.equal(sent.retryable, false);
  assert.match(String(sent.message), /at most 100000 code points/);
  assert.match(String(sent.message), /limits\.outbound_text_code_points/);
  assert.match(String(sent.message), /as a file/);
  const md = await rig.call("send", {
    receive_id: D.aliceP2p,
    receive_id_type: "chat_id",
    content: { type: "markdown", markdown: "y".repeat(100_001) },
  });
  assert.equal(md.error_code, "FORMAT_ERROR");
  assert.match(String(md.message), /found 100001/);
  assert.equal(rig.emu.messages(D.aliceP2p).length, before);
});

Deno.test("the outbound text cap is configurable and applies to send, reply and edit", async () => {
  await using rig = await startRig({ config: { limits: { outbound_text_code_points: 10 } } });
  const over = await rig.call("send", {
    receive_id: D.aliceP2p,
    receive_id_type: "chat_id",
    text: "12345678901",
  });
  assert.equal(over.error_code, "FORMAT_ERROR");
  assert.match(String(over.message), /at most 10 code points .* found 11/);
  const sent = await rig.call("send", {
    receive_id: D.aliceP2p,
    receive_id_type: "chat_id",
    text: "1234567890",
  });
  assert.equal(sent.status, "sent", JSON.stringify(sent));
  const edited = await rig.call("edit", { message_id: sent.message_id, text: "12345678901" });
  assert.equal(edited.error_code, "FORMAT_ERROR");
  const reply = await rig.call("reply", { message_id: sent.message_id, text: "12345678901" });
  assert.equal(reply.error_code, "FORMAT_ERROR");
  assert.deepEqual(rig.botTexts(D.aliceP2p), ["1234567890"]);
});

async function filesUnder(dir: string): Promise<{ path: string; size: number }[]> {
  const out: { path: string; size: number }[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesUnder(p));
    else out.push({ path: p, size: (await Deno.stat(p)).size });
  }
  return out;
}

Deno.test("an inbound file over the configured cap is recorded with a failed attachment naming the cap and nothing over it on disk", async () => {
  const cap = 1024 * 1024;
  await using rig = await startRig({ config: { limits: { inbound_download_bytes: cap } } });
  const big = await rig.inbound({
    user: D.alice.openId,
    chat: D.aliceP2p,
    file: { bytes: new Uint8Array(2 * cap).fill(1), name: "big.bin" },
  });
  const small = await rig.inbound({
    user: D.alice.openId,
    chat: D.aliceP2p,
    file: { bytes: new Uint8Array(cap).fill(2), name: "small.bin" },
  });
  const read = await rig.call("read", { chat_id: D.aliceP2p });
  const messages = read.messages as Record<string, unknown>[];
  const byId = (id: string) => messages.find((m) => m.id === id)!;
  const [failed] = byId(big.id).attachments as Record<string, unknown>[];
  assert.equal(failed!.status, "failed");
  assert.match(String(failed!.error), /larger than the 1048576-byte cap/);
  assert.match(String(failed!.error), /limits\.inbound_download_bytes/);
  const [ok] = byId(small.id).attachments as Record<string, unknown>[];
  assert.equal(ok!.status, "downloaded");
  assert.equal(ok!.size, cap);
  const files = await filesUnder(`${rig.server.workdir}/feishu/main/attachments`);
  assert.deepEqual(files.map((f) => f.size), [cap]);
  assert.ok(!files.some((f) => f.path.includes(big.messageId)));
});

Deno.test("a 1 MB inbound frame is journaled, ACKed and recorded whole", async () => {
  await using rig = await startRig();
  const text = "长".repeat(350_000); // about 1 MB of UTF-8 in the event
  const got = await rig.inbound({ user: D.alice.openId, chat: D.aliceP2p, text });
  const read = await rig.call("read", { chat_id: D.aliceP2p });
  const messages = read.messages as Record<string, unknown>[];
  const message = messages.find((m) => m.id === got.id);
  assert.ok(message, "the large message was recorded");
  assert.equal(String(message.text).length, text.length);
  assert.equal(rig.emu.events().filter((e) => e.status !== "acked").length, 0);
});
