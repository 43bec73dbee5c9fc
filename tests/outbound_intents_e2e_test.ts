/**
 * End to end, sends as durable intents: the real server (a subprocess, the
 * real MCP client over stdio) against the emulator.
 * - `kill -9` in the middle of a 12-chunk markdown send: the restarted server
 *   finishes it under the same uuids (each chunk exactly once in the chat,
 *   one complete record), and the agent's repeat without a key posts nothing
 *   again; a send cut off longer ago than Feishu's uuid window is recorded as
 *   the partial message it is.
 * - A create answered only after the request timeout is tried again under its
 *   uuid on a fresh connection: the result says delivered, the chat holds it
 *   once, the record exists; a chunk never answered is reported as of
 *   unknown fate, and repeating the call completes the message without a
 *   second copy of anything.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  type RequestRecord,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { serverPid, until } from "./_inbound.ts";
import { startServer, type TestServer } from "./_server.ts";

const CREATE = "/open-apis/im/v1/messages";
const CHAT = D.team;
const WORDS = [
  "Alpha",
  "Bravo",
  "Charlie",
  "Delta",
  "Echo",
  "Foxtrot",
  "Golf",
  "Hotel",
  "India",
  "Juliett",
  "Kilo",
  "Lima",
];

/** Markdown of one ~3000-character paragraph per word: one chunk each. */
const paragraphs = (words: readonly string[]) =>
  words.map((w) => `${w} `.repeat(Math.floor(3000 / (w.length + 1))).trim()).join("\n\n");

const sendInput = (words: readonly string[]) => ({
  receive_id: CHAT,
  receive_id_type: "chat_id",
  content: { type: "markdown", markdown: paragraphs(words) },
});

/** The first word of each bot message in the chat, oldest first. */
function chunkWords(emu: Emulator): string[] {
  return emu.messages(CHAT).filter((m) => m.sender.type === "app").map((m) => {
    const rows = JSON.parse(m.content).content as { text: string }[][];
    return rows[0]![0]!.text.split(" ")[0]!;
  });
}

const bodyOf = (r: RequestRecord) => r.body as { content?: string; uuid?: string };
const creates = (emu: Emulator) => emu.requests({ method: "POST", path: CREATE });
const createOf = (word: string) => (r: RequestRecord) =>
  bodyOf(r).content?.includes(`${word} ${word}`) ?? false;

function start(
  emu: Emulator,
  options: { workdir?: string; env?: Record<string, string> } = {},
): Promise<TestServer> {
  return startServer({
    workdir: options.workdir,
    env: options.env,
    config: {
      accounts: [{
        alias: "main",
        app_id: D.appId,
        app_secret: D.appSecret,
        domain: emu.url,
      }],
    },
  });
}

async function records(server: TestServer): Promise<Record<string, unknown>[]> {
  return (await server.call("read", { chat_id: CHAT })).messages as Record<string, unknown>[];
}

/** Starts a 12-chunk send whose 7th create hangs, and kills the server there (`kill -9`). */
async function killMidSend(emu: Emulator): Promise<{ workdir: string; firstIds: string[] }> {
  const server = await start(emu);
  await server.call("accounts", {});
  emu.faults.add({ method: "POST", path: CREATE, when: createOf(WORDS[6]!), respond: "hang" });
  const pending = server.call("send", sendInput(WORDS)).catch(() => null);
  await emu.waitFor(() => creates(emu).some(createOf(WORDS[6]!)));
  assert.deepEqual(chunkWords(emu), WORDS.slice(0, 6));
  Deno.kill(await serverPid(server.workdir), "SIGKILL");
  await pending;
  await server.close();
  emu.faults.clear();
  const firstIds = emu.messages(CHAT).map((m) => m.messageId);
  return { workdir: server.workdir, firstIds };
}

Deno.test("kill -9 mid-send: the restart finishes the message under its uuids, and a repeat posts nothing again", async () => {
  await using emu = await startEmulator();
  const { workdir, firstIds } = await killMidSend(emu);

  const server = await start(emu, { workdir });
  try {
    await server.call("accounts", {});
    const [rec] = await until(async () => {
      const rs = await records(server);
      return rs.length > 0 && rs;
    }, { what: "the recovered send's record" });
    assert.equal(rec!.status, "sent", JSON.stringify(rec));
    const ids = (rec!.message_ids as string[]).map((id) => id.split(":")[2]);
    assert.equal(ids.length, 12);
    assert.deepEqual(ids.slice(0, 6), firstIds, "the delivered chunks kept their ids");
    assert.deepEqual(chunkWords(emu), WORDS, "each chunk exactly once, in order");
    // Chunks 1-6 went out again under their uuids: Feishu answered the messages it had.
    const uuidsOf = (word: string) =>
      creates(emu).filter(createOf(word)).map((r) => bodyOf(r).uuid);
    for (const word of WORDS.slice(0, 7)) {
      const uuids = uuidsOf(word);
      assert.equal(new Set(uuids).size, 1, `${word}: one uuid across the crash`);
    }

    const before = creates(emu).length;
    const repeat = await server.call("send", sendInput(WORDS));
    assert.equal(repeat.status, "sent", JSON.stringify(repeat));
    assert.deepEqual(repeat.message_ids, rec!.message_ids);
    assert.deepEqual(chunkWords(emu), WORDS, "the repeat posted no chunk again");
    assert.ok(creates(emu).length > before, "the repeat asked Feishu under the same uuids");
    assert.equal((await records(server)).length, 1, "no second record");
  } finally {
    await server.close();
  }
});

Deno.test("kill -9 mid-send, restarted past the uuid window: a partial record of the delivered chunks, nothing resent", async () => {
  await using emu = await startEmulator();
  const { workdir, firstIds } = await killMidSend(emu);
  // Two hours pass before the restart: the intent is older than Feishu's uuid window.
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"));
  db.exec("UPDATE send_intents SET created_at = created_at - 7200000");
  db.close();

  const before = creates(emu).length;
  const server = await start(emu, { workdir });
  try {
    await server.call("accounts", {});
    const [rec] = await until(async () => {
      const rs = await records(server);
      return rs.length > 0 && rs;
    }, { what: "the partial record" });
    assert.equal(rec!.status, "partial", JSON.stringify(rec));
    assert.equal(rec!.partial_delivery, true);
    assert.equal(rec!.chunk_count, 12);
    assert.equal(rec!.delivered_chunk_count, 6);
    assert.deepEqual((rec!.message_ids as string[]).map((id) => id.split(":")[2]), firstIds);
    assert.equal(creates(emu).length, before, "nothing sent with uuids Feishu may have forgotten");
    assert.deepEqual(chunkWords(emu), WORDS.slice(0, 6));
  } finally {
    await server.close();
  }
});

Deno.test("a create answered after the request timeout is tried again under its uuid: delivered once, recorded, never re-sent by Deno", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  const server = await start(emu, { env: { FEISHU_MCP_REQUEST_TIMEOUT_MS: "1500" } });
  try {
    // A first send leaves a kept-alive connection behind, the one Deno would re-send on.
    const before = creates(emu).length;
    const warm = await server.call("send", {
      receive_id: CHAT,
      receive_id_type: "chat_id",
      text: "warm",
    });
    assert.equal(warm.status, "sent");
    assert.equal(creates(emu).length, before + 1, "one create for one chunk on the happy path");
    // The next create is held until the emulator clock moves: far past the client's timeout.
    emu.faults.add({ method: "POST", path: CREATE, times: 1, respond: { delayMs: 60_000 } });
    const out = await server.call("send", {
      receive_id: CHAT,
      receive_id_type: "chat_id",
      text: "late",
    });
    assert.equal(out.status, "sent", JSON.stringify(out));
    const id = (out.message_ids as string[])[0]!;
    clock.advance(60_000);
    const late = () => creates(emu).filter((r) => bodyOf(r).content?.includes("late"));
    await emu.waitFor(() => late().every((r) => r.status !== undefined));
    assert.equal(late().length, 2, "the held try and one retry: no third POST re-sent by Deno");
    assert.equal(new Set(late().map((r) => bodyOf(r).uuid)).size, 1, "both under one uuid");
    const texts = emu.messages(CHAT).map((m) => JSON.parse(m.content).text);
    assert.deepEqual(texts, ["warm", "late"], "delivered exactly once");
    const rec = (await records(server)).find((r) => r.id === id);
    assert.equal(rec?.status, "sent");
  } finally {
    await server.close();
  }
});

Deno.test("a chunk never answered is reported as unknown, not failed, and repeating the call completes the message without a second copy", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  const server = await start(emu, { env: { FEISHU_MCP_REQUEST_TIMEOUT_MS: "1500" } });
  try {
    await server.call("accounts", {});
    const words = WORDS.slice(0, 3);
    // Chunk 2 and both of its retries are held until the clock moves.
    emu.faults.add({
      method: "POST",
      path: CREATE,
      times: 3,
      when: createOf(words[1]!),
      respond: { delayMs: 60_000 },
    });
    const out = await server.call("send", sendInput(words));
    assert.equal(out.status, "failed", JSON.stringify(out));
    assert.equal(out.partial_delivery, true);
    assert.equal(out.delivered_chunk_count, 1);
    assert.equal(out.unknown_chunk_index, 2);
    assert.equal(out.failed_chunk_index, undefined, "not claimed as failed");
    assert.match(String(out.warning), /may or may not have arrived/);
    const partial = (await records(server)).find((r) => r.id === (out.message_ids as string[])[0]);
    assert.equal(partial?.unknown_chunk_index, 2, "read says which chunk's fate is unknown");
    assert.equal(partial?.failed_chunk_index, null);
    // The held tries land after all: Feishu has chunk 2 (once), the bridge did not hear it.
    clock.advance(60_000);
    await emu.waitFor(() => creates(emu).every((r) => r.status !== undefined));
    assert.deepEqual(chunkWords(emu), words.slice(0, 2));

    const repeat = await server.call("send", sendInput(words));
    assert.equal(repeat.status, "sent", JSON.stringify(repeat));
    assert.equal(repeat.chunk_count, 3);
    assert.deepEqual(chunkWords(emu), words, "chunks 1 and 2 were not posted again");
    const rs = await records(server);
    assert.equal(rs.length, 1);
    assert.equal(rs[0]!.status, "sent");
    assert.deepEqual(rs[0]!.message_ids, repeat.message_ids);
  } finally {
    await server.close();
  }
});
