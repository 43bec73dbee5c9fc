/**
 * What `doctor` reads, all of it read-only: the config (validated as `serve`
 * validates it, secrets kept out), `store.db` (API calls, health snapshots,
 * pending Typing) and the journal's `queue.kv` (FIFO depths, dead letters,
 * dedupe keys). Nothing here takes the workdir lock or writes a file; a
 * missing file is reported as missing, never created.
 * @module
 */

import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { type LaunchOptions, loadConfig } from "../config/mod.ts";
import { stateDir } from "../core/mod.ts";
import { journalPath } from "../journal/mod.ts";
import { monthKey, type QuotaView, quotaView } from "../quota/mod.ts";
import {
  type HealthSnapshot,
  openSqliteReadOnly,
  readApiCalls,
  readHealth,
  type ReadOnlyMode,
  readTypingPending,
} from "../store/mod.ts";
import { countLive, listPrefix } from "./_kv.ts";

/** The config as doctor shows it: shape and settings, never a secret. */
export interface ConfigSection {
  path: string | null;
  valid: boolean;
  errors: string[];
  accounts: {
    alias: string;
    app_id: string;
    base_url: string;
    app_secret: "[set]";
    allowed_users: number | null;
  }[];
  monthly_calls: number | null;
  media_roots: string[];
  transcriber: string | null;
  tool_schema: string | null;
}

/** A file doctor read, or why not. */
export interface FileSection {
  path: string;
  present: boolean;
  /** `wal_reader` while a server has it open, `snapshot` when nobody does. */
  read_mode: ReadOnlyMode | null;
  error: string | null;
}

/** What `store.db` says. */
export interface StoreSection extends FileSection {
  schema_version: number | null;
  health: HealthSnapshot[];
  typing_pending: { account: string; count: number }[];
  quota: QuotaView;
}

/** What `queue.kv` says. */
export interface JournalSection extends FileSection {
  fifo: {
    account: string;
    chat: string;
    depth: number;
    attempts: number;
    last_error: string | null;
  }[];
  pending: number;
  dead_letters: {
    account: string;
    chat: string;
    seq: number;
    attempts: number;
    error: string;
    admitted_at: string | null;
    dead_at: string | null;
  }[];
  dedupe_keys: number;
}

/** Everything gathered, with the secrets the output must not contain. */
export interface Gathered {
  config: ConfigSection;
  store: StoreSection;
  journal: JournalSection;
  secrets: string[];
}

const iso = (ms: unknown) =>
  typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : null;
const message = (err: unknown) => err instanceof Error ? err.message : String(err);

async function readConfigSection(launch: LaunchOptions): Promise<[ConfigSection, string[]]> {
  const empty: ConfigSection = {
    path: launch.configPath,
    valid: false,
    errors: [],
    accounts: [],
    monthly_calls: null,
    media_roots: [],
    transcriber: null,
    tool_schema: null,
  };
  if (!launch.configPath) {
    return [{
      ...empty,
      errors: ["No config file named (--config, FEISHU_MCP_CONFIG or LINGTAI_FEISHU_CONFIG)"],
    }, []];
  }
  const r = await loadConfig(launch.configPath, {
    workdir: launch.workdir,
    lingtai: Boolean(Deno.env.get("LINGTAI_AGENT_DIR")),
  });
  if (!r.ok) return [{ ...empty, errors: r.errors }, r.secrets];
  const c = r.config;
  return [{
    path: launch.configPath,
    valid: true,
    errors: [],
    accounts: c.accounts.map((a) => ({
      alias: a.alias,
      app_id: a.appId,
      base_url: a.baseUrl,
      app_secret: "[set]",
      allowed_users: a.allowedUsers ? a.allowedUsers.length : null,
    })),
    monthly_calls: c.quota.monthlyCalls,
    media_roots: c.mediaRoots,
    transcriber: c.transcriber ? c.transcriber.command[0] ?? null : null,
    tool_schema: c.toolSchema,
  }, [...r.secrets, ...c.accounts.map((a) => a.appSecret)]];
}

/** Opens a file read-only, runs `fn`, closes it; absence and failures become the section's fields. */
function withFile<T extends object>(
  path: string,
  fn: (db: DatabaseSync) => T,
  fallback: T,
): FileSection & T {
  let opened: ReturnType<typeof openSqliteReadOnly>;
  try {
    opened = openSqliteReadOnly(path);
  } catch (err) {
    const absent = err instanceof Deno.errors.NotFound;
    return {
      path,
      present: !absent,
      read_mode: null,
      error: absent ? null : message(err),
      ...fallback,
    };
  }
  try {
    return { path, present: true, read_mode: opened.mode, error: null, ...fn(opened.db) };
  } catch (err) {
    return { path, present: true, read_mode: opened.mode, error: message(err), ...fallback };
  } finally {
    opened.db.close();
  }
}

function readStoreSection(workdir: string, now: number, monthlyCalls: number | null): StoreSection {
  const month = monthKey(now);
  const none = {
    schema_version: null,
    health: [],
    typing_pending: [],
    quota: quotaView({ month, monthlyCalls, rows: [] }),
  };
  return withFile(join(stateDir(workdir), "store.db"), (db) => {
    const v = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
    const version = v ? Number(v.value) : null;
    // A store older than the quota's migration has no counts or snapshots yet.
    const tables = new Set(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) =>
        String(r.name)
      ),
    );
    return {
      schema_version: version,
      health: tables.has("health") ? readHealth(db) : [],
      typing_pending: readTypingPending(db),
      quota: quotaView({
        month,
        monthlyCalls,
        rows: tables.has("api_calls") ? readApiCalls(db, month) : [],
      }),
    };
  }, none);
}

function readJournalSection(workdir: string, now: number): JournalSection {
  const none = { fifo: [], pending: 0, dead_letters: [], dedupe_keys: 0 };
  return withFile(journalPath(workdir), (db) => {
    const fifo = new Map<string, JournalSection["fifo"][number]>();
    for (const row of listPrefix(db, ["journal", "fifo"], { values: true })) {
      const [, , account, chat] = row.key as [string, string, string, string];
      const id = `${account}\u0000${chat}`;
      const value = row.value as { attempts?: number; lastError?: string };
      const c = fifo.get(id);
      if (c) c.depth++;
      // The head of the chat (the smallest seq) is the entry being tried.
      else {fifo.set(id, {
          account,
          chat,
          depth: 1,
          attempts: value.attempts ?? 0,
          last_error: value.lastError ?? null,
        });}
    }
    const dead = listPrefix(db, ["journal", "dead"], { values: true }).map((row) => {
      const [, , account, chat, seq] = row.key as [string, string, string, string, number];
      const v = row.value as {
        attempts?: number;
        error?: string;
        admittedAt?: number;
        deadAt?: number;
      };
      return {
        account,
        chat,
        seq: Number(seq),
        attempts: v.attempts ?? 0,
        error: String(v.error ?? ""),
        admitted_at: iso(v.admittedAt),
        dead_at: iso(v.deadAt),
      };
    });
    const list = [...fifo.values()];
    return {
      fifo: list,
      pending: list.reduce((n, c) => n + c.depth, 0),
      dead_letters: dead,
      dedupe_keys: countLive(db, ["journal", "dedupe"], now),
    };
  }, none);
}

/** Reads everything doctor reports on. */
export async function gather(launch: LaunchOptions, now: number): Promise<Gathered> {
  const [config, secrets] = await readConfigSection(launch);
  return {
    config,
    store: readStoreSection(launch.workdir, now, config.monthly_calls),
    journal: readJournalSection(launch.workdir, now),
    secrets,
  };
}
