/**
 * End to end over stdio against the emulator: `reply` (topics, THUMBSUP,
 * Typing, recalled targets), the duplicate guard, native progress cards, and
 * `edit` / `delete` on whole chunk groups with their lifecycle records.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Emulator, RequestRecord } from "../lib/emulator/mod.ts";
import { D, type Rig, startRig } from "./_outbound.ts";

/** Requests that change something at Feishu (token fetches and reads excluded). */
function writes(emu: Emulator): RequestRecord[] {
  return emu.requests().filter((r) => r.method !== "GET" && !r.path.includes("/auth/"));
}

async function recordOf(rig: Rig, chatId: string, id: string): Promise<Record<string, unknown>> {
  const out = await rig.call("read", { chat_id: chatId, limit: null });
  const found = (out.messages as Record<string, unknown>[]).find((m) => m.id === id);
  assert.ok(found, `no record ${id} in ${chatId}`);
  return found;
}

const emojis = (rig: Rig, messageId: string) =>
  rig.emu.reactions(messageId).map((r) => r.emojiType).sort();

/** Waits until a message carries exactly these reactions (presence goes out after the result). */
const settlesOn = (rig: Rig, messageId: string, expected: string[]) =>
  rig.emu.waitFor(() => emojis(rig, messageId).join() === expected.join());

/** A markdown document that materialises into `n` chunks, each starting with `mark`. */
const chunks = (marks: string[]) => marks.map((m) => m.repeat(3000)).join("\n\n");

Deno.test("outbound replies, progress cards and lifecycle end to end", async (t) => {
  await using rig = await startRig();

  await t.step(
    "reply to a topic message follows its thread by default; an explicit false is honoured",
    async () => {
      const target = await rig.inbound({
        user: D.alice.openId,
        chat: D.topics,
        text: "topic question",
      });
      const threadId = target.push.meta.thread_id;
      assert.ok(threadId);
      const threaded = await rig.call("reply", { message_id: target.id, text: "in the topic" });
      assert.equal(threaded.status, "sent");
      assert.equal(threaded.reply_in_thread, true);
      assert.equal(threaded.thread_id, threadId);
      const body = rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).at(-1)!
        .body as Record<string, unknown>;
      assert.equal(body.reply_in_thread, true);
      const rec = await recordOf(rig, D.topics, String(threaded.message_id));
      assert.equal(rec.reply_in_thread, true);
      assert.equal(rec.thread_id, threadId);
      assert.equal(rec.reply_to, target.id);
      assert.deepEqual(rec.to, { receive_id: D.topics, receive_id_type: "chat_id" });

      const flat = await rig.call("reply", {
        message_id: target.id,
        text: "flat",
        reply_in_thread: false,
      });
      assert.equal(flat.reply_in_thread, false);
      const flatBody = rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).at(-1)!
        .body as Record<string, unknown>;
      assert.equal(flatBody.reply_in_thread, false);
      assert.equal((await recordOf(rig, D.topics, String(flat.message_id))).reply_in_thread, false);
    },
  );

  await t.step(
    "a successful reply adds THUMBSUP to the target and removes the chat's Typing",
    async () => {
      const target = await rig.inbound({
        user: D.alice.openId,
        chat: D.aliceP2p,
        text: "hello bot",
      });
      await settlesOn(rig, target.messageId, ["OK", "Typing"]);
      const out = await rig.call("reply", { message_id: target.id, text: "hello human" });
      assert.equal(out.status, "sent");
      await settlesOn(rig, target.messageId, ["OK", "THUMBSUP"]);
      const reaction = rig.emu.requests({
        method: "POST",
        path: "/open-apis/im/v1/messages/:id/reactions",
      }).at(-1)!;
      assert.equal(reaction.path, `/open-apis/im/v1/messages/${target.messageId}/reactions`);
      assert.deepEqual(reaction.body, { reaction_type: { emoji_type: "THUMBSUP" } });
    },
  );

  await t.step(
    "a send to the user's open_id removes the chat's Typing (the chat Feishu returned)",
    async () => {
      const target = await rig.inbound({
        user: D.bob.openId,
        chat: D.bobP2p,
        text: "are you there",
      });
      await settlesOn(rig, target.messageId, ["OK", "Typing"]);
      const out = await rig.call("send", { receive_id: D.bob.openId, text: "yes" });
      assert.equal(out.status, "sent");
      await settlesOn(rig, target.messageId, ["OK"]);
    },
  );

  await t.step(
    "a failed send to an open_id still removes Typing by its receive target",
    async () => {
      const target = await rig.inbound({ user: D.bob.openId, chat: D.bobP2p, text: "again" });
      await settlesOn(rig, target.messageId, ["OK", "Typing"]);
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: { code: 230013, msg: "no availability" },
      });
      const out = await rig.call("send", { receive_id: D.bob.openId, text: "lost" });
      assert.equal(out.error_code, "PERMISSION_DENIED");
      await settlesOn(rig, target.messageId, ["OK"]);
    },
  );

  await t.step(
    "the third identical send is DUPLICATE_BLOCKED, reaches nobody and leaves Typing alone",
    async () => {
      const first = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "same words",
      });
      const second = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "same words",
      });
      assert.equal(first.status, "sent");
      assert.equal(second.status, "sent");
      const target = await rig.inbound({ user: D.alice.openId, chat: D.team, text: "ping" });
      await settlesOn(rig, target.messageId, ["OK", "Typing"]);
      const before = writes(rig.emu).length;
      const third = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "same words",
      });
      assert.deepEqual(third, {
        status: "failed",
        error: "Identical message already sent. Think twice before repeating.",
        message: "Identical message already sent. Think twice before repeating.",
        error_code: "DUPLICATE_BLOCKED",
        retryable: false,
        retry_after_seconds: null,
        warning: "Identical message already sent. Think twice before repeating.",
      });
      assert.equal(writes(rig.emu).length, before);
      assert.deepEqual(emojis(rig, target.messageId), ["OK", "Typing"]);
      await rig.call("reply", { message_id: target.id, text: "clearing typing" });
    },
  );

  await t.step(
    "a reply to a recalled target is TARGET_REVOKED after exactly one reply call, and no fresh message appears",
    async () => {
      const target = await rig.inbound({
        user: D.alice.openId,
        chat: D.aliceP2p,
        text: "never mind",
      });
      rig.emu.recall({ messageId: target.messageId });
      const replies = rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).length;
      const creates =
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
      const messages = rig.emu.messages(D.aliceP2p).length;
      const out = await rig.call("reply", { message_id: target.id, text: "too late" });
      assert.equal(out.status, "failed");
      assert.equal(out.error_code, "TARGET_REVOKED");
      assert.equal(out.retryable, false);
      assert.match(String(out.error), /230011/);
      assert.equal(
        rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).length,
        replies + 1,
      );
      assert.equal(
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
        creates,
      );
      assert.equal(rig.emu.messages(D.aliceP2p).length, messages);
      assert.equal(emojis(rig, target.messageId).includes("THUMBSUP"), false);
    },
  );

  await t.step(
    "provider 230002 on a reply is TARGET_REVOKED with one reply call and zero creates",
    async () => {
      const target = await rig.inbound({ user: D.alice.openId, chat: D.aliceP2p, text: "q" });
      rig.emu.faults.add({
        path: "/open-apis/im/v1/messages/:id/reply",
        times: 1,
        respond: { code: 230002, msg: "Bot is not in the chat." },
      });
      const creates =
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
      const out = await rig.call("reply", {
        message_id: target.id,
        content: { type: "markdown", markdown: "**x**" },
      });
      assert.equal(out.error_code, "TARGET_REVOKED");
      assert.equal(
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
        creates,
      );
    },
  );

  await t.step(
    "provider 230001 on a markdown send is FORMAT_ERROR after exactly one post create (no plain-text retry)",
    async () => {
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: { code: 230001, msg: "invalid message content" },
      });
      const before = rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
      const out = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        content: { type: "markdown", markdown: "# Title\n\ntext" },
      });
      assert.equal(out.error_code, "FORMAT_ERROR");
      assert.equal(out.retryable, false);
      const after = rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" });
      assert.equal(after.length, before + 1);
      assert.equal((after.at(-1)!.body as Record<string, unknown>).msg_type, "post");
    },
  );

  let progressId = "";
  await t.step(
    "a placeholder send is a schema-2.0 progress card; an edit with markdown keeps it one; the final send is plain",
    async () => {
      const sent = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "phase one",
        placeholder: true,
      });
      assert.equal(sent.status, "sent");
      assert.equal(sent.content_type, "card");
      assert.equal(sent.placeholder, true);
      assert.match(String(sent.hint), /action='edit'/);
      progressId = String(sent.message_id);
      const card = JSON.parse(rig.emu.lastSent(D.team)!.content);
      assert.equal(card.schema, "2.0");
      assert.deepEqual(card.body.elements, [{ tag: "markdown", content: "⏳ phase one" }]);

      const edited = await rig.call("edit", {
        message_id: progressId,
        content: { type: "markdown", markdown: "phase **two**" },
      });
      assert.equal(edited.status, "edited");
      assert.equal(edited.content_type, "card");
      assert.equal(edited.placeholder, true);
      const patch = rig.emu.requests({ method: "PATCH" }).at(-1)!;
      const patched = JSON.parse(String((patch.body as Record<string, unknown>).content));
      assert.equal(patched.schema, "2.0");
      assert.deepEqual(patched.body.elements, [{ tag: "markdown", content: "⏳ phase **two**" }]);

      const final = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "durable final",
      });
      assert.equal(final.content_type, "text");
      assert.equal("placeholder" in final, false);
      assert.deepEqual(JSON.parse(rig.emu.lastSent(D.team)!.content), { text: "durable final" });

      // The answer finishes the open progress card: its last phase with a check mark.
      const finished = await rig.emu.waitFor(() => {
        const card = JSON.parse(
          rig.emu.messages(D.team).find((m) => m.messageId === progressId.split(":").at(-1))!
            .content,
        );
        return card.body.elements[0].content.startsWith("✅") && card;
      });
      assert.deepEqual(finished.body.elements, [{ tag: "markdown", content: "✅ phase **two**" }]);
      assert.equal(finished.header.template, "green");
      // The record is written when the card update returns, just after the emulator applied it.
      let progress = await recordOf(rig, D.team, progressId);
      for (let i = 0; i < 50 && progress.status !== "sent"; i++) {
        progress = await recordOf(rig, D.team, progressId);
      }
      assert.equal(progress.status, "sent");
      assert.equal(progress.placeholder, true);
      assert.equal((progress.content as Record<string, unknown>).type, "card");
      assert.match(String(progress.text), /✅ phase \*\*two\*\*/);
      const durable = await recordOf(rig, D.team, String(final.message_id));
      assert.equal(durable.status, "sent");
      assert.deepEqual(durable.content, { type: "text", text: "durable final" });
    },
  );

  await t.step(
    "a reply finishes the chat's open progress cards once each; a second placeholder does not",
    async () => {
      const target = await rig.inbound({
        user: D.alice.openId,
        chat: D.aliceP2p,
        text: "long job",
      });
      const open = async (text: string) => {
        const sent = await rig.call("send", {
          receive_id: D.alice.openId,
          text,
          placeholder: true,
        });
        return String(sent.message_id).split(":").at(-1)!;
      };
      const frame = (id: string) =>
        JSON.parse(rig.emu.messages(D.aliceP2p).find((m) => m.messageId === id)!.content).body
          .elements[0].content;
      const first = await open("step one");
      const second = await open("step two");
      assert.equal(frame(first), "⏳ step one", "a new placeholder is not an answer");
      const patches = () => rig.emu.requests({ method: "PATCH" }).length;
      const before = patches();
      await rig.call("reply", { message_id: target.id, text: "all done" });
      await rig.emu.waitFor(() => frame(first).startsWith("✅") && frame(second).startsWith("✅"));
      assert.equal(frame(first), "✅ step one");
      assert.equal(frame(second), "✅ step two");
      assert.equal(patches() - before, 2, "one card update per open progress card");
      // Finished cards are not finished again by the next answers, even at once.
      await Promise.all([
        rig.call("send", { receive_id: D.alice.openId, text: "one more thing" }),
        rig.call("send", { receive_id: D.alice.openId, text: "and again" }),
      ]);
      await rig.call("send", { receive_id: D.alice.openId, text: "and another" });
      assert.equal(patches() - before, 2);
    },
  );

  await t.step(
    "an edit of a progress card with post content keeps it a progress card with the post's text",
    async () => {
      const out = await rig.call("edit", {
        message_id: progressId,
        content: {
          type: "post",
          post: { zh_cn: { title: "Status", content: [[{ tag: "text", text: "compiling" }]] } },
        },
      });
      assert.equal(out.status, "edited");
      assert.equal(out.content_type, "card");
      assert.equal(out.placeholder, true);
      const rec = await recordOf(rig, D.team, progressId);
      assert.equal((rec.content as { card: { schema: string } }).card.schema, "2.0");
      assert.equal(rec.message_type, "interactive");
      assert.match(String(rec.text), /Status/);
      assert.match(String(rec.text), /compiling/);
      assert.equal(rec.status, "placeholder");
      assert.ok(rec.edited_at);
    },
  );

  await t.step(
    "a custom card cannot replace a progress card, and Feishu sees nothing",
    async () => {
      const before = writes(rig.emu).length;
      const out = await rig.call("edit", {
        message_id: progressId,
        content: { type: "card", card: { schema: "2.0", body: { elements: [] } } },
      });
      assert.equal(out.error_code, "INVALID_ARGUMENT");
      assert.match(String(out.error), /progress card edits only support/);
      assert.equal(writes(rig.emu).length, before);
    },
  );

  await t.step(
    "an edit the transport fails (connection reset) is UNKNOWN, lists the member, and leaves the record as it was",
    async () => {
      const before = JSON.stringify(await recordOf(rig, D.team, progressId));
      // Every try: a card PATCH that gets no answer is sent again twice (same content).
      rig.emu.faults.add({
        method: "PATCH",
        path: "/open-apis/im/v1/messages/:id",
        times: 3,
        respond: "reset",
      });
      const out = await rig.call("edit", { message_id: progressId, text: "phase three" });
      assert.equal(out.status, "failed");
      assert.equal(out.error_code, "UNKNOWN");
      assert.equal(out.operation, "edit");
      assert.equal(out.partial_failure, false);
      assert.deepEqual(out.message_ids, [progressId]);
      assert.deepEqual(out.failed_message_ids, [progressId]);
      assert.deepEqual(out.succeeded_message_ids, []);
      assert.equal(out.automatic_retry_allowed, false);
      assert.equal(out.content_type, "card");
      assert.equal(JSON.stringify(await recordOf(rig, D.team, progressId)), before);
    },
  );

  await t.step(
    "a single-chunk card edit answers exactly, PATCHes the card and updates the record",
    async () => {
      const sent = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        content: {
          type: "card",
          card: { schema: "2.0", body: { elements: [{ tag: "markdown", content: "v1" }] } },
        },
      });
      const id = String(sent.message_id);
      const card = {
        schema: "2.0",
        header: { title: { tag: "plain_text", content: "Release v2" } },
        body: {
          elements: [{
            tag: "button",
            text: { tag: "plain_text", content: "Ship it" },
            value: { secret: "cb-token" },
          }],
        },
      };
      const out = await rig.call("edit", { message_id: id, content: { type: "card", card } });
      assert.deepEqual(out, {
        status: "edited",
        message_id: id,
        message_ids: [id],
        chunk_count: 1,
        chunks: [{ index: 1, message_id: id }],
        content_type: "card",
      });
      const patch = rig.emu.requests({ method: "PATCH" }).at(-1)!;
      assert.equal(patch.path, `/open-apis/im/v1/messages/${id.split(":")[2]}`);
      assert.deepEqual(JSON.parse(String((patch.body as Record<string, unknown>).content)), card);
      const rec = await recordOf(rig, D.team, id);
      assert.deepEqual(rec.content, { type: "card", card });
      assert.equal(rec.message_type, "interactive");
      assert.match(String(rec.text), /Release v2/);
      assert.match(String(rec.text), /Ship it/);
      assert.doesNotMatch(String(rec.text), /cb-token/);
    },
  );

  /** Sends a two-chunk markdown message to Team and returns its chunk ids. */
  const twoChunks = async (marks = ["A", "B"]): Promise<string[]> => {
    const out = await rig.call("send", {
      receive_id: D.team,
      receive_id_type: "chat_id",
      content: { type: "markdown", markdown: chunks(marks) },
    });
    assert.equal(out.chunk_count, 2, JSON.stringify(out));
    assert.equal(out.content_type, "markdown");
    return out.message_ids as string[];
  };
  const physical = (id: string) => id.split(":")[2]!;

  await t.step(
    "a markdown send delivered as two chunks returns both ids in order and records one logical message",
    async () => {
      const before = rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
      const ids = await twoChunks(["E", "F"]);
      assert.equal(
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
        before + 2,
      );
      const rec = await recordOf(rig, D.team, ids[0]!);
      assert.equal((rec.content as Record<string, unknown>).type, "markdown");
      assert.equal(rec.message_type, "post");
      // read does not project feishu_message_ids; the stored record has them.
      const db = new DatabaseSync(join(rig.server.workdir, "feishu", "store.db"), {
        readOnly: true,
      });
      const row = db.prepare("SELECT record FROM records WHERE id = ?").get(ids[0]!);
      db.close();
      assert.deepEqual(JSON.parse(String(row!.record)).feishu_message_ids, ids.map(physical));
      assert.deepEqual(rec.message_ids, ids);
      assert.deepEqual(rec.chunks, [{ index: 1, message_id: ids[0] }, {
        index: 2,
        message_id: ids[1],
      }]);
      const full = await rig.call("read", { chat_id: D.team, limit: null });
      assert.equal(
        (full.messages as Record<string, unknown>[]).filter((m) => m.id === ids[1]).length,
        0,
      );
    },
  );

  await t.step(
    "ARCH multi-chunk edit: called with chunk 2's id, each chunk gets its own part of the new content (never copies)",
    async () => {
      const ids = await twoChunks();
      const puts = rig.emu.requests({ method: "PUT" }).length;
      const out = await rig.call("edit", {
        message_id: ids[1],
        content: { type: "markdown", markdown: chunks(["C", "D"]) },
      });
      assert.equal(out.status, "edited");
      assert.equal(out.message_id, ids[0]);
      assert.deepEqual(out.message_ids, ids);
      assert.equal(out.chunk_count, 2);
      assert.equal(out.content_type, "markdown");
      const sent = rig.emu.requests({ method: "PUT" }).slice(puts);
      assert.deepEqual(
        sent.map((r) => r.path),
        ids.map((id) => `/open-apis/im/v1/messages/${physical(id)}`),
      );
      const texts = sent.map((r) =>
        JSON.parse(String((r.body as Record<string, unknown>).content)).zh_cn.content[0][0].text
      );
      assert.equal(texts[0], "C".repeat(3000));
      assert.equal(texts[1], "D".repeat(3000));
      const rec = await recordOf(rig, D.team, ids[0]!);
      assert.deepEqual(
        rec.lifecycle && { ...(rec.lifecycle as Record<string, unknown>), at: "x" },
        {
          operation: "edit",
          status: "completed",
          attempted_message_ids: ids,
          succeeded_message_ids: ids,
          failures: [],
          at: "x",
        },
      );
      assert.equal(rec.text, chunks(["C", "D"]));
      assert.deepEqual(rec.edited_message_ids, ids);
      assert.equal(rec.status, "sent");
    },
  );

  await t.step(
    "ARCH an edit to fewer chunks updates the first and deletes the rest; the record keeps only the first",
    async () => {
      const ids = await twoChunks(["G", "H"]);
      const out = await rig.call("edit", {
        message_id: ids[0],
        content: { type: "markdown", markdown: "short now" },
      });
      assert.equal(out.status, "edited", JSON.stringify(out));
      assert.deepEqual(out.message_ids, [ids[0]]);
      assert.deepEqual(out.removed_message_ids, [ids[1]]);
      assert.equal(rig.emu.world.messages.get(physical(ids[1]!))!.deleted, true);
      assert.equal(
        rig.emu.requests({ method: "DELETE" }).at(-1)!.path,
        `/open-apis/im/v1/messages/${physical(ids[1]!)}`,
      );
      const rec = await recordOf(rig, D.team, ids[0]!);
      assert.deepEqual(rec.message_ids, [ids[0]]);
      assert.equal(rec.text, "short now");
    },
  );

  await t.step(
    "ARCH an edit that needs more chunks, changes a msg_type, or targets media is refused before any I/O",
    async () => {
      const single = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "one chunk of text",
      });
      const image = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        content: { type: "sticker", file_key: "st_1" },
      });
      const before = writes(rig.emu).length;
      const more = await rig.call("edit", {
        message_id: single.message_id,
        text: "x".repeat(3000) + "\n" + "y".repeat(3000),
      });
      assert.equal(more.error_code, "INVALID_ARGUMENT");
      assert.match(String(more.error), /send a new message instead/);
      const retype = await rig.call("edit", {
        message_id: single.message_id,
        content: { type: "markdown", markdown: "**now a post**" },
      });
      assert.equal(retype.error_code, "INVALID_ARGUMENT");
      assert.match(String(retype.error), /msg_type text/);
      const media = await rig.call("edit", { message_id: image.message_id, text: "caption?" });
      assert.equal(media.error_code, "INVALID_ARGUMENT");
      assert.match(String(media.error), /cannot be edited/);
      assert.equal(writes(rig.emu).length, before);
    },
  );

  await t.step(
    "a delete called with chunk 2's id deletes chunk 1 then chunk 2 and records it",
    async () => {
      const ids = await twoChunks(["I", "J"]);
      const deletes = rig.emu.requests({ method: "DELETE" }).length;
      const out = await rig.call("delete", { message_id: ids[1] });
      assert.deepEqual(out, {
        status: "deleted",
        message_id: ids[0],
        message_ids: ids,
        chunk_count: 2,
        chunks: [{ index: 1, message_id: ids[0] }, { index: 2, message_id: ids[1] }],
      });
      assert.deepEqual(
        rig.emu.requests({ method: "DELETE" }).slice(deletes).map((r) => r.path),
        ids.map((id) => `/open-apis/im/v1/messages/${physical(id)}`),
      );
      const rec = await recordOf(rig, D.team, ids[0]!);
      assert.equal(rec.status, "deleted");
      assert.deepEqual(rec.deleted_message_ids, ids);
      assert.equal((rec.lifecycle as Record<string, unknown>).status, "completed");
    },
  );

  for (const op of ["edit", "delete"] as const) {
    await t.step(
      `${
        op === "edit" ? "an" : "a"
      } ${op} whose chunk 2 fails attempts both in order, answers the partial failure and records ${op}_partial`,
      async () => {
        const ids = await twoChunks(op === "edit" ? ["K", "L"] : ["M", "N"]);
        const method = op === "edit" ? "PUT" : "DELETE";
        rig.emu.faults.add({
          method,
          path: `/open-apis/im/v1/messages/${physical(ids[1]!)}`,
          times: 1,
          respond: { code: 230072, msg: "The message has reached the limit of edits." },
        });
        const seen = rig.emu.requests({ method }).length;
        const input = op === "edit"
          ? { message_id: ids[1], content: { type: "markdown", markdown: chunks(["O", "P"]) } }
          : { message_id: ids[1] };
        const out = await rig.call(op, input);
        assert.equal(out.status, "failed");
        assert.equal(out.operation, op);
        assert.equal(out.partial_failure, true);
        assert.equal(out.automatic_retry_allowed, false);
        assert.equal(out.message_id, ids[0]);
        assert.deepEqual(out.message_ids, ids);
        assert.deepEqual(out.succeeded_message_ids, [ids[0]]);
        assert.deepEqual(out.failed_message_ids, [ids[1]]);
        assert.equal((out.failures as { chunk_index: number }[])[0]!.chunk_index, 2);
        assert.match(String(out.warning), /Inspect the chat/);
        assert.deepEqual(
          rig.emu.requests({ method }).slice(seen).map((r) => r.path),
          ids.map((id) => `/open-apis/im/v1/messages/${physical(id)}`),
        );
        const rec = await recordOf(rig, D.team, ids[0]!);
        assert.equal(rec.status, `${op}_partial`);
        const lifecycle = rec.lifecycle as Record<string, unknown>;
        assert.equal(lifecycle.status, "partial");
        assert.deepEqual(lifecycle.attempted_message_ids, ids);
        assert.deepEqual(lifecycle.succeeded_message_ids, [ids[0]]);
        assert.equal((lifecycle.failures as { message_id: string }[])[0]!.message_id, ids[1]);
        if (op === "edit") assert.equal(rec.text, chunks(["K", "L"]));
        const newest = ((await rig.call("read", { chat_id: D.team, limit: 1 })).messages as Record<
          string,
          unknown
        >[])[0]!;
        assert.equal(newest.status, `${op}_partial`);
        assert.deepEqual(newest.lifecycle, lifecycle);
      },
    );
  }
});
