/**
 * Chat history: `GET im/v1/messages?container_id_type=chat|thread` with
 * `start_time`/`end_time` (seconds, inclusive), `sort_type` and paging. A
 * chat container lists the chat's main flow (thread replies are left out;
 * thread roots stay); a thread container lists the thread, root included.
 * @module
 */

import { messageView } from "../views.ts";
import type { StoredMessage } from "../world.ts";
import { ApiError, ok } from "./_envelope.ts";
import { page } from "./contacts.ts";
import { requireBotIn } from "./messages.ts";
import type { Route } from "./router.ts";

function seconds(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) {
    throw new ApiError(
      99992402,
      `field validation failed, ${name} must be seconds but found ${raw}`,
    );
  }
  return n;
}

/** Routes of this area. */
export const historyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/open-apis/im/v1/messages",
    handle: ({ core, app, query }) => {
      const type = query.get("container_id_type");
      const id = query.get("container_id") ?? "";
      let items: StoredMessage[];
      if (type === "chat") {
        const chat = core.world.chats.get(id);
        if (!chat) throw new ApiError(230001, `invalid container_id ${id}`);
        requireBotIn(chat, app);
        items = core.world.messagesOf(id).filter((m) => !m.threadId || !m.rootId);
      } else if (type === "thread") {
        items = core.world.messagesOfThread(id);
        const chat = core.world.chats.get(items[0]?.chatId ?? "");
        if (!chat) throw new ApiError(230001, `invalid container_id ${id}`);
        requireBotIn(chat, app);
      } else {
        throw new ApiError(
          99992402,
          `field validation failed, container_id_type must be chat or thread but found ${type}`,
        );
      }
      const start = seconds(query, "start_time");
      const end = seconds(query, "end_time");
      items = items.filter((m) =>
        (start === undefined || m.createTime >= start * 1000) &&
        (end === undefined || m.createTime <= end * 1000 + 999)
      );
      const sort = query.get("sort_type") ?? "ByCreateTimeAsc";
      if (sort === "ByCreateTimeDesc") items.reverse();
      else if (sort !== "ByCreateTimeAsc") {
        throw new ApiError(99992402, `field validation failed, sort_type ${sort} is invalid`);
      }
      const p = page(items, query, { initial: 20, max: 50 });
      return ok({ ...p, items: p.items.map((m) => messageView(core.world, m)) });
    },
  },
];
