/**
 * The shapes the page reads from the control plane (`/__emu/api/state` and
 * `/__emu/api/chats/:chat_id/messages`) and the context every renderer takes.
 * Written from what `control.ts` serves; the page checks nothing else.
 * @module
 */

/** A user as `/__emu/api/state` lists it. */
export interface PageUser {
  open_id: string;
  name: string;
}

/** A chat as `/__emu/api/state` lists it. */
export interface PageChat {
  chat_id: string;
  name: string;
  chat_mode: "p2p" | "group" | "topic" | string;
  members: string[];
  bot_member: boolean;
  /** The group's owner (open_id). */
  owner_id?: string;
  /** True once the group was dissolved: nobody can post in it. */
  dissolved?: boolean;
}

/** The whole `/__emu/api/state` answer. */
export interface PageState {
  app: { app_id: string; bot_open_id: string; bot_name: string };
  users: PageUser[];
  chats: PageChat[];
}

/** A reaction on a message. */
export interface PageReaction {
  reaction_id: string;
  emoji_type: string;
  operator_type: "user" | "app" | string;
  operator_id: string;
}

/** A mention placeholder (`@_user_1`) and who it names. */
export interface PageMention {
  key: string;
  id: string;
  id_type?: string;
  name: string;
}

/** A toast a card callback returned. */
export interface PageToast {
  type?: string;
  content?: string;
  i18n?: Record<string, string>;
}

/** One message as `/__emu/api/chats/:chat_id/messages` lists it. */
export interface PageMessage {
  message_id: string;
  chat_id: string;
  thread_id: string | null;
  root_id: string | null;
  parent_id: string | null;
  msg_type: string;
  /** The parsed content JSON. */
  content: unknown;
  sender: { type: "user" | "app" | string; id: string; name: string };
  /** Milliseconds since the epoch. */
  create_time: number;
  update_time: number;
  deleted: boolean;
  updated: boolean;
  edit_count: number;
  reactions: PageReaction[];
  mentions: PageMention[];
  toast?: PageToast;
}

/** What renderers may look up while turning content into HTML. */
export interface RenderContext {
  /** Display name of a user or bot open_id (or app_id); undefined when unknown. */
  nameOf(id: string): string | undefined;
  /** Name of a chat by chat_id; undefined when unknown. */
  chatName(id: string): string | undefined;
  /** Mentions of the message being rendered (placeholder keys such as `@_user_1`). */
  mentions: readonly PageMention[];
}

/**
 * A context built from the state answer, for the given message's mentions.
 *
 * @example
 * ```ts
 * import { contextFor } from "./types.ts";
 * const ctx = contextFor({
 *   app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
 *   users: [{ open_id: "ou_a", name: "Alice" }],
 *   chats: [{ chat_id: "oc_1", name: "Team", chat_mode: "group", members: [], bot_member: true }],
 * });
 * if (ctx.nameOf("ou_bot") !== "EmuBot" || ctx.nameOf("ou_a") !== "Alice") throw new Error();
 * if (ctx.chatName("oc_1") !== "Team" || ctx.nameOf("ou_x") !== undefined) throw new Error();
 * ```
 */
export function contextFor(
  state: PageState | undefined,
  mentions: readonly PageMention[] = [],
): RenderContext {
  const names = new Map<string, string>();
  const chats = new Map<string, string>();
  if (state) {
    names.set(state.app.bot_open_id, state.app.bot_name);
    names.set(state.app.app_id, state.app.bot_name);
    for (const u of state.users) names.set(u.open_id, u.name);
    for (const c of state.chats) chats.set(c.chat_id, c.name);
  }
  for (const m of mentions) if (!names.has(m.id)) names.set(m.id, m.name);
  return {
    nameOf: (id) => names.get(id),
    chatName: (id) => chats.get(id),
    mentions,
  };
}
