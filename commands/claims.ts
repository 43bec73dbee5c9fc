/**
 * Durable claims of control-card clicks, so a redelivered click runs its
 * command once: `feishu/control_callbacks.json` keeps the SHA-256 of the
 * last 1000 event ids of each account (never the ids themselves).
 * @module
 */

import { join } from "node:path";
import { writeFileAtomic } from "../lib/core/mod.ts";
import { isDir, JSON_CAP, obj, readHead } from "./read.ts";

/** Digests kept per account. */
export const CLAIMS_PER_ACCOUNT = 1000;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

type Store = { version: 1; accounts: Record<string, string[]> };

/** The store's content; `null` when present but unusable (which disables claims). */
async function load(path: string): Promise<Store | null> {
  const head = await readHead(path, JSON_CAP * 4);
  if (!head) {
    const missing = await Deno.lstat(path).then(() => false, () => true);
    return missing ? { version: 1, accounts: {} } : null;
  }
  if (head.cut) return null;
  let data: Record<string, unknown> | null;
  try {
    data = obj(JSON.parse(new TextDecoder().decode(head.bytes)));
  } catch {
    return null;
  }
  const accounts = obj(data?.accounts);
  if (!data || data.version !== 1 || !accounts) return null;
  return { version: 1, accounts: accounts as Record<string, string[]> };
}

/**
 * A claimer bound to an agent directory. Claims are serialized within the
 * process; each one reads, appends and writes the file atomically (fsync).
 */
export function createClaimer(
  workdir: string,
): (alias: string, eventId: string) => Promise<boolean> {
  const path = join(workdir, "feishu", "control_callbacks.json");
  let chain: Promise<unknown> = Promise.resolve();
  const claimOnce = async (alias: string, eventId: string): Promise<boolean> => {
    if (!workdir || !await isDir(workdir)) return false;
    const store = await load(path);
    if (!store) return false;
    const list: unknown = Object.hasOwn(store.accounts, alias) ? store.accounts[alias] : [];
    if (!Array.isArray(list) || !list.every((d) => typeof d === "string")) return false;
    const digest = await sha256Hex(eventId);
    if (list.includes(digest)) return false;
    const accounts = { ...store.accounts };
    Object.defineProperty(accounts, alias, {
      value: [...list.slice(-(CLAIMS_PER_ACCOUNT - 1)), digest],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    await writeFileAtomic(path, JSON.stringify({ version: 1, accounts }, null, 2));
    return true;
  };
  return (alias, eventId) => {
    const run = chain.then(() => claimOnce(alias, eventId)).catch(() => false);
    chain = run;
    return run;
  };
}
