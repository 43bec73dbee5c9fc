/**
 * End to end over stdio against the emulator: agent cards whose interactive
 * elements cannot act are refused for send, reply and edit before any
 * request, naming the element's path; a card over Feishu's 30 KB limit is a
 * `FORMAT_ERROR` saying by how much; a card whose every element acts
 * (callback buttons, link buttons, a form with a submit button) reaches
 * Feishu exactly and is recorded with a preview that keeps callback values
 * private.
 */

import assert from "node:assert/strict";
import type { Emulator, RequestRecord } from "../lib/emulator/mod.ts";
import { requestBytes, wireBody } from "../lib/outbound/mod.ts";
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

/**
 * A user's message in Team to answer, once the server has recorded it, put
 * its OK on it and the chat shows Typing (one per chat: on this message or an
 * earlier one), so later counts of writes see only the call's own.
 */
async function target(rig: Rig, user: string, words: string) {
  const t = await rig.inbound({ user, chat: D.team, text: words });
  const has = (messageId: string, emoji: string) =>
    rig.emu.reactions(messageId).some((r) => r.emojiType === emoji);
  // Presence settles: the chat's one Typing has moved to this newest pending message.
  await rig.emu.waitFor(() =>
    has(t.messageId, "OK") && has(t.messageId, "Typing") &&
    rig.emu.messages(D.team).filter((m) => has(m.messageId, "Typing")).length === 1
  );
  return t;
}

const text = (content: string) => ({ tag: "plain_text", content });
const card = (...elements: unknown[]) => ({ schema: "2.0", body: { elements } });

/** Callback buttons, a link button, and a form with fields, submit and reset. */
const VALID = {
  schema: "2.0",
  config: { update_multi: true },
  header: { title: text("Release v3") },
  body: {
    elements: [
      { tag: "markdown", content: "Ready to ship?" },
      {
        tag: "column_set",
        columns: [
          {
            tag: "column",
            elements: [{
              tag: "button",
              text: text("Ship"),
              type: "primary",
              behaviors: [{ type: "callback", value: { action: "ship", token: "cb-ship-7f3" } }],
            }],
          },
          {
            tag: "column",
            elements: [{
              tag: "button",
              text: text("Changelog"),
              behaviors: [{ type: "open_url", default_url: "https://example.com/changelog" }],
            }],
          },
        ],
      },
      {
        tag: "form",
        name: "notes",
        elements: [
          { tag: "input", name: "why", placeholder: text("Why?") },
          {
            tag: "select_static",
            name: "env",
            options: [{ text: text("prod"), value: "prod" }],
          },
          {
            tag: "button",
            name: "send",
            text: text("Send notes"),
            form_action_type: "submit",
            behaviors: [{ type: "callback", value: { action: "notes", token: "cb-form-91a" } }],
          },
          { tag: "button", name: "clear", text: text("Clear"), form_action_type: "reset" },
        ],
      },
    ],
  },
};

/** A card whose third element is a column set with a button that does nothing. */
const DEAD_BUTTON = card(
  { tag: "markdown", content: "Pick one" },
  { tag: "button", text: text("Fine"), behaviors: [{ type: "callback", value: { ok: 1 } }] },
  {
    tag: "column_set",
    columns: [{
      tag: "column",
      elements: [{ tag: "markdown", content: "or" }, { tag: "button", text: text("Dead") }],
    }],
  },
);

const DEAD_BUTTON_MESSAGE =
  "Expected every interactive element of the card to act when used but found a button at " +
  "content.card.body.elements[2].columns[0].elements[1] that cannot; add behaviors: " +
  '[{type: "callback", value: {...}}] (or behaviors: [{type: "open_url", default_url: ' +
  '"https://..."}] for a link) or a value';

function assertRefused(out: Record<string, unknown>, code: string, message: string | RegExp) {
  assert.equal(out.status, "failed", JSON.stringify(out));
  assert.equal(out.error_code, code, JSON.stringify(out));
  assert.equal(out.retryable, false);
  assert.equal(out.retry_after_seconds, null);
  if (typeof message === "string") assert.equal(out.message, message);
  else assert.match(String(out.message), message);
  assert.equal(out.error, out.message);
}

Deno.test("agent cards end to end: dead interactive elements and over-size cards never reach Feishu; valid ones arrive exactly", async (t) => {
  await using rig = await startRig();
  const send = (content: Record<string, unknown>) =>
    rig.call("send", { receive_id: D.team, receive_id_type: "chat_id", content });
  let sentId = "";

  await t.step(
    "a card with callback buttons, a link button and a form is sent exactly and recorded with a private preview",
    async () => {
      const out = await send({ type: "card", card: VALID });
      assert.equal(out.status, "sent", JSON.stringify(out));
      assert.equal(out.content_type, "card");
      sentId = String(out.message_id);
      const create = writes(rig.emu).at(-1)!;
      assert.equal(create.path, "/open-apis/im/v1/messages");
      const body = create.body as Record<string, unknown>;
      assert.equal(body.msg_type, "interactive");
      assert.equal(body.content, JSON.stringify(VALID));
      const stored = rig.emu.lastSent(D.team)!;
      assert.equal(`main:${D.team}:${stored.messageId}`, sentId);
      assert.deepEqual(JSON.parse(stored.content), VALID);
      const rec = await recordOf(rig, D.team, sentId);
      assert.deepEqual(rec.content, { type: "card", card: VALID });
      assert.equal(rec.message_type, "interactive");
      assert.equal(rec.text, "Release v3\nReady to ship?\nShip\nChangelog\nSend notes\nClear");
      for (const secret of ["cb-ship-7f3", "cb-form-91a", "example.com"]) {
        assert.ok(!String(rec.text).includes(secret), secret);
      }
    },
  );

  await t.step(
    "send: a dead button is INVALID_ARGUMENT naming its path and what to add; no request",
    async () => {
      const before = writes(rig.emu).length;
      assertRefused(
        await send({ type: "card", card: DEAD_BUTTON }),
        "INVALID_ARGUMENT",
        DEAD_BUTTON_MESSAGE,
      );
      // A form without a submit button, and a select outside any form: the first is named,
      // the next listed, in one line.
      const out = await send({
        type: "card",
        card: card(
          { tag: "form", name: "f", elements: [{ tag: "input", name: "a" }] },
          { tag: "select_static", options: [{ text: text("a"), value: "a" }] },
        ),
      });
      assertRefused(
        out,
        "INVALID_ARGUMENT",
        "Expected every interactive element of the card to act when used but found a form at " +
          'content.card.body.elements[0] that cannot; add a button with form_action_type: "submit" ' +
          "inside it, or its fields can never be sent (also: select_static at " +
          "content.card.body.elements[1])",
      );
      assert.equal(writes(rig.emu).length, before);
    },
  );

  await t.step(
    "reply: a dead button is refused the same way; no reply request, no reaction",
    async () => {
      const to = await target(rig, D.alice.openId, "card?");
      const before = writes(rig.emu).length;
      const out = await rig.call("reply", {
        message_id: to.id,
        content: { type: "card", card: DEAD_BUTTON },
      });
      assertRefused(out, "INVALID_ARGUMENT", DEAD_BUTTON_MESSAGE);
      assert.equal(writes(rig.emu).length, before);
      assert.equal(rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).length, 0);
    },
  );

  await t.step(
    "edit: a dead element is refused before the PATCH; the message and its record keep the old card",
    async () => {
      const before = writes(rig.emu).length;
      const recordBefore = JSON.stringify(await recordOf(rig, D.team, sentId));
      const out = await rig.call("edit", {
        message_id: sentId,
        content: { type: "card", card: card({ tag: "overflow", options: [{ text: text("x") }] }) },
      });
      assertRefused(
        out,
        "INVALID_ARGUMENT",
        "Expected every interactive element of the card to act when used but found an overflow " +
          "at content.card.body.elements[0] that cannot; give every option a value or a url, " +
          'or add behaviors: [{type: "callback", value: {...}}]',
      );
      assertRefused(
        await rig.call("edit", {
          message_id: sentId,
          content: { type: "card", card: DEAD_BUTTON },
        }),
        "INVALID_ARGUMENT",
        DEAD_BUTTON_MESSAGE,
      );
      assert.equal(writes(rig.emu).length, before);
      assert.equal(rig.emu.requests({ method: "PATCH" }).length, 0);
      assert.deepEqual(JSON.parse(rig.emu.lastSent(D.team)!.content), VALID);
      assert.equal(JSON.stringify(await recordOf(rig, D.team, sentId)), recordBefore);
    },
  );

  await t.step(
    "a card over 30000 request bytes is FORMAT_ERROR saying how many bytes over, for send, reply and edit; no request",
    async () => {
      const big = card(
        { tag: "markdown", content: "x".repeat(31_000) },
        { tag: "button", text: text("OK"), behaviors: [{ type: "callback", value: { ok: 1 } }] },
      );
      const found = requestBytes(wireBody("interactive", big));
      assert.ok(found > 30_000);
      const message = "Expected the card to be at most 30000 bytes as a Feishu request but found " +
        `${found} (${
          found - 30_000
        } bytes over); make it smaller or split it into several messages`;
      const to = await target(rig, D.bob.openId, "big card?");
      const before = writes(rig.emu).length;
      const content = { type: "card", card: big };
      assertRefused(await send(content), "FORMAT_ERROR", message);
      assertRefused(
        await rig.call("reply", { message_id: to.id, content }),
        "FORMAT_ERROR",
        message,
      );
      assertRefused(
        await rig.call("edit", { message_id: sentId, content }),
        "FORMAT_ERROR",
        message,
      );
      assert.equal(writes(rig.emu).length, before);
    },
  );

  await t.step(
    "edit to a card with only link and callback elements PATCHes it exactly",
    async () => {
      const next = card(
        { tag: "markdown", content: "Shipped" },
        {
          tag: "interactive_container",
          behaviors: [{ type: "open_url", default_url: "https://example.com/run/42" }],
          elements: [{ tag: "markdown", content: "Open the run" }],
        },
        { tag: "button", text: text("Done"), disabled: true },
      );
      const out = await rig.call("edit", {
        message_id: sentId,
        content: { type: "card", card: next },
      });
      assert.equal(out.status, "edited", JSON.stringify(out));
      const patch = rig.emu.requests({ method: "PATCH" }).at(-1)!;
      assert.equal(patch.path, `/open-apis/im/v1/messages/${sentId.split(":")[2]}`);
      assert.equal((patch.body as Record<string, unknown>).content, JSON.stringify(next));
      const rec = await recordOf(rig, D.team, sentId);
      assert.deepEqual(rec.content, { type: "card", card: next });
      assert.equal(rec.text, "Shipped\nOpen the run\nDone");
    },
  );
});
