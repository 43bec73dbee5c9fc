/**
 * The stderr logger. stdout belongs to MCP; every diagnostic goes through a
 * `Logger`, and every line passes the redactor (`redact.ts`, the same one
 * the cards use) first, so secrets and tokens never reach a log even when a
 * library prints them.
 * @module
 */

import { Redactor } from "./redact.ts";

/** Log levels, most severe first. */
export type LogLevel = "error" | "warn" | "info" | "debug";

/** A structured logger; `fields` are rendered as `key=value`. */
export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** Whether lines of this level are kept (lets callers skip building them). */
  enabled?(level: LogLevel): boolean;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** Where log lines go; the default writes to stderr. */
export type LogSink = (line: string) => void;

const encoder = new TextEncoder();

/** Writes one line to stderr synchronously (never stdout). */
export const stderrSink: LogSink = (line) => {
  try {
    Deno.stderr.writeSync(encoder.encode(line + "\n"));
  } catch {
    // stderr closed: nowhere left to report; dropping the line is the only option.
  }
};

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level?: LogLevel;
  sink?: LogSink;
  redactor?: Redactor;
  /** Prefix naming the component, e.g. `feishu-mcp`. */
  name?: string;
  now?: () => number;
}

/**
 * Builds a logger that redacts every line and writes it to the sink.
 *
 * @example
 * ```ts
 * import { createLogger } from "./log.ts";
 * import { Redactor } from "./redact.ts";
 * const lines: string[] = [];
 * const log = createLogger({ sink: (l) => lines.push(l), redactor: new Redactor(["hunter2x"]), now: () => 0 });
 * log.info("login", { secret: "hunter2x" });
 * if (lines[0]?.includes("hunter2x")) throw new Error();
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = RANK[options.level ?? "info"];
  const sink = options.sink ?? stderrSink;
  const redactor = (options.redactor ?? new Redactor()).forLogs();
  const name = options.name ?? "feishu-mcp";
  const now = options.now ?? Date.now;
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] > level) return;
    const rendered = fields
      ? " " +
        Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : safeJson(v)}`)
          .join(" ")
      : "";
    sink(
      redactor.redact(
        `${new Date(now()).toISOString()} ${lvl.toUpperCase()} ${name} ${msg}${rendered}`,
      ),
    );
  };
  return {
    error: (m, f) => emit("error", m, f),
    warn: (m, f) => emit("warn", m, f),
    info: (m, f) => emit("info", m, f),
    debug: (m, f) => emit("debug", m, f),
    enabled: (lvl) => RANK[lvl] <= level,
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * Points `console.log/info/debug` at stderr so a library that prints can never
 * corrupt the MCP stream on stdout.
 */
export function guardStdout(logger: Logger): void {
  const toStderr = (...args: unknown[]) =>
    logger.info(args.map((a) => typeof a === "string" ? a : safeJson(a)).join(" "));
  // deno-lint-ignore no-console -- this is the one place that re-points console at stderr
  console.log = toStderr;
  // deno-lint-ignore no-console
  console.info = toStderr;
  // deno-lint-ignore no-console
  console.debug = toStderr;
}
