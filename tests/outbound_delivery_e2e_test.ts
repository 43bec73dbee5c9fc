/**
 * End to end over stdio against the emulator: what chunking does to
 * adversarial markdown as Feishu stores it, partial delivery and its replay
 * with the same `idempotency_key`, and pacing under a burst with the
 * emulator's 5-per-second chat limiter on.
 */

import assert from "node:assert/strict";
import { codePointLength } from "../lib/core/mod.ts";
import { makeChat } from "../lib/emulator/mod.ts";
import {
  materialise,
  normaliseOutbound,
  requestBytes,
  splitMarkdown,
} from "../lib/outbound/mod.ts";
import { until } from "./_inbound.ts";
import { D, type Rig, startRig } from "./_outbound.ts";

/** Adds a group with the bot and Alice in it. */
function addGroup(rig: Rig, chatId: string): string {
  rig.emu.world.addChat(makeChat({
    chatId,
    name: chatId,
    mode: "group",
    members: [D.alice.openId],
    bots: [D.appId],
  }));
  return chatId;
}

/** The `md` texts of the posts a send created, in the order Feishu stored them. */
function storedChunks(rig: Rig, chatId: string, ids: string[]): string[] {
  const physical = ids.map((id) => id.split(":")[2]);
  const stored = rig.emu.messages(chatId).filter((m) => physical.includes(m.messageId));
  assert.deepEqual(stored.map((m) => m.messageId), physical, "Feishu stored the chunks in order");
  return stored.map((m) => {
    const rows = JSON.parse(m.content).content as { tag: string; text: string }[][];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.length, 1);
    assert.equal(rows[0]![0]!.tag, "md");
    return rows[0]![0]!.text;
  });
}

const fence = (lang: string, lines: number) =>
  "```" + lang + "\n" +
  Array.from({ length: lines }, (_, i) => `    value_${i} = compute(${i}) # step ${i}`).join("\n") +
  "\n```";
const table = (rows: number) =>
  "| id | name | note |\n|---:|:-----|------|\n" +
  Array.from({ length: rows }, (_, i) => `| ${i} | row ${i} | 备注 ${i} 😀 |`).join("\n");

/** Markdown of one ~3000-character paragraph per word: one chunk each. */
const paragraphs = (words: string[]) =>
  words.map((w) => `${w} `.repeat(Math.floor(3000 / (w.length + 1))).trim()).join("\n\n");

const DOCS: { name: string; md: string }[] = [
  { name: "a long python code block", md: "Intro line.\n\n" + fence("python", 500) + "\n\nAfter." },
  { name: "a table of 400 rows", md: "# Report\n\n" + table(400) + "\n\nEnd of report." },
  {
    name: "CJK prose without any newline",
    md: "这是一段没有换行的中文文本，用来测试切分。".repeat(700),
  },
  { name: "emoji ZWJ families without newlines", md: "👨‍👩‍👧‍👦".repeat(1500) },
  {
    name: "one 12 000-character line of words",
    md: Array.from({ length: 2000 }, (_, i) => `word${i}`).join(" "),
  },
  {
    name: "mixed headings, lists, quotes, ~~~ and c++ fences, mentions",
    md: Array.from(
      { length: 30 },
      (_, i) =>
        `## Section ${i}\n\n- item with <at user_id="${D.alice.openId}">Alice</at> mention\n- second 🚀\n\n` +
        `> quoted ${i}\n\n~~~c++\nint main() { return ${i}; }\n~~~\n\n` +
        "Paragraph text. ".repeat(20),
    ).join("\n\n"),
  },
];

Deno.test("outbound delivery end to end: chunking as stored, partial delivery and replay, pacing", async (t) => {
  await using rig = await startRig();

  await t.step(
    "adversarial chunk boundaries: what Feishu stored reassembles into the document",
    async () => {
      const chats = DOCS.map((_, i) => addGroup(rig, `oc_chunks_${i}`));
      const results = await Promise.all(DOCS.map((doc, i) =>
        rig.call("send", {
          receive_id: chats[i],
          receive_id_type: "chat_id",
          content: { type: "markdown", markdown: doc.md },
        })
      ));
      for (const [i, doc] of DOCS.entries()) {
        const out = results[i]!;
        assert.equal(out.status, "sent", `${doc.name}: ${JSON.stringify(out).slice(0, 300)}`);
        const expected = splitMarkdown(doc.md, { limit: 3500 });
        const wire = storedChunks(rig, chats[i]!, out.message_ids as string[]);
        assert.ok(wire.length > 1, `${doc.name} was split`);
        assert.deepEqual(wire, expected.chunks.map((c) => c.text), doc.name);
        // Strip the synthetic fence markers and repeated headers: the source comes back whole.
        let cursor = 0;
        for (const [k, c] of expected.chunks.entries()) {
          const text = wire[k]!;
          assert.ok(text.startsWith(c.prefix) && text.endsWith(c.suffix), doc.name);
          assert.equal(
            text.slice(c.prefix.length, text.length - c.suffix.length),
            doc.md.slice(c.start, c.end),
          );
          assert.equal(
            doc.md.slice(cursor, c.start).trim(),
            "",
            `${doc.name}: nothing lost before chunk ${k + 1}`,
          );
          cursor = c.end;
          assert.ok(
            codePointLength(text) - c.uncounted <= 3500,
            `${doc.name}: chunk ${k + 1} within 3500`,
          );
          assert.ok(text.isWellFormed(), `${doc.name}: chunk ${k + 1} has no broken surrogate`);
        }
        assert.equal(doc.md.slice(cursor).trim(), "", `${doc.name}: nothing lost at the end`);
        const normalised = await normaliseOutbound({
          content: { type: "markdown", markdown: doc.md },
        });
        for (const body of materialise(normalised).bodies) assert.ok(requestBytes(body) <= 30_000);
      }
      const [code, tbl, , emoji, words, mixed] = DOCS.map((_, i) =>
        storedChunks(rig, chats[i]!, results[i]!.message_ids as string[])
      );
      // A split fence is closed and reopened with its info string.
      for (const [k, text] of code!.entries()) {
        if (k > 0) assert.ok(text.startsWith("```python\n"));
        if (k < code!.length - 1) assert.ok(text.endsWith("\n```"));
      }
      // A split table repeats its header and delimiter rows.
      for (const text of tbl!.slice(1)) {
        assert.ok(
          text.startsWith("| id | name | note |\n|---:|:-----|------|\n"),
        );
      }
      // Families stay whole: each chunk is a whole number of them.
      for (const text of emoji!) assert.equal(text.replaceAll("👨‍👩‍👧‍👦", ""), "");
      // A long line of words is cut after a space, never inside a word.
      for (const text of words!) assert.match(text, /^word\d+( word\d+)* ?$/);
      // Mentions and ~~~ fences are never cut.
      for (const text of mixed!) {
        assert.equal((text.match(/<at /g) ?? []).length, (text.match(/<\/at>/g) ?? []).length);
        assert.equal((text.match(/^~~~/gm) ?? []).length % 2, 0);
      }
      // The chunker's compromises are reported to the agent.
      const tableResult = results[1]!;
      assert.ok((tableResult.warnings as string[]).some((w) => /split by rows/.test(w)));
    },
  );

  await t.step(
    "a failed middle chunk, then a replay with the same idempotency_key: one copy of every chunk",
    async () => {
      const chat = addGroup(rig, "oc_replay");
      const md = paragraphs(["One", "Two", "Three"]);
      const input = {
        receive_id: chat,
        receive_id_type: "chat_id",
        content: { type: "markdown", markdown: md },
        idempotency_key: "report-2026-08-03",
      };
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: {},
      });
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: { status: 500, code: 55001, msg: "internal error" },
      });
      const partial = await rig.call("send", input);
      assert.equal(partial.status, "failed");
      assert.equal(partial.partial_delivery, true);
      assert.equal(partial.error_code, "UNKNOWN");
      assert.equal(partial.delivered_chunk_count, 1);
      assert.equal(partial.failed_chunk_index, 2);
      assert.equal(partial.chunk_count, 3);
      assert.match(String(partial.warning), /idempotency_key/);
      assert.equal(rig.emu.messages(chat).length, 1);
      const first = (partial.message_ids as string[])[0]!;
      assert.equal(
        ((await rig.call("read", { chat_id: chat })).messages as Record<string, unknown>[])[0]!
          .status,
        "partial",
      );

      const replay = await rig.call("send", input);
      assert.equal(replay.status, "sent", JSON.stringify(replay));
      assert.equal(replay.chunk_count, 3);
      assert.equal((replay.message_ids as string[])[0], first);
      const texts = storedChunks(rig, chat, replay.message_ids as string[]);
      assert.deepEqual(texts.map((t) => t.split(" ")[0]), ["One", "Two", "Three"]);
      assert.equal(rig.emu.messages(chat).length, 3, "exactly one copy of every chunk");
      const uuids = rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" })
        .filter((r) => (r.body as { receive_id?: string }).receive_id === chat)
        .map((r) => (r.body as { uuid: string }).uuid);
      assert.equal(uuids.length, 5);
      assert.equal(uuids[0], uuids[2], "chunk 1 replayed with its uuid");
      assert.equal(uuids[1], uuids[3], "chunk 2 retried with its uuid");
      const records = (await rig.call("read", { chat_id: chat })).messages as Record<
        string,
        unknown
      >[];
      assert.equal(records.length, 1);
      assert.equal(records[0]!.status, "sent");
      assert.deepEqual(records[0]!.message_ids, replay.message_ids);
    },
  );

  await t.step(
    "a send whose chunk 2 is rate limited (retry after 2): 2 creates, a partial result and a partial record",
    async () => {
      const chat = addGroup(rig, "oc_partial_send");
      const md = paragraphs(["Alpha", "Beta", "Gamma"]);
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: {},
      });
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: {
          code: 230020,
          msg: "request trigger frequency limit, ext=chat rate limit",
          headers: { "Retry-After": "2" },
        },
      });
      const before = rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
      const input = {
        receive_id: chat,
        receive_id_type: "chat_id",
        content: { type: "markdown", markdown: md },
      };
      const out = await rig.call("send", input);
      assert.equal(
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
        before + 2,
      );
      assert.equal(out.status, "failed");
      assert.equal(out.partial_delivery, true);
      assert.equal(out.error_code, "RATE_LIMITED");
      assert.equal(out.retryable, true);
      assert.equal(out.retry_after_seconds, 2);
      assert.equal(out.automatic_retry_allowed, false);
      assert.equal(out.chunk_count, 3);
      assert.equal(out.delivered_chunk_count, 1);
      assert.equal(out.failed_chunk_index, 2);
      assert.equal(out.content_type, "markdown");
      assert.match(String(out.warning), /Do not retry the whole action/);
      assert.equal((out.message_ids as string[]).length, 1);
      const rec =
        ((await rig.call("read", { chat_id: chat })).messages as Record<string, unknown>[])[0]!;
      assert.equal(rec.status, "partial");
      assert.equal(rec.partial_delivery, true);
      assert.equal(rec.automatic_retry_allowed, false);
      assert.equal(rec.failed_chunk_index, 2);
      assert.equal(rec.error_code, "RATE_LIMITED");
      assert.equal(rec.retry_after_seconds, 2);
      // The partial send counted for the duplicate guard: one more identical send passes, the next is blocked.
      assert.equal((await rig.call("send", input)).status, "sent");
      assert.equal((await rig.call("send", input)).error_code, "DUPLICATE_BLOCKED");
    },
  );

  await t.step(
    "a topic reply whose chunk 2 is rate limited: partial, in the thread, no THUMBSUP, a partial record",
    async () => {
      const target = await rig.inbound({
        user: D.alice.openId,
        chat: D.topics,
        text: "long answer please",
      });
      const threadId = target.push.meta.thread_id;
      rig.emu.faults.add({ path: "/open-apis/im/v1/messages/:id/reply", times: 1, respond: {} });
      rig.emu.faults.add({
        path: "/open-apis/im/v1/messages/:id/reply",
        times: 1,
        respond: {
          code: 230020,
          msg: "request trigger frequency limit",
          headers: { "Retry-After": "2" },
        },
      });
      const out = await rig.call("reply", {
        message_id: target.id,
        content: {
          type: "markdown",
          markdown: `${"Part one ".repeat(350)}\n\n${"Part two ".repeat(350)}`,
        },
      });
      assert.equal(out.status, "failed");
      assert.equal(out.partial_delivery, true);
      assert.equal(out.error_code, "RATE_LIMITED");
      assert.equal(out.retryable, true);
      assert.equal(out.chunk_count, 2);
      assert.equal(out.delivered_chunk_count, 1);
      assert.equal(out.reply_in_thread, true);
      assert.equal(out.thread_id, threadId);
      assert.match(String(out.warning), /Do not retry the whole action/);
      // The Typing goes once the chat's lane is past the limit (the result did not wait for
      // it); once nothing of presence waits, no THUMBSUP was added.
      await rig.emu.waitFor(() =>
        !rig.emu.reactions(target.messageId).some((r) => r.emojiType === "Typing")
      );
      await until(async () => {
        const status = JSON.parse(await rig.server.resource("lingtai://status"));
        return status.accounts[0].presence.queued === 0;
      }, { what: "presence drained" });
      assert.deepEqual(rig.emu.reactions(target.messageId).map((r) => r.emojiType), ["OK"]);
      const rec = ((await rig.call("read", { chat_id: D.topics, limit: 1 })).messages as Record<
        string,
        unknown
      >[])[0]!;
      assert.equal(rec.status, "partial");
      assert.equal(rec.failed_chunk_index, 2);
      assert.equal(rec.reply_to, target.id);
    },
  );

  await t.step(
    "a burst of 50 sends to one chat under the 5-per-second limiter: zero 230020, all 50 delivered in order",
    async () => {
      const chat = addGroup(rig, "oc_burst");
      rig.emu.faults.setChatRateLimit(5);
      const seen = rig.emu.requests().length;
      try {
        const results = await Promise.all(
          Array.from(
            { length: 50 },
            (_, i) =>
              rig.call("send", {
                receive_id: chat,
                receive_id_type: "chat_id",
                text: `burst ${i}`,
              }),
          ),
        );
        assert.deepEqual(results.map((r) => r.status), Array(50).fill("sent"));
        const burst = rig.emu.requests().slice(seen);
        assert.equal(burst.filter((r) => r.method === "POST").length, 50);
        assert.equal(burst.filter((r) => r.code === 230020).length, 0);
        assert.deepEqual(rig.botTexts(chat), Array.from({ length: 50 }, (_, i) => `burst ${i}`));
      } finally {
        rig.emu.faults.setChatRateLimit(false);
      }
    },
  );
});
