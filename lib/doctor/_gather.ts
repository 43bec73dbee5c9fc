/**
 * What `doctor` reads, all of it read-only: the config (validated as `serve`
 * validates it, secrets kept out) and `store.db`: API calls, health
 * snapshots, pending Typing, and the journal figures (FIFO depths, dead
 * letters, dedupe keys) the running server persists there — doctor never
 * opens the journal's own KV file, whose format is Deno's. Nothing here takes
 * the workdir lock or writes a file; a missing file is reported as missing,
 * never created.
 * @module
 */

import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { type LaunchOptions, loadConfig } from "../config/mod.ts";
import { stateDir } from "../core/mod.ts";
import { monthKey, type QuotaView, quotaView } from "../quota/mod.ts";
import {
  type HealthSnapshot,
  type JournalSnapshot,
  openSqliteReadOnly,
  readApiCalls,
  readHealth,
  readJournalFigures,
  type ReadOnlyMode,
  readTypingPending,
} from "../store/mod.ts";
import { checkStorage, type StorageSection } from "./_storage.ts";

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

/**
 * The journal as the server last saw it: the figures it wrote to `store.db`
 * (the file this section's path, presence and read mode describe), and when.
 */
export interface JournalSection extends FileSection, JournalSnapshot {
  /** When the server wrote the figures, or null when no server has yet. */
  snapshot_at: string | null;
  /** How long before this report that was. */
  snapshot_age_ms: number | null;
}

/** Everything gathered, with the secrets the output must not contain. */
export interface Gathered {
  config: ConfigSection;
  store: StoreSection;
  journal: JournalSection;
  /** Whether the state files can be written (absent in reports built from older data). */
  storage?: StorageSection;
  secrets: string[];
}

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

const NO_FIGURES: JournalSnapshot = {
  pending: 0,
  fifo: [],
  dead_letter_count: 0,
  dead_letters: [],
  dedupe_keys: 0,
};

function readStoreFile(
  workdir: string,
  now: number,
  monthlyCalls: number | null,
): { store: StoreSection; journal: JournalSection } {
  const month = monthKey(now);
  const none = {
    schema_version: null,
    health: [],
    typing_pending: [],
    quota: quotaView({ month, monthlyCalls, rows: [] }),
    figures: null,
  };
  const { figures, ...store } = withFile(join(stateDir(workdir), "store.db"), (db) => {
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
      figures: readJournalFigures(db),
    };
  }, none);
  const { path, present, read_mode, error } = store;
  const journal: JournalSection = {
    path,
    present,
    read_mode,
    error,
    snapshot_at: figures ? new Date(figures.updatedAt).toISOString() : null,
    snapshot_age_ms: figures ? Math.max(0, now - figures.updatedAt) : null,
    ...NO_FIGURES,
    ...figures?.figures,
  };
  return { store, journal };
}

/** Reads everything doctor reports on. */
export async function gather(launch: LaunchOptions, now: number): Promise<Gathered> {
  const [config, secrets] = await readConfigSection(launch);
  const { store, journal } = readStoreFile(launch.workdir, now, config.monthly_calls);
  const storage = checkStorage([store.error]);
  return { config, store, journal, storage, secrets };
}
