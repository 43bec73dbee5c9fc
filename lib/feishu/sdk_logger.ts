/**
 * A node-sdk logger that writes through our redacting stderr logger. The SDK's
 * default logger prints to stdout (it would corrupt MCP) and logs whole
 * AxiosErrors (with bearer tokens); this one summarises errors and redacts.
 * @module
 */

import type { Logger } from "../core/mod.ts";

/** The shape the node-sdk expects for `logger`. */
export interface SdkLogger {
  error(...msg: unknown[]): void;
  warn(...msg: unknown[]): void;
  info(...msg: unknown[]): void;
  debug(...msg: unknown[]): void;
  trace(...msg: unknown[]): void;
}

/**
 * Renders one SDK log argument list compactly: errors as `name: message`
 * (plus HTTP status and Feishu code), objects as bounded JSON.
 *
 * @example
 * ```ts
 * import { summariseSdkArgs } from "./sdk_logger.ts";
 * if (summariseSdkArgs([["[ws]", "connected"]]) !== "[ws] connected") throw new Error();
 * ```
 */
export function summariseSdkArgs(args: unknown[]): string {
  const flat = args.length === 1 && Array.isArray(args[0]) ? args[0] as unknown[] : args;
  return flat.map(summarise).join(" ").slice(0, 2000);
}

function summarise(v: unknown): string {
  if (typeof v === "string") return v;
  if (v instanceof Error) {
    const resp =
      (v as { response?: { status?: number; data?: { code?: unknown; msg?: unknown } } }).response;
    const extra = resp
      ? ` (http ${resp.status ?? "?"}${
        resp.data?.code !== undefined ? ` code=${String(resp.data.code)}` : ""
      }${typeof resp.data?.msg === "string" ? ` msg=${resp.data.msg}` : ""})`
      : "";
    return `${v.name}: ${v.message}${extra}`;
  }
  try {
    return JSON.stringify(v)?.slice(0, 500) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Adapts our logger for the node-sdk; SDK `info` is demoted to debug (it is chatty). */
export function sdkLogger(log: Logger, component: string): SdkLogger {
  const at = (fn: (m: string) => void) => (...args: unknown[]) =>
    fn(`${component} ${summariseSdkArgs(args)}`);
  return {
    error: at((m) => log.warn(m)),
    warn: at((m) => log.warn(m)),
    info: at((m) => log.debug(m)),
    debug: at((m) => log.debug(m)),
    trace: () => {},
  };
}
