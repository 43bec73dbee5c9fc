/**
 * Which quota category one HTTP call to Feishu falls in, from its method, URL
 * and body alone: a pure table, so the counting point in `_http.ts` needs no
 * knowledge of which of our calls made the request.
 * @module
 */

import type { ApiCategory } from "../core/mod.ts";

interface Row {
  method: string | null;
  path: RegExp;
  category: ApiCategory | "message_write";
}

/** First match wins; anything unmatched is a probe. */
const TABLE: readonly Row[] = [
  { method: "POST", path: /^\/open-apis\/im\/v1\/messages\/?$/, category: "message_write" },
  {
    method: "POST",
    path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/reply\/?$/,
    category: "message_write",
  },
  { method: "PATCH", path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/?$/, category: "card" },
  { method: "PUT", path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/?$/, category: "edit" },
  { method: "DELETE", path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/?$/, category: "edit" },
  { method: "POST", path: /^\/open-apis\/interactive\/v1\/card\/update\/?$/, category: "card" },
  {
    method: null,
    path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/reactions(\/[^/]+)?\/?$/,
    category: "reaction",
  },
  {
    method: "GET",
    path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/resources\/[^/]+\/?$/,
    category: "download",
  },
  { method: "GET", path: /^\/open-apis\/im\/v1\/(images|files)\/[^/]+\/?$/, category: "download" },
  { method: "POST", path: /^\/open-apis\/im\/v1\/(images|files)\/?$/, category: "upload" },
];

/** The path of an absolute or root-relative URL, without its query. */
function pathOf(url: string): string {
  try {
    return new URL(url, "http://relative.invalid").pathname;
  } catch {
    return url.split("?")[0] ?? "";
  }
}

/** The `msg_type` of a message create or reply body (an object or its JSON). */
function msgType(body: unknown): string | null {
  let b = body;
  if (typeof b === "string") {
    try {
      b = JSON.parse(b);
    } catch {
      return null;
    }
  }
  const t = (b as { msg_type?: unknown } | null)?.msg_type;
  return typeof t === "string" ? t : null;
}

/**
 * The quota category of one call: a message create or reply is `card` when
 * its `msg_type` is `interactive`, else `send`; PATCH of a message and
 * `interactive/v1/card/update` are `card`; PUT and DELETE of a message are
 * `edit`; add, remove and list reactions are `reaction`; message resources
 * (and our own images and files read back) are `download`; image and file
 * uploads are `upload`; everything else (tokens, the long connection's
 * endpoint, bot and app info, users, chats, history, one message) is `probe`.
 *
 * @example
 * ```ts
 * import { apiCategory } from "./category.ts";
 * const base = "https://open.feishu.cn/open-apis/im/v1/messages";
 * if (apiCategory("post", base + "?receive_id_type=chat_id", { msg_type: "text" }) !== "send") throw new Error();
 * if (apiCategory("POST", base + "/om_1/reply", { msg_type: "interactive" }) !== "card") throw new Error();
 * if (apiCategory("GET", "/open-apis/bot/v3/info") !== "probe") throw new Error();
 * ```
 */
export function apiCategory(method: string, url: string, body?: unknown): ApiCategory {
  const m = method.toUpperCase();
  const path = pathOf(url);
  for (const row of TABLE) {
    if (row.method !== null && row.method !== m) continue;
    if (!row.path.test(path)) continue;
    if (row.category !== "message_write") return row.category;
    return msgType(body) === "interactive" ? "card" : "send";
  }
  return "probe";
}
