/**
 * The stderr logger. stdout belongs to MCP; every diagnostic goes through a
 * `Logger`, and every line passes the redactor first, so secrets and tokens
 * never reach a log even when a library prints them.
 * @module
 */

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

const SECRET_QUERY =
  /([?&](?:access_key|ticket|token|tenant_access_token|app_access_token)=)[^&\s"']*/gi;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;
const TOKEN_VALUE = /\b([tu])-[A-Za-z0-9._-]{8,}/g;
const SECRET_JSON =
  /("(?:app_secret|AppSecret|appSecret|tenant_access_token|app_access_token|access_token|secret)"\s*:\s*")[^"]*"/g;
const SECRET_KV = /\b((?:app_secret|appSecret|AppSecret|access_token)\s*[=:]\s*)[^\s,;&"']+/g;

/**
 * Removes credentials from one line of text: token query parameters, bearer
 * headers, `t-`/`u-` tokens, secret-named JSON fields and the literal secrets
 * registered with the redactor.
 *
 * @example
 * ```ts
 * import { Redactor } from "./log.ts";
 * const r = new Redactor(["s3cr3t-value"]);
 * const out = r.redact("GET /ws?access_key=abc&trace=ok s3cr3t-value");
 * if (out !== "GET /ws?access_key=[REDACTED]&trace=ok [REDACTED]") throw new Error(out);
 * ```
 */
export class Redactor {
  #secrets = new Set<string>();

  constructor(secrets: Iterable<string> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a literal secret (e.g. an `app_secret`) to strip everywhere. */
  add(secret: string): void {
    if (secret.length >= 4) this.#secrets.add(secret);
  }

  redact(text: string): string {
    let out = text
      .replace(SECRET_QUERY, "$1[REDACTED]")
      .replace(BEARER, "$1[REDACTED]")
      .replace(SECRET_JSON, '$1[REDACTED]"')
      .replace(SECRET_KV, "$1[REDACTED]")
      .replace(TOKEN_VALUE, "$1-[REDACTED]");
    for (const s of this.#secrets) out = out.split(s).join("[REDACTED]");
    return out;
  }
}

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
 * import { createLogger, Redactor } from "./log.ts";
 * const lines: string[] = [];
 * const log = createLogger({ sink: (l) => lines.push(l), redactor: new Redactor(["hunter2x"]), now: () => 0 });
 * log.info("login", { secret: "hunter2x" });
 * if (lines[0]?.includes("hunter2x")) throw new Error();
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = RANK[options.level ?? "info"];
  const sink = options.sink ?? stderrSink;
  const redactor = options.redactor ?? new Redactor();
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
