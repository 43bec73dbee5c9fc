/// <reference lib="dom" />
/**
 * The page's calls to the emulator's control plane (`/__emu/api/…`). Every
 * call answers JSON; a non-2xx answer becomes an Error carrying its `error`.
 * @module
 */

import type { PageMessage, PageState, PageToast } from "../render/mod.ts";

async function call<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    path,
    body === undefined ? {} : {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  );
  const json = await res.json() as T & { error?: string };
  if (!res.ok) throw new Error(json.error ?? `${res.status} ${res.statusText}`);
  return json;
}

/** Users, chats and the bot. */
export function fetchState(): Promise<PageState> {
  return call<PageState>("/__emu/api/state");
}

/** A chat's messages, oldest first. */
export async function fetchMessages(chatId: string): Promise<PageMessage[]> {
  const r = await call<{ items: PageMessage[] }>(
    `/__emu/api/chats/${encodeURIComponent(chatId)}/messages`,
  );
  return r.items;
}

/** What `/__emu/api/send` takes. */
export interface SendInput {
  user_id: string;
  chat_id: string;
  text?: string;
  image?: { base64: string };
  file?: { base64: string; name: string };
  mention_bot?: boolean;
  reply_to?: string;
  in_thread?: boolean;
}

/** A user sends a message; answers its id and the pushed event id (null if none). */
export function sendMessage(
  input: SendInput,
): Promise<{ message_id: string; event_id: string | null }> {
  return call("/__emu/api/send", input);
}

/** A user adds or removes a reaction. */
export function react(
  input: { user_id: string; message_id: string; emoji_type: string; remove: boolean },
): Promise<{ event_id: string }> {
  return call("/__emu/api/react", input);
}

/** A user clicks a card button; resolves once the bot acknowledged. */
export function clickCard(
  input: { user_id: string; message_id: string; value: unknown; tag?: string; name?: string },
): Promise<{ event_id: string; ack: { code: number; data: unknown }; toast?: PageToast }> {
  return call("/__emu/api/click", input);
}
