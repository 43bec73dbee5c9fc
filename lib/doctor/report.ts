/**
 * The doctor's verdict and its two renderings: the report as data (what
 * `--json` prints), the list of things that need attention (any makes the
 * exit code 1), a readable text, and the redaction every output passes.
 * Pure: gathered data and a time in, report out.
 * @module
 */

import { Redactor } from "../core/mod.ts";
import type { Gathered } from "./_gather.ts";

/** One account's connection as the last health snapshot recorded it. */
export interface ConnectionReport {
  account: string;
  state: string | null;
  since: string | null;
  last_event_at: string | null;
  last_error: string | null;
  /** The failed auth state (`auth: token rejected at …`), or null while tokens work. */
  auth_state: string | null;
  /** When the server wrote the snapshot, and how long ago that was. */
  snapshot_at: string | null;
  snapshot_age_ms: number | null;
}

/** The whole report. */
export interface DoctorReport {
  generated_at: string;
  healthy: boolean;
  attention: string[];
  config: Gathered["config"];
  connections: ConnectionReport[];
  store: Omit<Gathered["store"], "health" | "quota" | "typing_pending">;
  journal: Omit<Gathered["journal"], "dead_letters"> & {
    dead_letter_reasons: { error: string; count: number }[];
    /** The newest dead letters (at most 20), without their payloads. */
    dead_letters: Gathered["journal"]["dead_letters"];
  };
  typing_pending: { total: number; by_account: Record<string, number> };
  quota: Gathered["store"]["quota"];
  /** Whether the state files can be written: `ok`, `disk_full` or `read_only`. */
  storage: NonNullable<Gathered["storage"]>;
}

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

/**
 * Builds the report and its verdict.
 *
 * @example A dead letter needs attention
 * ```ts
 * import { buildReport } from "./report.ts";
 * const file = { path: "/w/x", present: true, read_mode: "snapshot" as const, error: null };
 * const quota = { month: "2025-01", monthly_calls: null, used: 0, by_category: { send: 0, card: 0, edit: 0, reaction: 0, download: 0, upload: 0, probe: 0 }, by_account: {}, ratio: null, warning: null, saving: false };
 * const r = buildReport({
 *   config: { path: "/c.json", valid: true, errors: [], accounts: [], monthly_calls: null, media_roots: [], transcriber: null, tool_schema: "auto" },
 *   store: { ...file, schema_version: 5, health: [], typing_pending: [], quota },
 *   journal: { ...file, snapshot_at: "1970-01-01T00:00:00.000Z", snapshot_age_ms: 0, fifo: [], pending: 0, dedupe_keys: 0, dead_letter_count: 1, dead_letters: [{ account: "main", chat: "oc_1", seq: 1, attempts: 8, error: "boom", admitted_at: null, dead_at: null }] },
 *   secrets: [],
 * }, 0);
 * if (r.healthy || !r.attention[0]?.includes("dead letter")) throw new Error(r.attention.join());
 * ```
 */
export function buildReport(g: Gathered, now: number): DoctorReport {
  const attention: string[] = [];
  if (!g.config.valid) {
    attention.push(`config: ${g.config.errors.join("; ") || "invalid"}`);
  }
  const f = g.store;
  if (!f.present) {
    attention.push(`${f.path} does not exist (has the server run in this workdir?)`);
  } else if (f.error) attention.push(`${f.path} could not be read: ${f.error}`);
  else if (g.journal.snapshot_at === null) {
    attention.push("journal: no server has written its figures yet");
  }
  const snapshots = new Map(g.store.health.map((h) => [h.account, h]));
  const aliases = g.config.accounts.length
    ? g.config.accounts.map((a) => a.alias)
    : [...snapshots.keys()];
  const connections = aliases.map((account): ConnectionReport => {
    const h = snapshots.get(account);
    if (!h) {
      return {
        account,
        state: null,
        since: null,
        last_event_at: null,
        last_error: null,
        auth_state: null,
        snapshot_at: null,
        snapshot_age_ms: null,
      };
    }
    return {
      account,
      state: h.state,
      since: iso(h.since),
      last_event_at: iso(h.lastEventAt),
      last_error: h.lastError,
      auth_state: h.auth ?? null,
      snapshot_at: iso(h.updatedAt),
      snapshot_age_ms: Math.max(0, now - h.updatedAt),
    };
  });
  for (const c of connections) {
    if (c.state === null) attention.push(`account ${c.account}: no connection snapshot recorded`);
    else if (c.state !== "connected") {
      attention.push(`account ${c.account}: connection ${c.state} in the last snapshot`);
    }
    if (c.auth_state) attention.push(`account ${c.account}: ${c.auth_state}`);
  }
  const dead = g.journal.dead_letters;
  const deadCount = g.journal.dead_letter_count;
  if (deadCount) {
    attention.push(`${deadCount} dead letter${deadCount === 1 ? "" : "s"} in the journal`);
  }
  if (g.store.quota.warning) attention.push(`quota: ${g.store.quota.warning}`);
  const storage = g.storage ?? { state: "ok", error: null };
  if (storage.state !== "ok") attention.push(`storage: ${storage.error}`);

  const byAccount: Record<string, number> = {};
  for (const t of g.store.typing_pending) byAccount[t.account] = t.count;
  const { health: _h, quota: _q, typing_pending: _t, ...store } = g.store;
  const { dead_letters: _d, ...journal } = g.journal;
  return {
    generated_at: new Date(now).toISOString(),
    healthy: attention.length === 0,
    attention,
    config: g.config,
    connections,
    store,
    journal: {
      ...journal,
      dead_letter_count: deadCount,
      dead_letter_reasons: reasonsOf(dead),
      dead_letters: [...dead].sort((a, b) => (b.dead_at ?? "").localeCompare(a.dead_at ?? ""))
        .slice(0, 20),
    },
    typing_pending: {
      total: g.store.typing_pending.reduce((n, t) => n + t.count, 0),
      by_account: byAccount,
    },
    quota: g.store.quota,
    storage,
  };
}

function reasonsOf(letters: readonly { error: string }[]): { error: string; count: number }[] {
  const by = new Map<string, number>();
  for (const l of letters) by.set(l.error, (by.get(l.error) ?? 0) + 1);
  return [...by].map(([error, count]) => ({ error, count }))
    .sort((a, b) => b.count - a.count || a.error.localeCompare(b.error));
}

const age = (ms: number | null) =>
  ms === null ? "" : ms < 1000 ? " (just now)" : ` (${Math.round(ms / 1000)} s ago)`;

/** The readable report. */
export function renderText(r: DoctorReport): string {
  const out: string[] = [];
  out.push(`feishu-mcp doctor · ${r.generated_at}`);
  out.push(r.healthy ? "Healthy." : `Needs attention (${r.attention.length}):`);
  for (const a of r.attention) out.push(`  ! ${a}`);
  out.push("", "Config");
  out.push(`  file: ${r.config.path ?? "(none)"} · ${r.config.valid ? "valid" : "INVALID"}`);
  for (const e of r.config.errors) out.push(`  - ${e}`);
  for (const a of r.config.accounts) {
    const users = a.allowed_users === null ? "everyone" : `${a.allowed_users} allowed users`;
    out.push(`  - ${a.alias}: ${a.app_id} at ${a.base_url}, app_secret ${a.app_secret}, ${users}`);
  }
  if (r.config.valid) {
    out.push(`  quota.monthly_calls: ${r.config.monthly_calls ?? "not set"}`);
  }
  out.push("", "Connections (from the server's last snapshot)");
  if (r.connections.length === 0) out.push("  (no accounts)");
  for (const c of r.connections) {
    if (c.state === null) {
      out.push(`  - ${c.account}: no snapshot`);
      continue;
    }
    out.push(
      `  - ${c.account}: ${c.state} since ${c.since ?? "?"} · last event ${
        c.last_event_at ?? "never"
      } · snapshot ${c.snapshot_at}${age(c.snapshot_age_ms)}`,
    );
    if (c.last_error) out.push(`    last error: ${c.last_error}`);
    if (c.auth_state) out.push(`    ${c.auth_state}`);
  }
  const j = r.journal;
  out.push(
    "",
    j.snapshot_at === null
      ? "Journal (no server has written its figures yet)"
      : `Journal (from the server's last snapshot, ${j.snapshot_at}${age(j.snapshot_age_ms)})`,
  );
  out.push(
    `  pending: ${j.pending} · dead letters: ${j.dead_letter_count} · dedupe keys: ${j.dedupe_keys}`,
  );
  for (const c of j.fifo) {
    const tried = c.attempts
      ? ` · ${c.attempts} failed attempts, last: ${c.last_error ?? "?"}`
      : "";
    out.push(`  - ${c.account} ${c.chat}: ${c.depth} waiting${tried}`);
  }
  for (const d of j.dead_letter_reasons) out.push(`  dead: ${d.count} × ${d.error}`);
  out.push("", "Presence");
  out.push(`  Typing reactions pending: ${r.typing_pending.total}`);
  const q = r.quota;
  out.push("", `API calls in ${q.month} (UTC)`);
  out.push(
    `  used: ${q.used}${q.monthly_calls === null ? "" : ` of ${q.monthly_calls}`}${
      q.ratio === null ? "" : ` (${(q.ratio * 100).toFixed(1)}%)`
    }${q.saving ? " · saving calls" : ""}`,
  );
  out.push(
    "  " + Object.entries(q.by_category).map(([k, v]) => `${k} ${v}`).join(" · "),
  );
  for (const [a, n] of Object.entries(q.by_account)) out.push(`  - ${a}: ${n}`);
  if (q.warning) out.push(`  ! ${q.warning}`);
  out.push("", `Storage: ${r.storage.state}${r.storage.error ? ` (${r.storage.error})` : ""}`);
  out.push(
    "",
    `Store: ${r.store.path} (schema ${r.store.schema_version ?? "?"}, read as ${
      r.store.read_mode ?? "-"
    })`,
  );
  return out.join("\n") + "\n";
}

/**
 * Removes the config's secrets and anything token-shaped from doctor's output.
 *
 * @example
 * ```ts
 * import { redactOutput } from "./report.ts";
 * const out = redactOutput("token t-emu_0001 and s3cret-value", ["s3cret-value"]);
 * if (out !== "token t-[REDACTED] and [REDACTED]") throw new Error(out);
 * ```
 */
export function redactOutput(text: string, secrets: readonly string[]): string {
  // The shared redactor already masks token-shaped words (`t-…`, `u-…`, underscores included).
  return new Redactor(secrets).redact(text);
}
