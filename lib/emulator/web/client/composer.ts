/// <reference lib="dom" />
/**
 * The message box: text with an "@bot" toggle (or `@BotName` typed in the
 * text) in groups, replies and thread replies, and image/file uploads.
 * @module
 */

import { type SendInput, sendMessage } from "./api.ts";
import { byId, fileBase64 } from "./dom.ts";
import { extractBotMention } from "../render/mod.ts";

/** Where the next message goes. */
export interface Target {
  viewer: string;
  chatId: string;
  mode: string;
  botName: string;
  /** False when the bot is not in the chat: nothing can mention it. */
  botMember: boolean;
  replyTo?: { id: string; inThread: boolean };
}

/** Wires the composer; `target()` says where to send, `sent()` runs after a send. */
export function setupComposer(
  target: () => Target | undefined,
  sent: () => void,
): void {
  const input = byId<HTMLTextAreaElement>("composer-input");
  const mention = byId<HTMLInputElement>("mention-bot");
  const fileInput = byId<HTMLInputElement>("file-input");
  const error = byId("composer-error");

  const send = async (extra: Partial<SendInput>) => {
    const t = target();
    if (!t) return;
    const group = t.mode !== "p2p";
    const body: SendInput = {
      user_id: t.viewer,
      chat_id: t.chatId,
      ...(t.replyTo ? { reply_to: t.replyTo.id, in_thread: t.replyTo.inThread } : {}),
      ...extra,
    };
    // Where the bot is not a member, a typed "@EmuBot" stays plain text.
    if (body.text !== undefined && t.botMember) {
      const m = extractBotMention(body.text, t.botName);
      body.text = m.text;
      body.mention_bot = group && (mention.checked || m.bot);
    }
    error.textContent = "";
    try {
      await sendMessage(body);
      sent();
    } catch (e) {
      error.textContent = e instanceof Error ? e.message : String(e);
    }
  };

  const sendText = async () => {
    const text = input.value;
    if (text.trim() === "") return;
    input.value = "";
    await send({ text });
    input.focus();
  };

  byId("send").addEventListener("click", () => void sendText());
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void sendText();
    }
  });
  byId("attach").addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files?.[0];
    fileInput.value = "";
    if (!file) return;
    const base64 = await fileBase64(file);
    await send(
      file.type.startsWith("image/")
        ? { image: { base64 } }
        : { file: { base64, name: file.name } },
    );
  });
}
