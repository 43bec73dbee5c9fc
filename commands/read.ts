/**
 * Bounded, defensive reads of an agent directory: every helper answers a
 * default (null, empty, false) instead of throwing, and never reads more
 * than its cap.
 * @module
 */

import { join } from "node:path";
import { escapeMarkdown } from "../cards/mod.ts";

/** Largest JSON file parsed (bigger files count as unreadable). */
export const JSON_CAP = 1 << 20;
/** Bytes of a markdown document read. */
export const DOC_CAP = 256 << 10;

/** A JSON object (a plain record). */
export type Obj = Record<string, unknown>;

/** `v` as an object, or null. */
export function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : null;
}

/** `v` as a non-empty string, or null. */
export function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/** `v` as a finite number (booleans excluded), or null. */
export function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Whether `path` is a regular file. */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Whether `path` is a directory. */
export async function isDir(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/** The first bytes of a regular file (at most `cap`) and whether it was longer; null when unreadable. */
export async function readHead(
  path: string,
  cap: number,
): Promise<{ bytes: Uint8Array; cut: boolean } | null> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path, { read: true });
    const info = await file.stat();
    if (!info.isFile) return null;
    const want = Math.min(info.size, cap);
    const buf = new Uint8Array(want);
    let off = 0;
    while (off < want) {
      const n = await file.read(buf.subarray(off));
      if (n === null) break;
      off += n;
    }
    return { bytes: buf.subarray(0, off), cut: info.size > cap };
  } catch {
    return null;
  } finally {
    try {
      file?.close();
    } catch { /* already closed */ }
  }
}

/** The first `cap` bytes of a text file as text, and whether it was longer; null when unreadable. */
export async function readText(
  path: string,
  cap = DOC_CAP,
): Promise<{ text: string; cut: boolean } | null> {
  const head = await readHead(path, cap);
  if (!head) return null;
  let text = new TextDecoder().decode(head.bytes);
  // A cut may split the last character: drop its replacement mark.
  if (head.cut) text = text.replace(/\uFFFD$/, "");
  return { text, cut: head.cut };
}

/** A JSON file's value, or undefined when missing, unreadable, too big or malformed. */
export async function readJson(path: string, cap = JSON_CAP): Promise<unknown> {
  const head = await readHead(path, cap);
  if (!head || head.cut) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(head.bytes));
  } catch {
    return undefined;
  }
}

/** A JSON file's top-level object, or null. */
export async function readObject(path: string, cap = JSON_CAP): Promise<Obj | null> {
  return obj(await readJson(path, cap));
}

/** Entries of a directory (at most `cap`, in no particular order); empty when unreadable. */
export async function listDir(path: string, cap: number): Promise<Deno.DirEntry[]> {
  const out: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(path)) {
      out.push(e);
      if (out.length >= cap) break;
    }
  } catch { /* unreadable: what was seen so far */ }
  return out;
}

/**
 * Counts files named `name` anywhere under `root`, visiting at most `budget`
 * entries and `depth` levels (symbolic links are not followed).
 */
export async function countNamed(
  root: string,
  name: string,
  budget = 5000,
  depth = 8,
): Promise<number> {
  let count = 0, left = budget;
  const walk = async (dir: string, level: number): Promise<void> => {
    if (level > depth || left <= 0) return;
    for (const e of await listDir(dir, left)) {
      if (--left < 0) return;
      if (e.isFile && e.name === name) count++;
      else if (e.isDirectory) await walk(join(dir, e.name), level + 1);
    }
  };
  await walk(root, 0);
  return count;
}

/**
 * Neutralises text from files for a markdown element: it shows as plain
 * text, so a file cannot @-mention people, link, embed, format or inject
 * card tags (see `escapeMarkdown`).
 */
export function safe(text: string): string {
  return escapeMarkdown(text);
}

/** Cuts to at most `max` code points; reports whether it cut. */
export function cutCodePoints(s: string, max: number): { text: string; cut: boolean } {
  const cps = Array.from(s);
  return cps.length <= max
    ? { text: s, cut: false }
    : { text: cps.slice(0, max).join(""), cut: true };
}
