/**
 * Reads the journal's KV file: what `openJournal` resumes from, and the
 * dead letters.
 * @module
 */

import { decodeBody } from "./_body.ts";
import { bodyKey, chatId, DEAD_PREFIX, type DeadValue, FIFO_PREFIX } from "./_keys.ts";
import type { DeadLetter } from "./types.ts";

/** What `openJournal` finds in the KV file. */
export interface Found {
  depths: { account: string; chatKey: string; depth: number }[];
  deadLetters: number;
  /** Largest sequence number in use, or -1. */
  floor: number;
}

/** Counts every FIFO's entries and the dead letters, and finds the largest sequence number. */
export async function scanJournal(kv: Deno.Kv): Promise<Found> {
  const depths = new Map<string, Found["depths"][number]>();
  let floor = -1;
  for await (const e of kv.list({ prefix: FIFO_PREFIX })) {
    const [, , account, chatKey, seq] = e.key as [string, string, string, string, number];
    const id = chatId(account, chatKey);
    const d = depths.get(id) ?? { account, chatKey, depth: 0 };
    d.depth++;
    depths.set(id, d);
    floor = Math.max(floor, seq);
  }
  let deadLetters = 0;
  for await (const e of kv.list({ prefix: DEAD_PREFIX })) {
    deadLetters++;
    floor = Math.max(floor, e.key[4] as number);
  }
  return { depths: [...depths.values()], deadLetters, floor };
}

/** Reads up to `limit` dead letters with their payloads. */
export async function readDeadLetters(kv: Deno.Kv, limit: number): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  for await (const e of kv.list<DeadValue>({ prefix: DEAD_PREFIX }, { limit })) {
    const [, , account, chatKey, seq] = e.key as [string, string, string, string, number];
    const keys = Array.from({ length: e.value.parts }, (_, i) => bodyKey(seq, i));
    const parts = keys.length === 0 ? [] : (await kv.getMany<Uint8Array[]>(keys))
      .flatMap((p) => p.value === null ? [] : [p.value]);
    out.push({
      account,
      chatKey,
      seq,
      payload: decodeBody(e.value, parts),
      attempts: e.value.attempts,
      error: e.value.error,
      admittedAt: e.value.admittedAt,
      deadAt: e.value.deadAt,
    });
  }
  return out;
}
