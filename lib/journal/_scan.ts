/**
 * Reads the journal's KV file: what `openJournal` resumes from, the dead
 * letters, and the heads of the FIFOs.
 * @module
 */

import { decodeBody, readParts } from "./_body.ts";
import {
  chatId,
  DEAD_PREFIX,
  type DeadValue,
  FIFO_PREFIX,
  fifoPrefix,
  type FifoValue,
  partKey,
  STAGED_PREFIX,
} from "./_keys.ts";
import type { ChatDepth, ChatHead, DeadLetter } from "./types.ts";

/** What `openJournal` finds in the KV file. */
export interface Found {
  depths: { account: string; chatKey: string; depth: number }[];
  deadLetters: number;
  /** Largest sequence number in use, or -1. */
  floor: number;
  /** Staged payload parts no entry pointed at, deleted by the scan. */
  sweptParts: number;
}

/**
 * Counts every FIFO's entries and the dead letters, finds the largest
 * sequence number, and deletes staged payload parts that no entry points at
 * (left by an intake cut short after staging).
 */
export async function scanJournal(kv: Deno.Kv): Promise<Found> {
  const depths = new Map<string, Found["depths"][number]>();
  const referenced = new Set<string>();
  let floor = -1;
  for await (const e of kv.list<FifoValue>({ prefix: FIFO_PREFIX })) {
    if (e.value.staged !== undefined) referenced.add(e.value.staged);
    const [, , account, chatKey, seq] = e.key as [string, string, string, string, number];
    const id = chatId(account, chatKey);
    const d = depths.get(id) ?? { account, chatKey, depth: 0 };
    d.depth++;
    depths.set(id, d);
    floor = Math.max(floor, seq);
  }
  let deadLetters = 0;
  for await (const e of kv.list<DeadValue>({ prefix: DEAD_PREFIX })) {
    deadLetters++;
    if (e.value.staged !== undefined) referenced.add(e.value.staged);
    floor = Math.max(floor, e.key[4] as number);
  }
  let sweptParts = 0;
  for await (const e of kv.list({ prefix: STAGED_PREFIX })) {
    if (referenced.has(String(e.key[2]))) continue;
    await kv.delete(e.key);
    sweptParts++;
  }
  return { depths: [...depths.values()], deadLetters, floor, sweptParts };
}

/** Reads up to `limit` dead letters with their payloads. */
export async function readDeadLetters(kv: Deno.Kv, limit: number): Promise<DeadLetter[]> {
  const out: DeadLetter[] = [];
  for await (const e of kv.list<DeadValue>({ prefix: DEAD_PREFIX }, { limit })) {
    const [, , account, chatKey, seq] = e.key as [string, string, string, string, number];
    const keys = Array.from({ length: e.value.parts }, (_, i) => partKey(seq, e.value, i));
    const parts = await readParts(kv, keys);
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

/** The head entry of each of `chats` (their FIFOs): its failed attempts and last error. */
export async function readHeads(kv: Deno.Kv, chats: readonly ChatDepth[]): Promise<ChatHead[]> {
  const out: ChatHead[] = [];
  for (const chat of chats) {
    let head: FifoValue | null = null;
    const prefix = fifoPrefix(chat.account, chat.chatKey);
    for await (const e of kv.list<FifoValue>({ prefix }, { limit: 1 })) head = e.value;
    out.push({ ...chat, attempts: head?.attempts ?? 0, lastError: head?.lastError ?? null });
  }
  return out;
}
