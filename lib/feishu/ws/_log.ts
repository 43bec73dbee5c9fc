/**
 * Logging for the long connection: the WS URL carries `access_key` and
 * `ticket` in its query string, and the SDK logs that URL at debug level, so
 * every line loses URL query strings before it reaches our logger.
 * @module
 */

import type { Logger } from "../../core/mod.ts";

/**
 * Removes the query string of every ws/wss/http/https URL in a text.
 *
 * @example
 * ```ts
 * import { stripUrlQueries } from "./_log.ts";
 * const s = stripUrlQueries("ws url: wss://msg-frontier.feishu.cn/ws/v2?fpid=1&access_key=k&ticket=t ok");
 * if (s !== "ws url: wss://msg-frontier.feishu.cn/ws/v2?… ok") throw new Error(s);
 * ```
 */
export function stripUrlQueries(text: string): string {
  return text.replace(/\b((?:wss?|https?):\/\/[^\s?#"']*)\?[^\s"']*/gi, "$1?…");
}

/**
 * The host (and port) of a URL, without path or query, or null.
 *
 * @example
 * ```ts
 * import { hostOf } from "./_log.ts";
 * if (hostOf("wss://msg-frontier.feishu.cn/ws/v2?ticket=t") !== "msg-frontier.feishu.cn") throw new Error();
 * if (hostOf("not a url") !== null) throw new Error();
 * ```
 */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    // not a URL (e.g. the SDK has no endpoint yet): there is no host to show
    return null;
  }
}

/** A logger that strips URL query strings from messages and string fields. */
export function queryFreeLogger(log: Logger): Logger {
  const clean = (fields?: Record<string, unknown>) =>
    fields &&
    Object.fromEntries(
      Object.entries(fields).map(([k, v]) => [k, typeof v === "string" ? stripUrlQueries(v) : v]),
    );
  return {
    error: (m, f) => log.error(stripUrlQueries(m), clean(f)),
    warn: (m, f) => log.warn(stripUrlQueries(m), clean(f)),
    info: (m, f) => log.info(stripUrlQueries(m), clean(f)),
    debug: (m, f) => log.debug(stripUrlQueries(m), clean(f)),
    enabled: (level) => log.enabled?.(level) ?? true,
  };
}
