/**
 * Loading and validating the config file. Every problem becomes one clear
 * line; none of them ever contains a secret value.
 * @module
 */

import type { ToolSchemaSetting } from "./peek.ts";
import {
  ACCESS_BOTS,
  ACCESS_DM,
  ACCESS_OUTBOUND,
  configSchema,
  type FileConfig,
} from "./schema.ts";

/** The resolved, validated config with defaults applied. */
export interface Config {
  accounts: ResolvedAccount[];
  /** Absolute directories outbound media may come from (default: the workdir). */
  mediaRoots: string[];
  transcriber: FileConfig["transcriber"] | null;
  notify: { licc: boolean; claudeChannel: boolean };
  limits: Limits;
  /** The monthly API call quota, or null when none is configured (calls are counted anyway). */
  quota: { monthlyCalls: number | null };
  /** Which projection of the tool schema clients are shown. */
  toolSchema: ToolSchemaSetting;
  taskcard: TaskCardConfig;
  /** `keepRecalled`: a recalled message keeps its text and files (default false: removed). */
  privacy: { keepRecalled: boolean };
}

/** The resident Task Cards' settings with defaults applied. */
export interface TaskCardConfig {
  /** `conversation`: each card shows that conversation's work; `agent`: every card shows all of it. */
  scope: "conversation" | "agent";
  /** Routes woken or messaged within this many hours are kept up to date. */
  activeHours: number;
  /** Bindings of routes idle longer than this many days are dropped. */
  retentionDays: number;
}

/** The Task Card settings when the config sets none. */
export const DEFAULT_TASKCARD: Readonly<TaskCardConfig> = Object.freeze({
  scope: "conversation",
  activeHours: 24,
  retentionDays: 7,
});

/** Size caps with defaults applied. */
export interface Limits {
  /** Code points of text or markdown one send, reply or edit may carry. */
  outboundTextCodePoints: number;
  /** Bytes one inbound attachment may have; a larger download is stopped and recorded failed. */
  inboundDownloadBytes: number;
}

/** The caps when the config sets none. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  outboundTextCodePoints: 100_000,
  inboundDownloadBytes: 100 * 1024 * 1024,
});

/** An account with its domain resolved to a base URL. */
export interface ResolvedAccount {
  alias: string;
  appId: string;
  appSecret: string;
  allowedUsers: string[] | null;
  /** Open ids that may control the agent (local commands, control cards); none when absent. */
  owners?: string[];
  /** Base URL without a trailing slash, e.g. `https://open.feishu.cn`. */
  baseUrl: string;
  /** Who may DM the bot and where `send` may go (`access` in the file). */
  access?: AccessRules;
}

/** An account's `access` with defaults applied. */
export interface AccessRules {
  /**
   * `open`: anyone may DM (when `allowed_users` is empty); `allowlist`: only
   * `allowed_users` and owners; `pairing`: those plus people an owner paired.
   */
  dm: typeof ACCESS_DM[number];
  /** `any`: send anywhere; `admitted`: only to owners, admitted people and their chats. */
  outbound: typeof ACCESS_OUTBOUND[number];
  /** Other bots' messages: `ignore`, `mention` (absent: this) or `all`. */
  bots?: typeof ACCESS_BOTS[number];
  /** The loop guard's cap (absent: {@link DEFAULT_BOT_WAKES}). */
  botWakes?: BotWakes;
}

/** At most `max` bot messages wake the agent per chat within any `windowSeconds`. */
export interface BotWakes {
  max: number;
  windowSeconds: number;
}

/** The loop guard's cap when the config sets none: 10 bot wakes per chat per 10 minutes. */
export const DEFAULT_BOT_WAKES: Readonly<BotWakes> = Object.freeze({
  max: 10,
  windowSeconds: 600,
});

/** Result of {@link loadConfig}. */
export type ConfigResult =
  | { ok: true; config: Config; secrets: string[]; readable: true }
  | {
    ok: false;
    errors: string[];
    secrets: string[]; /** The file was read and parsed as JSON. */
    readable: boolean;
  };

/** Options of {@link loadConfig} and {@link parseConfig}. */
export interface ConfigOptions {
  workdir: string;
  /** True when LINGTAI_AGENT_DIR is set (LICC defaults on then). */
  lingtai: boolean;
}

/**
 * Reads and validates the config file.
 */
export async function loadConfig(path: string, options: ConfigOptions): Promise<ConfigResult> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) {
      return {
        ok: false,
        errors: [`Feishu config not found: ${path}`],
        secrets: [],
        readable: false,
      };
    }
    text = await Deno.readTextFile(path);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound
      ? "not found"
      : `not readable (${(err as Error).name})`;
    return { ok: false, errors: [`Feishu config ${why}: ${path}`], secrets: [], readable: false };
  }
  return parseConfig(text, options);
}

/**
 * Validates config text.
 *
 * @example Duplicate aliases are rejected
 * ```ts
 * import { parseConfig } from "./load.ts";
 * const acct = { alias: "a", app_id: "cli_a1b2c3d4e5f6a7b8", app_secret: "s3cret!" };
 * const r = parseConfig(JSON.stringify({ accounts: [acct, acct] }), { workdir: "/w", lingtai: false });
 * if (r.ok || !r.errors[0]?.includes("duplicate alias")) throw new Error();
 * if (r.errors.join().includes("s3cret!")) throw new Error();
 * ```
 */
export function parseConfig(text: string, options: ConfigOptions): ConfigResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      errors: [`Feishu config is not valid JSON: ${(err as Error).message}`],
      secrets: [],
      readable: false,
    };
  }
  const secrets = collectSecrets(raw);
  const parsed = configSchema.safeParse(raw);
  const errors: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors.push(describeIssue(issue));
    return { ok: false, errors, secrets, readable: true };
  }
  const seen = new Set<string>();
  for (const a of parsed.data.accounts) {
    if (seen.has(a.alias)) errors.push(`config accounts: duplicate alias '${a.alias}'`);
    seen.add(a.alias);
  }
  if (errors.length) return { ok: false, errors, secrets, readable: true };
  const data = parsed.data;
  return {
    ok: true,
    readable: true,
    secrets,
    config: {
      accounts: data.accounts.map((a) => ({
        alias: a.alias,
        appId: a.app_id,
        appSecret: a.app_secret,
        allowedUsers: a.allowed_users && a.allowed_users.length > 0 ? a.allowed_users : null,
        owners: [...new Set(a.owners ?? [])],
        baseUrl: resolveDomain(a.domain ?? "feishu"),
        access: {
          // Absent: today's rule, open unless `allowed_users` names someone.
          dm: a.access?.dm ??
            (a.allowed_users && a.allowed_users.length > 0 ? "allowlist" : "open"),
          outbound: a.access?.outbound ?? "any",
          bots: a.access?.bots ?? "mention",
          botWakes: {
            max: a.access?.bot_wakes?.max ?? DEFAULT_BOT_WAKES.max,
            windowSeconds: a.access?.bot_wakes?.window_seconds ?? DEFAULT_BOT_WAKES.windowSeconds,
          },
        },
      })),
      mediaRoots: data.media_roots ?? [options.workdir],
      transcriber: data.transcriber ?? null,
      notify: {
        licc: data.notify?.licc ?? options.lingtai,
        claudeChannel: data.notify?.claude_channel ?? true,
      },
      limits: {
        outboundTextCodePoints: data.limits?.outbound_text_code_points ??
          DEFAULT_LIMITS.outboundTextCodePoints,
        inboundDownloadBytes: data.limits?.inbound_download_bytes ??
          DEFAULT_LIMITS.inboundDownloadBytes,
      },
      quota: { monthlyCalls: data.quota?.monthly_calls ?? null },
      toolSchema: data.tool_schema ?? "auto",
      taskcard: {
        scope: data.taskcard?.scope ?? DEFAULT_TASKCARD.scope,
        activeHours: data.taskcard?.active_hours ?? DEFAULT_TASKCARD.activeHours,
        retentionDays: data.taskcard?.retention_days ?? DEFAULT_TASKCARD.retentionDays,
      },
      privacy: { keepRecalled: data.privacy?.keep_recalled ?? false },
    },
  };
}

/**
 * Maps a `domain` setting to a base URL without a trailing slash.
 *
 * @example
 * ```ts
 * import { resolveDomain } from "./load.ts";
 * if (resolveDomain("lark") !== "https://open.larksuite.com") throw new Error();
 * if (resolveDomain("http://127.0.0.1:9/") !== "http://127.0.0.1:9") throw new Error();
 * ```
 */
export function resolveDomain(domain: string): string {
  if (domain === "feishu") return "https://open.feishu.cn";
  if (domain === "lark") return "https://open.larksuite.com";
  return domain.replace(/\/+$/, "");
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

function describeIssue(issue: Issue): string {
  const where = issue.path.length
    ? "config " + issue.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("")
      .replace(/^\./, "")
    : "config";
  if (issue.code === "unrecognized_keys") {
    return `${where}: unknown key${issue.keys!.length > 1 ? "s" : ""} ${
      issue.keys!.map((k) => `'${k}'`).join(", ")
    }`;
  }
  if (issue.code === "invalid_type" && issue.message.includes("received undefined")) {
    return `${where}: required`;
  }
  return `${where}: ${issue.message}`;
}

/** Every `app_secret` string in the raw JSON, so logs can redact them. */
function collectSecrets(raw: unknown): string[] {
  const out: string[] = [];
  const accounts = (raw as { accounts?: unknown })?.accounts;
  if (Array.isArray(accounts)) {
    for (const a of accounts) {
      const s = (a as { app_secret?: unknown })?.app_secret;
      if (typeof s === "string" && s) out.push(s);
    }
  }
  return out;
}
