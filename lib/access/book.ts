/**
 * The access book: every account's pairing ledger, kept in
 * `<workdir>/feishu/access.json` (version 1; written atomically — temp file,
 * fsync, rename — with mode 0600, since it names people). Read once at
 * start; every change is written before it counts, one at a time. A file
 * that cannot be read as a ledger is set aside as `access.json.unreadable`
 * (logged) and the book starts empty rather than lose it by overwriting.
 * @module
 */

import { join } from "node:path";
import { type Logger, writeFileAtomic } from "../core/mod.ts";
import { newPairingCode } from "./code.ts";
import {
  type AccountLedger,
  decide,
  type DecisionOutcome,
  emptyLedger,
  isPaired,
  type PairedPerson,
  type PairingRequest,
  pendingAt,
  type PendingCode,
  requestCode,
  type RequestOutcome,
  unpair,
} from "./ledger.ts";

/** The file's permission bits: the owner reads and writes, nobody else. */
export const ACCESS_FILE_MODE = 0o600;

/** Where an agent directory keeps its access book. */
export function accessPath(workdir: string): string {
  return join(workdir, "feishu", "access.json");
}

/** Who is paired, as the admission and the outbound gate ask. */
export interface PairedLookup {
  isPaired(alias: string, openId: string): boolean;
  /** The paired open_ids of an account. */
  pairedIds(alias: string): string[];
}

/** The book: lookups, and the changes (each written before it resolves). */
export interface AccessBook extends PairedLookup {
  paired(alias: string): readonly PairedPerson[];
  pending(alias: string, atMs: number): readonly PendingCode[];
  request(alias: string, req: PairingRequest): Promise<RequestOutcome>;
  decide(
    alias: string,
    code: string,
    verdict: "approve" | "deny",
    by: { by: string; atMs: number },
  ): Promise<DecisionOutcome>;
  /** True when the person was paired. */
  unpair(alias: string, openId: string): Promise<boolean>;
}

type Ledgers = Map<string, AccountLedger>;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === "string" && v !== "";
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** One account's ledger from the file, or null when any part is malformed. */
function readLedger(v: unknown): AccountLedger | null {
  if (!isObj(v) || !Array.isArray(v.paired) || !Array.isArray(v.pending)) return null;
  if (!Array.isArray(v.replies)) return null;
  const paired = v.paired.every((p) =>
    isObj(p) && isStr(p.open_id) && isStr(p.approved_by) && isNum(p.approved_at_ms)
  );
  const pending = v.pending.every((p) =>
    isObj(p) && isStr(p.code) && isStr(p.open_id) && isStr(p.chat_id) && isStr(p.message_id) &&
    isNum(p.issued_at_ms) && isNum(p.expires_at_ms)
  );
  const replies = v.replies.every((r) => isObj(r) && isStr(r.open_id) && isNum(r.count));
  return paired && pending && replies ? v as unknown as AccountLedger : null;
}

/** The file's ledgers, or null when it is not a version-1 access book. */
export function parseAccessFile(text: string): Ledgers | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(data) || data.version !== 1 || !isObj(data.accounts)) return null;
  const out: Ledgers = new Map();
  for (const [alias, value] of Object.entries(data.accounts)) {
    const ledger = readLedger(value);
    if (!ledger) return null;
    out.set(alias, ledger);
  }
  return out;
}

/** The file's text for `ledgers`. */
export function renderAccessFile(ledgers: Ledgers): string {
  return JSON.stringify({ version: 1, accounts: Object.fromEntries(ledgers) }, null, 2) + "\n";
}

function load(path: string, log: Logger): Ledgers {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) {
      log.warn("access.json could not be read; no one is paired", { error: String(err) });
    }
    return new Map();
  }
  const ledgers = parseAccessFile(text);
  if (ledgers) return ledgers;
  const aside = `${path}.unreadable`;
  try {
    Deno.renameSync(path, aside);
  } catch { /* logged below either way */ }
  log.warn("access.json is not a valid access book; set aside, starting with no one paired", {
    path: aside,
  });
  return new Map();
}

/** Opens the book of an agent directory (`newCode` replaces the generator in tests). */
export function openAccessBook(
  workdir: string,
  options: { log: Logger; newCode?: () => string },
): AccessBook {
  const path = accessPath(workdir);
  const newCode = options.newCode ?? (() => newPairingCode());
  let ledgers = load(path, options.log);
  let chain: Promise<unknown> = Promise.resolve();
  const of = (alias: string) => ledgers.get(alias) ?? emptyLedger();

  /** Applies `change` after every earlier one; the new state counts once it is on disk. */
  function change<T>(alias: string, step: (l: AccountLedger) => { ledger: AccountLedger; out: T }) {
    const run = chain.then(async () => {
      const { ledger, out } = step(of(alias));
      const next = new Map(ledgers).set(alias, ledger);
      await writeFileAtomic(path, renderAccessFile(next), { mode: ACCESS_FILE_MODE });
      ledgers = next;
      return out;
    });
    chain = run.catch(() => {});
    return run;
  }

  return {
    isPaired: (alias, openId) => isPaired(of(alias), openId),
    pairedIds: (alias) => of(alias).paired.map((p) => p.open_id),
    paired: (alias) => of(alias).paired,
    pending: (alias, atMs) => pendingAt(of(alias), atMs),
    request: (alias, req) =>
      change(alias, (l) => {
        const r = requestCode(l, req, newCode);
        return { ledger: r.ledger, out: r.outcome };
      }),
    decide: (alias, code, verdict, by) =>
      change(alias, (l) => {
        const r = decide(l, code, verdict, by);
        return { ledger: r.ledger, out: r.outcome };
      }),
    unpair: (alias, openId) =>
      change(alias, (l) => {
        const r = unpair(l, openId);
        return { ledger: r.ledger, out: r.removed };
      }),
  };
}
