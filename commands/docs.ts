/**
 * The agent's readable documents: the current briefing and the markdown
 * files of `system/`.
 * @module
 */

import { join } from "node:path";
import { isDir, listDir, obj, readObject, readText, str } from "./read.ts";

/** Most entries of `system/` or `knowledge/` scanned. */
export const DIR_SCAN_CAP = 10_000;
/** Most matching system documents whose content is read. */
export const MATCH_CAP = 15;

/** A briefing lookup: `text` is set when `status` is `ok`. */
export interface BriefResult {
  status: "ok" | "not_found" | "agent_dir_missing";
  text?: string;
  /** The file was longer than what was read. */
  cut?: boolean;
}

/**
 * The briefing: `system/brief.md` when readable and non-blank, else the
 * first readable `knowledge/<dir>/brief.md` in name order (even if blank),
 * else `brief` of `init.json` or of its manifest.
 */
export async function readBrief(workdir: string): Promise<BriefResult> {
  if (!workdir || !await isDir(workdir)) return { status: "agent_dir_missing" };
  const own = await readText(join(workdir, "system", "brief.md"));
  let found = own && own.text.trim() !== "" ? own : null;
  if (!found) {
    const dirs = (await listDir(join(workdir, "knowledge"), DIR_SCAN_CAP))
      .filter((e) => e.isDirectory).map((e) => e.name).sort();
    for (const d of dirs) {
      const read = await readText(join(workdir, "knowledge", d, "brief.md"));
      if (read) {
        found = read;
        break;
      }
    }
  }
  if (found && found.text.trim() !== "") return { status: "ok", text: found.text, cut: found.cut };
  const init = await readObject(join(workdir, "init.json"));
  const text = str(init?.brief) ?? str(obj(init?.manifest)?.brief);
  return text ? { status: "ok", text, cut: false } : { status: "not_found" };
}

/** One system document. */
export interface SystemDoc {
  name: string;
  size: number;
  content?: string;
  cut?: boolean;
}

/** A system documents lookup. */
export interface SystemResult {
  status: "ok" | "no_match" | "empty" | "directory_missing" | "agent_dir_missing";
  /** Sorted listing (`ok` without query, `no_match`), or the matches with content. */
  docs: SystemDoc[];
  /** How many documents exist (the listing may be shorter). */
  total: number;
}

/**
 * Lists `system/*.md` (sorted by name, sizes for the first `listCap`), or,
 * with a query, the documents whose name contains it (any case) with their
 * content (at most {@link MATCH_CAP}; unreadable ones are skipped).
 */
export async function systemDocuments(
  workdir: string,
  query: string,
  listCap = 15,
): Promise<SystemResult> {
  if (!workdir || !await isDir(workdir)) return { status: "agent_dir_missing", docs: [], total: 0 };
  const dir = join(workdir, "system");
  if (!await isDir(dir)) return { status: "directory_missing", docs: [], total: 0 };
  const stems = (await listDir(dir, DIR_SCAN_CAP))
    .filter((e) => e.isFile && e.name.endsWith(".md") && e.name.length > 3)
    .map((e) => e.name.slice(0, -3)).sort();
  if (stems.length === 0) return { status: "empty", docs: [], total: 0 };
  const sized = async (names: string[]) =>
    await Promise.all(names.map(async (name) => {
      try {
        return { name, size: (await Deno.stat(join(dir, `${name}.md`))).size };
      } catch {
        return { name, size: 0 };
      }
    }));
  const q = query.trim().toLowerCase();
  if (!q) return { status: "ok", docs: await sized(stems.slice(0, listCap)), total: stems.length };
  const hits = stems.filter((s) => s.toLowerCase().includes(q));
  if (hits.length === 0) {
    return { status: "no_match", docs: await sized(stems.slice(0, listCap)), total: stems.length };
  }
  const docs: SystemDoc[] = [];
  for (const doc of await sized(hits.slice(0, MATCH_CAP))) {
    const read = await readText(join(dir, `${doc.name}.md`));
    if (read) docs.push({ ...doc, content: read.text, cut: read.cut });
  }
  return { status: "ok", docs, total: stems.length };
}
