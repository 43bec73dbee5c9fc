/**
 * Reads what the agent summaries show from an agent directory: identity,
 * model, runtime, memory counts, add-ons and (when asked) the fleet of
 * sibling agents with their token ledgers. Every source is optional; a
 * missing or malformed file gives a default.
 * @module
 */

import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { machineTimeZone, validTimeZone } from "../lib/core/mod.ts";
import type { AgentProfile } from "./types.ts";
import {
  countNamed,
  isDir,
  isFile,
  listDir,
  num,
  type Obj,
  obj,
  readObject,
  readText,
  str,
} from "./read.ts";

/** Most sibling agents scanned. */
export const SIBLING_CAP = 50;
/** Bytes of a token ledger read. */
export const LEDGER_CAP = 1 << 20;

/** One agent of the fleet. */
export interface FleetAgent {
  name: string;
  state: string;
  model: string;
  molts: number;
  tokens: number;
  calls: number;
}

/** Everything the status and kanban cards show. */
export interface KanbanData {
  name: string;
  agentId: string;
  createdAt: unknown;
  molts: number;
  model: string;
  provider: string;
  contextLimit: number;
  language: string;
  /** The agent's time zone (checked), else this machine's: dates are shown in it. */
  timeZone: string;
  state: string;
  uptime: number;
  ctxTotal: number;
  ctxWindow: number;
  ctxPct: number;
  presets: { model: string; provider: string }[];
  knowledge: number;
  skills: number;
  delegates: number;
  capabilities: string[];
  addons: { name: string; on: boolean }[];
  /** Null unless the fleet was asked for. */
  fleet: FleetAgent[] | null;
  grandTotal: number;
  totalCalls: number;
}

function names(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  const o = obj(v);
  return o ? Object.keys(o) : [];
}

async function ledger(path: string): Promise<{ tokens: number; calls: number }> {
  const read = await readText(path, LEDGER_CAP);
  let tokens = 0, calls = 0;
  if (!read) return { tokens, calls };
  const lines = read.text.split("\n");
  // A cut file ends in a partial line: leave it out (totals are then a lower bound).
  if (read.cut) lines.pop();
  for (const line of lines) {
    if (line.trim() === "") continue;
    let row: Obj | null;
    try {
      row = obj(JSON.parse(line));
    } catch {
      continue;
    }
    if (!row) continue;
    calls++;
    for (const k of ["input", "output", "thinking"]) tokens += num(row[k]) ?? 0;
  }
  return { tokens, calls };
}

async function fleetAgent(dir: string): Promise<FleetAgent> {
  const meta = await readObject(join(dir, ".agent.json")) ?? {};
  const status = await readObject(join(dir, ".status.json")) ?? {};
  const { tokens, calls } = await ledger(join(dir, "logs", "token_ledger.jsonl"));
  return {
    name: basename(dir),
    state: str(obj(status.runtime)?.state) ?? str(meta.state) ?? "?",
    model: str(obj(meta.llm)?.model) ?? "?",
    molts: num(meta.molt_count) ?? 0,
    tokens,
    calls,
  };
}

async function fleet(workdir: string): Promise<FleetAgent[]> {
  const parent = dirname(workdir);
  const self = basename(workdir);
  const candidates = (await listDir(parent, 2000))
    .filter((e) => e.isDirectory && e.name !== self)
    .map((e) => e.name)
    .sort();
  const dirs = [workdir];
  for (const name of candidates) {
    if (dirs.length >= SIBLING_CAP) break;
    if (await isFile(join(parent, name, ".agent.json"))) dirs.push(join(parent, name));
  }
  const agents = await Promise.all(dirs.map(fleetAgent));
  return agents.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function expandHome(path: string, workdir: string): string {
  let home = "";
  try {
    home = Deno.env.get("HOME") ?? "";
  } catch { /* no env permission */ }
  if (home && (path === "~" || path.startsWith("~/"))) path = home + path.slice(1);
  return isAbsolute(path) ? path : resolve(workdir, path);
}

async function presets(preset: unknown, workdir: string): Promise<KanbanData["presets"]> {
  const allowed = obj(preset)?.allowed;
  if (!Array.isArray(allowed)) return [];
  const out: KanbanData["presets"] = [];
  for (const p of allowed.slice(0, 8)) {
    if (typeof p !== "string") continue;
    const file = await readObject(expandHome(p, workdir));
    const llm = obj(obj(file?.manifest)?.llm);
    if (file) out.push({ model: str(llm?.model) ?? "?", provider: str(llm?.provider) ?? "?" });
  }
  return out;
}

const ADDON_SECRETS: Record<string, string> = {
  telegram: ".secrets/telegram.json",
  imap: ".secrets/imap.json",
  feishu: ".secrets/feishu.json",
  wechat: ".secrets/wechat/config.json",
};

async function lineCount(path: string): Promise<number> {
  const read = await readText(path, LEDGER_CAP);
  return read ? read.text.split("\n").filter((l) => l.trim() !== "").length : 0;
}

async function moltFiles(workdir: string): Promise<number> {
  const entries = await listDir(join(workdir, "system", "summaries"), 10_000);
  return entries.filter((e) => e.isFile && /^molt_.*\.md$/.test(e.name)).length;
}

function zoneOf(o: Obj | null): string | null {
  if (!o) return null;
  const named = str(o.time_zone) ?? str(o.timezone);
  if (named) return named.trim();
  // A LingTai agent without time zone awareness lives in UTC.
  return o.timezone_awareness === false ? "UTC" : null;
}

/**
 * The agent's language, name and time zone, from its identity
 * (`.agent.json`) first, then its manifest (`init.json` → `manifest`): the
 * name is its nickname, else its true name (`agent_name`), else `name`; the
 * zone is `time_zone` or `timezone` as written, or `UTC` for an agent
 * without time zone awareness (`timezone_awareness: false`).
 */
export async function agentProfile(workdir: string): Promise<AgentProfile> {
  if (!workdir || !await isDir(workdir)) return { language: null, name: null, timeZone: null };
  const meta = await readObject(join(workdir, ".agent.json"));
  const manifest = obj((await readObject(join(workdir, "init.json")))?.manifest);
  const pick = (...keys: string[]) => {
    for (const o of [meta, manifest]) {
      for (const k of keys) {
        const v = str(o?.[k]);
        if (v) return v.trim();
      }
    }
    return null;
  };
  return {
    language: str(meta?.language) ?? str(manifest?.language),
    name: pick("nickname", "agent_name", "name"),
    timeZone: zoneOf(meta) ?? zoneOf(manifest),
  };
}

/**
 * Collects the summary of the agent in `workdir`; null when there is no
 * agent directory. The sibling scan (token ledgers of up to
 * {@link SIBLING_CAP} agents) runs only when `withFleet` is set.
 */
export async function collectKanbanData(
  workdir: string,
  now: number,
  withFleet: boolean,
): Promise<KanbanData | null> {
  if (!workdir || !await isDir(workdir)) return null;
  const init = await readObject(join(workdir, "init.json")) ?? {};
  const manifest = obj(init.manifest) ?? {};
  const meta = await readObject(join(workdir, ".agent.json")) ?? {};
  const status = await readObject(join(workdir, ".status.json")) ?? {};
  const llm = obj(meta.llm) ?? {}, mllm = obj(manifest.llm) ?? {};
  const runtime = obj(status.runtime) ?? {};
  const ctx = obj(obj(status.tokens)?.context) ?? {};
  const contextLimit = num(llm.context_limit) ?? num(manifest.context_limit) ?? 0;

  let uptime = num(runtime.uptime_seconds);
  if (uptime === null) {
    const started = Date.parse(String(str(runtime.started_at) ?? str(meta.started_at) ?? ""));
    uptime = Number.isNaN(started) ? 0 : Math.max(0, (now - started) / 1000);
  }
  const mcp = obj(init.mcp) ?? {};
  const addons = await Promise.all(
    [...new Set(names(init.addons))].sort().slice(0, 50).map(async (name) => ({
      name,
      on: name in ADDON_SECRETS
        ? await isFile(join(workdir, ADDON_SECRETS[name]!))
        : Object.hasOwn(mcp, name),
    })),
  );
  const agents = withFleet ? await fleet(workdir) : null;
  const caps = names(meta.capabilities);
  return {
    // The display name is the agent's nickname when it has one, else its
    // directory name (fleet rows always use directory names).
    name: str(meta.nickname) ?? basename(workdir),
    agentId: str(meta.agent_id) ?? "?",
    createdAt: meta.created_at,
    molts: num(meta.molt_count) ?? await moltFiles(workdir),
    model: str(llm.model) ?? str(mllm.model) ?? "?",
    provider: str(llm.provider) ?? str(mllm.provider) ?? "?",
    contextLimit,
    language: str(meta.language) ?? str(manifest.language) ?? "?",
    timeZone: validTimeZone(zoneOf(meta) ?? zoneOf(manifest)) ?? machineTimeZone(),
    state: str(runtime.state) ?? str(meta.state) ?? "?",
    uptime,
    ctxTotal: num(ctx.total_tokens) ?? 0,
    ctxWindow: num(ctx.window_size) ?? contextLimit,
    ctxPct: num(ctx.usage_pct) ?? 0,
    presets: await presets(meta.preset ?? manifest.preset, workdir),
    knowledge: await countNamed(join(workdir, "knowledge"), "KNOWLEDGE.md"),
    skills: await countNamed(join(workdir, ".library", "custom"), "SKILL.md"),
    delegates: await lineCount(join(workdir, "delegates", "ledger.jsonl")),
    capabilities: caps.length ? caps : names(manifest.capabilities),
    addons,
    fleet: agents,
    grandTotal: agents?.reduce((s, a) => s + a.tokens, 0) ?? 0,
    totalCalls: agents?.reduce((s, a) => s + a.calls, 0) ?? 0,
  };
}
