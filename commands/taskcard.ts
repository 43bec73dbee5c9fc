/**
 * The agent-wide Task Card preference (`feishu/taskcard.json`: shown or
 * hidden, and how many recent rounds a card shows) and the `/taskcard`
 * argument grammar.
 * @module
 */

import { join } from "node:path";
import { writeFileAtomic } from "../lib/core/mod.ts";
import { isDir, obj, readHead } from "./read.ts";

/** The stored preference. */
export interface TaskcardPreference {
  enabled: boolean;
  normalRows: number;
}

/** The defaults: shown, one row. */
export const TASKCARD_DEFAULTS: TaskcardPreference = { enabled: true, normalRows: 1 };

function validRows(n: unknown): n is number {
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 10;
}

/** Reads and writes the preference; setters persist both fields before answering. */
export interface TaskcardStore {
  load(): Promise<TaskcardPreference>;
  setEnabled(enabled: boolean): Promise<void>;
  setNormalRows(rows: number): Promise<void>;
}

/** The file-backed store under `<workdir>/feishu/taskcard.json`. */
export function fileTaskcardStore(
  workdir: string,
  warn: (msg: string, fields?: Record<string, unknown>) => void = () => {},
): TaskcardStore {
  const path = join(workdir, "feishu", "taskcard.json");
  const load = async (): Promise<TaskcardPreference> => {
    if (!workdir) return { ...TASKCARD_DEFAULTS };
    const head = await readHead(path, 64 << 10);
    if (!head) {
      const missing = await Deno.lstat(path).then(() => false, () => true);
      if (!missing) warn("taskcard preference unreadable; using defaults", { path });
      return { ...TASKCARD_DEFAULTS };
    }
    let data: Record<string, unknown> | null = null;
    try {
      data = head.cut ? null : obj(JSON.parse(new TextDecoder().decode(head.bytes)));
    } catch { /* malformed */ }
    if (!data) {
      warn("taskcard preference invalid; using defaults", { path });
      return { ...TASKCARD_DEFAULTS };
    }
    return {
      enabled: typeof data.taskcard === "boolean" ? data.taskcard : true,
      normalRows: validRows(data.normal_rows) ? data.normal_rows : 1,
    };
  };
  const save = async (pref: TaskcardPreference) => {
    if (!workdir || !await isDir(workdir)) throw new Error("agent directory missing");
    const json = JSON.stringify({ taskcard: pref.enabled, normal_rows: pref.normalRows }, null, 2);
    await writeFileAtomic(path, json);
  };
  return {
    load,
    async setEnabled(enabled) {
      if (typeof enabled !== "boolean") throw new TypeError("enabled must be a boolean");
      await save({ ...await load(), enabled });
    },
    async setNormalRows(rows) {
      if (!validRows(rows)) throw new RangeError("normal rows must be 1..10");
      await save({ ...await load(), normalRows: rows });
    },
  };
}

/** What `/taskcard …` did. */
export type TaskcardResult =
  | { status: "ok"; enabled: boolean; normalRows: number }
  | { status: "usage" }
  | { status: "update_failed" };

/**
 * Applies a full `/taskcard` text: no argument shows the preference; `on`
 * or `off` (any case) switches it; ASCII digits worth 1..10 set the rows;
 * anything else, or more than one argument, is a usage error. A failing
 * store gives `update_failed`.
 */
export async function applyTaskcard(text: string, store: TaskcardStore): Promise<TaskcardResult> {
  const args = text.trim().split(/\s+/).slice(1);
  if (args.length > 1) return { status: "usage" };
  try {
    if (args.length === 1) {
      const arg = args[0]!.toLowerCase();
      if (arg === "on" || arg === "off") await store.setEnabled(arg === "on");
      else if (/^[0-9]+$/.test(arg) && validRows(Number(arg))) {
        await store.setNormalRows(Number(arg));
      } else return { status: "usage" };
    }
    const pref = await store.load();
    return { status: "ok", enabled: pref.enabled, normalRows: pref.normalRows };
  } catch {
    return { status: "update_failed" };
  }
}
