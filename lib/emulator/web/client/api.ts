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

/** A user recalls their own message; answers the pushed event id (null when the bot is out). */
export function recallMessage(
  input: { user_id: string; message_id: string },
): Promise<{ event_id: string | null }> {
  return call("/__emu/api/recall", input);
}

/** A member adds the bot to a group or removes it. */
export function setBotPresent(
  chatId: string,
  input: { present: boolean; operator: string },
): Promise<{ event_id: string }> {
  return call(`/__emu/api/chats/${encodeURIComponent(chatId)}/bot`, input);
}

/** The group's owner dissolves it. */
export function dissolveGroup(
  chatId: string,
  input: { operator: string },
): Promise<{ event_ids: string[] }> {
  return call(`/__emu/api/chats/${encodeURIComponent(chatId)}/dissolve`, input);
}

/** What `/__emu/api/click` takes: the user, the card and the `action` of the callback. */
export interface ClickInput {
  user_id: string;
  message_id: string;
  value: unknown;
  tag?: string;
  name?: string;
  form_value?: Record<string, string>;
  input_value?: string;
  option?: string;
}

/** How a click ended: the ACK and its toast, or the error code the user sees. */
export interface ClickAnswer {
  event_id: string | null;
  ack: { code: number; data: unknown } | null;
  timed_out: boolean;
  toast?: PageToast;
  /** 200340 (no card callback configured) or 200341 (no answer in time). */
  error_code?: number;
  error_msg?: string;
}

/** A user interacts with a card; resolves once the bot answered, or the click failed. */
export function clickCard(input: ClickInput): Promise<ClickAnswer> {
  return call("/__emu/api/click", input);
}

/** One registration as the control plane lists it. */
export interface PageRegistration {
  device_code: string;
  user_code: string;
  status: "pending" | "approved" | "denied" | "expired" | "issued";
  app_id: string | null;
  approved_by: string | null;
}

/** Every registration, oldest first. */
export async function fetchRegistrations(): Promise<PageRegistration[]> {
  return (await call<{ items: PageRegistration[] }>("/__emu/api/registrations")).items;
}

/** A user approves or denies a registration. */
export function answerRegistration(
  verb: "approve" | "deny",
  input: { code: string; user_id: string },
): Promise<PageRegistration> {
  return call(`/__emu/api/registrations/${verb}`, input);
}
