/**
 * Wire bodies and Feishu's size limits: a `text` request
 * body may hold 150 KB, a `post` or `interactive` one 30 KB. We measure the
 * request as sent (the body JSON with `content` as an escaped string) plus a
 * reserve for `receive_id`, `uuid` and the reply flags, and read "KB" as
 * 1000 bytes to stay on the safe side.
 * @module
 */

import { utf8Length } from "../core/mod.ts";
import type { JsonObject, WireBody } from "./types.ts";

/** Request-body byte limits per wire `msg_type` family. */
export interface ByteLimits {
  /** `msg_type: "text"` (default 150 000). */
  text: number;
  /** Everything else: post, interactive, media, share, sticker (default 30 000). */
  other: number;
}

/** Feishu's documented limits, read conservatively. */
export const FEISHU_BYTE_LIMITS: ByteLimits = { text: 150_000, other: 30_000 };

/** Bytes kept free for the rest of the request envelope. */
export const ENVELOPE_RESERVE_BYTES = 300;

/**
 * Builds a wire body; `content` becomes the JSON string Feishu expects.
 *
 * @example
 * ```ts
 * import { wireBody } from "./wire.ts";
 * const b = wireBody("text", { text: "hi" });
 * if (b.content !== '{"text":"hi"}') throw new Error();
 * ```
 */
export function wireBody(msgType: string, content: JsonObject): WireBody {
  return { msg_type: msgType, content: JSON.stringify(content) };
}

/**
 * The size of the request that carries `body`, as counted against the limits.
 *
 * @example
 * ```ts
 * import { requestBytes, wireBody } from "./wire.ts";
 * if (requestBytes(wireBody("text", { text: "" })) <= 300) throw new Error();
 * ```
 */
export function requestBytes(body: WireBody): number {
  return utf8Length(JSON.stringify(body)) + ENVELOPE_RESERVE_BYTES;
}

/** The limit that applies to a body. */
export function byteLimitOf(body: WireBody, limits: ByteLimits = FEISHU_BYTE_LIMITS): number {
  return body.msg_type === "text" ? limits.text : limits.other;
}

/**
 * A post whose rows are one `md` element each, plus optional extra rows
 * (an image or media element under a caption). The title stays empty.
 *
 * @example
 * ```ts
 * import { markdownPost } from "./wire.ts";
 * const post = JSON.stringify(markdownPost(["**hi**"]));
 * if (post !== '{"zh_cn":{"title":"","content":[[{"tag":"md","text":"**hi**"}]]}}') throw new Error();
 * ```
 */
export function markdownPost(
  markdown: readonly string[],
  extraRows: JsonObject[][] = [],
): JsonObject {
  const rows = markdown.map((text) => [{ tag: "md", text }] as JsonObject[]);
  return { zh_cn: { title: "", content: [...rows, ...extraRows] } };
}
