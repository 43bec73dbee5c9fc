// deno-lint-ignore-file no-console -- the chaos suites print their figures and seed for a replay
/**
 * Harness of the chaos suites: a seeded PRNG (the seed is printed, and
 * `CHAOS_SEED` replays it), chats to spread load over, the invariants every
 * suite checks at the end (each message the emulator holds is in `read`
 * exactly once, in Feishu's order; the journal is drained and has no dead
 * letter) and the figures line each suite prints, also when it fails.
 * @module
 */

import { DEFAULT_IDS as D, type Emulator, makeChat } from "../lib/emulator/mod.ts";
import { type Bridge, until } from "./_inbound.ts";

type Rec = Record<string, unknown>;

/** A small deterministic PRNG (mulberry32) with the draws the suites need. */
export class Rng {
  #state: number;
  constructor(readonly seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** The seed of a suite: `CHAOS_SEED`, else a fresh one; printed so a failure can be replayed. */
export function chaosRng(suite: string): Rng {
  const named = Number(Deno.env.get("CHAOS_SEED"));
  const seed = Number.isInteger(named) && named > 0
    ? named
    : crypto.getRandomValues(new Uint32Array(1))[0]! || 1;
  console.log(`[chaos] ${suite}: seed ${seed} (replay with CHAOS_SEED=${seed})`);
  return new Rng(seed);
}

/** A positive whole number from the environment, else `fallback` (CI scale vs the soak's). */
export function envCount(name: string, fallback: number): number {
  const n = Number(Deno.env.get(name));
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Prints one suite's figures as `key=value` pairs. */
export function printFigures(suite: string, figures: Rec): void {
  const line = Object.entries(figures).map(([k, v]) =>
    `${k}=${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`
  ).join(" ");
  console.log(`[chaos] ${suite}: ${line}`);
}

/** Counts of named faults as they are injected. */
export class FaultTally {
  readonly counts: Record<string, number> = {};
  add(kind: string, n = 1): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }
  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

/** Adds `n` DMs of Alice with the bot (no mention needed); returns their ids. */
export function chaosChats(emu: Emulator, n: number, prefix = "oc_chaos"): string[] {
  return Array.from({ length: n }, (_, i) => {
    const chatId = `${prefix}_${i}`;
    emu.world.addChat(makeChat({
      chatId,
      name: `chaos ${i}`,
      mode: "p2p",
      members: [D.alice.openId],
      bots: [D.appId],
    }));
    return chatId;
  });
}

/** What `read` shows of the emulator's user messages, chat by chat. */
export interface InboundFigures {
  /** User messages the emulator holds in these chats. */
  inputs: number;
  /** Held by the emulator, absent from `read`. */
  lost: number;
  /** Present more than once in `read` (extra copies). */
  doubled: number;
  /** Adjacent records in `read` whose Feishu create_time (ms) is the other way round. */
  inversions: number;
  /** A few examples per kind, for the failure message. */
  examples: string[];
}

/**
 * Compares every chat's incoming records (through the real MCP `read`) with
 * the user messages the emulator holds, oldest first.
 */
export async function inboundFigures(
  bridge: Bridge,
  emu: Emulator,
  chats: string[],
): Promise<InboundFigures> {
  const out: InboundFigures = { inputs: 0, lost: 0, doubled: 0, inversions: 0, examples: [] };
  for (const chat of chats) {
    const users = emu.messages(chat).filter((m) => m.sender.type === "user");
    const held = users.map((m) => m.messageId);
    // Feishu's order is its ms create_time; messages of the same millisecond have
    // no order Feishu tells anyone (ids are not monotonic), so ties are no inversion.
    const order = new Map(users.map((m) => [m.messageId, m.createTime]));
    const records = (await bridge.records(chat)).filter((r) => r._direction === "incoming");
    const ids = records.map((r) => String(r.feishu_message_id));
    out.inputs += held.length;
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) {
        out.doubled++;
        if (out.examples.length < 9) out.examples.push(`doubled ${chat}/${id}`);
      }
      seen.add(id);
    }
    for (const id of held) {
      if (!seen.has(id)) {
        out.lost++;
        if (out.examples.length < 9) out.examples.push(`lost ${chat}/${id}`);
      }
    }
    for (let i = 1; i < ids.length; i++) {
      const a = order.get(ids[i - 1]!) ?? -1;
      const b = order.get(ids[i]!) ?? -1;
      if (a > b) {
        out.inversions++;
        if (out.examples.length < 9) out.examples.push(`inverted ${chat}/${ids[i - 1]}>${ids[i]}`);
      }
    }
  }
  return out;
}

/** The journal once it holds and runs nothing (as the status resource shows it). */
export function drainedJournal(bridge: Bridge, guardMs = 60_000): Promise<Rec> {
  return until(async () => {
    const j = (await bridge.status()).journal as Rec | undefined;
    return j !== undefined && j.pending === 0 && j.in_flight === 0 && j;
  }, { what: "the journal to drain", guardMs });
}

/**
 * Waits until a backfill that began after `since` (ISO time) finished, e.g.
 * the one a final reconnect starts (one begun before, by an earlier
 * reconnect, may end after `since` and does not count); resolves with the
 * account's status.
 */
export function backfillAfter(bridge: Bridge, since: string): Promise<Rec> {
  return until(async () => {
    const account = await bridge.account();
    const started = (account.backfill as Rec | null | undefined)?.started_at;
    return typeof started === "string" && started > since && account;
  }, { what: `a backfill begun after ${since}` });
}

/** Every message of a chat the emulator pushed, acked or gave up on (nothing still to come). */
export function settledEvents(emu: Emulator, eventIds: string[]): boolean {
  return eventIds.every((id) => {
    const s = emu.event(id)?.status;
    return s === "acked" || s === "expired";
  });
}
