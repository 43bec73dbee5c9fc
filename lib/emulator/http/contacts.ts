/**
 * Users and chats: `contact/v3/users/:id`, `contact/v3/users/batch`,
 * `im/v1/chats` (the group chats the bot is in), `im/v1/chats/:chat_id` and
 * `im/v1/chats/:chat_id/members`.
 * @module
 */

import type { Core } from "../core.ts";
import type { App, Chat, User } from "../world.ts";
import { ApiError, ok } from "./_envelope.ts";
import type { Route } from "./router.ts";

/**
 * Pages a list with an opaque `pt_<offset>` token.
 *
 * @example
 * ```ts
 * import { page } from "./contacts.ts";
 * const q = new URLSearchParams({ page_size: "2" });
 * const p = page([1, 2, 3], q, { initial: 20, max: 50 });
 * if (p.items.join() !== "1,2" || !p.has_more || p.page_token !== "pt_2") throw new Error();
 * ```
 */
export function page<T>(
  items: T[],
  query: URLSearchParams,
  sizes: { initial: number; max: number },
): { items: T[]; has_more: boolean; page_token: string } {
  const size = Math.min(
    Number(query.get("page_size") ?? sizes.initial) || sizes.initial,
    sizes.max,
  );
  const token = query.get("page_token") ?? "";
  const start = token === "" ? 0 : Number(token.replace(/^pt_/, ""));
  if (!Number.isInteger(start) || start < 0) {
    throw new ApiError(99992402, `field validation failed, page_token ${token} is invalid`);
  }
  const slice = items.slice(start, start + size);
  const more = start + size < items.length;
  return { items: slice, has_more: more, page_token: more ? `pt_${start + size}` : "" };
}

function userView(app: App, u: User): Record<string, unknown> {
  return {
    open_id: u.openId,
    union_id: u.unionId,
    user_id: u.userId,
    name: u.name,
    en_name: u.enName,
    email: u.email,
    avatar: { avatar_72: "", avatar_240: "", avatar_640: "", avatar_origin: "" },
    status: { is_activated: true, is_frozen: false, is_resigned: false },
    tenant_key: app.tenantKey,
  };
}

/** A chat the app's bot is in, or the 232006/232011 errors. */
export function chatForBot(core: Core, app: App, chatId: string): Chat {
  const chat = core.world.chats.get(chatId);
  if (!chat) throw new ApiError(232006, `invalid chat_id ${chatId}`);
  if (chat.dissolvedAt !== undefined) throw new ApiError(230045, "The chat has been dissolved.");
  if (!chat.bots.has(app.appId)) throw new ApiError(232011, "The operator is not in the chat");
  return chat;
}

function chatView(app: App, chat: Chat): Record<string, unknown> {
  return {
    avatar: "",
    name: chat.name,
    description: chat.description,
    i18n_names: { zh_cn: chat.name, en_us: chat.name, ja_jp: "" },
    add_member_permission: "all_members",
    share_card_permission: "allowed",
    at_all_permission: "all_members",
    edit_permission: "all_members",
    owner_id_type: "open_id",
    owner_id: chat.ownerOpenId,
    chat_mode: chat.mode,
    chat_type: "private",
    chat_tag: "inner",
    external: false,
    tenant_key: app.tenantKey,
    user_count: String(chat.members.length),
    bot_count: String(chat.bots.size),
    chat_status: "normal",
    ...(chat.mode === "topic" ? { group_message_type: "thread" } : {}),
  };
}

/**
 * The group and topic chats `app`'s bot is in, as `GET im/v1/chats` lists
 * them with a tenant token (p2p chats are listed only with a user token):
 * creation order (`ByCreateTimeAsc`), or newest activity first
 * (`ByActiveTimeDesc`: the newest message's create time, thread replies
 * included; a chat without messages last, newest created first).
 */
function botGroups(core: Core, app: App, sort: string): Chat[] {
  const groups = [...core.world.chats.values()].filter((c) =>
    c.mode !== "p2p" && c.bots.has(app.appId)
  );
  if (sort === "ByCreateTimeAsc") return groups;
  if (sort !== "ByActiveTimeDesc") {
    throw new ApiError(99992402, `field validation failed, sort_type ${sort} is invalid`);
  }
  const active = (c: Chat) => core.world.messagesOf(c.chatId).at(-1)?.createTime ?? -1;
  return groups.map((chat, order) => ({ chat, order, at: active(chat) }))
    .sort((a, b) => b.at - a.at || b.order - a.order).map((x) => x.chat);
}

function chatListItem(app: App, chat: Chat): Record<string, unknown> {
  return {
    chat_id: chat.chatId,
    avatar: "",
    name: chat.name,
    description: chat.description,
    owner_id: chat.ownerOpenId,
    owner_id_type: "open_id",
    external: false,
    tenant_key: app.tenantKey,
    chat_status: "normal",
  };
}

/** Routes of this area. */
export const contactRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/open-apis/contact/v3/users/batch",
    handle: ({ core, app, query }) => {
      const type = query.get("user_id_type") ?? "open_id";
      const items = [...query.getAll("user_ids"), ...query.getAll("user_ids[]")]
        .map((id) => core.world.findUser(id, type))
        .filter((u): u is User => u !== undefined)
        .map((u) => userView(app, u));
      return ok({ items });
    },
  },
  {
    method: "GET",
    pattern: "/open-apis/contact/v3/users/:user_id",
    handle: ({ core, app, params, query }) => {
      const type = query.get("user_id_type") ?? "open_id";
      const user = core.world.findUser(params.user_id ?? "", type);
      if (!user) throw new ApiError(41050, `no user authority error, ${type} ${params.user_id}`);
      return ok({ user: userView(app, user) });
    },
  },
  {
    method: "GET",
    pattern: "/open-apis/im/v1/chats",
    handle: ({ core, app, query }) => {
      const groups = botGroups(core, app, query.get("sort_type") ?? "ByCreateTimeAsc");
      const p = page(groups, query, { initial: 20, max: 100 });
      return ok({ ...p, items: p.items.map((c) => chatListItem(app, c)) });
    },
  },
  {
    method: "GET",
    pattern: "/open-apis/im/v1/chats/:chat_id",
    handle: ({ core, app, params }) =>
      ok(chatView(app, chatForBot(core, app, params.chat_id ?? ""))),
  },
  {
    method: "GET",
    pattern: "/open-apis/im/v1/chats/:chat_id/members",
    handle: ({ core, app, params, query }) => {
      const chat = chatForBot(core, app, params.chat_id ?? "");
      const type = query.get("member_id_type") ?? "open_id";
      const rows = chat.members
        .map((id) => core.world.users.get(id))
        .filter((u): u is User => u !== undefined)
        .map((u) => ({
          member_id_type: type,
          member_id: type === "union_id" ? u.unionId : type === "user_id" ? u.userId : u.openId,
          name: u.name,
          tenant_key: app.tenantKey,
        }));
      return ok({ ...page(rows, query, { initial: 20, max: 100 }), member_total: rows.length });
    },
  },
];
