/**
 * The intake commit: one `kv.atomic()` that checks every dedupe key is
 * absent, sets them with a time to live and appends the entry (and any body
 * parts) to the chat's FIFO. No KV queue message: Deno panics the whole
 * process when a queue dequeue hits a full disk (see `mod.ts`).
 * @module
 */

import { COMMIT_PARTS, encodeBody } from "./_body.ts";
import {
  bodyKey,
  dedupeKey,
  type DedupeValue,
  fifoKey,
  type FifoValue,
  stagedKey,
} from "./_keys.ts";
import type { AdmitInput, AdmitResult } from "./types.ts";

/** Commits that fail with no dedupe key present before `admit` gives up. */
export const MAX_ADMIT_RACES = 5;
/** Most dedupe keys per event (a KV commit holds at most 100 checks). */
export const MAX_DEDUPE_KEYS = 50;

/** What the commit needs from the journal. */
export interface AdmitContext {
  kv: Deno.Kv;
  now(): number;
  /** A fresh sequence number, increasing in call order. */
  nextSeq(): number;
  dedupeTtlMs: number;
}

/** Outcome of {@link commitAdmit}, with the entry's sequence when queued. */
export interface AdmitCommit {
  result: AdmitResult;
  seq: number;
  /** How many commits lost a race before the one that decided. */
  races: number;
}

/**
 * Validates the input, then commits it. `seq` is taken before the first
 * await, so entries sort in the order `admit` was called.
 */
export function commitAdmit(ctx: AdmitContext, input: AdmitInput): {
  seq: number;
  done: Promise<AdmitCommit>;
} {
  checkInput(input);
  const body = encodeBody(input.payload);
  const keys = [...new Set(input.dedupeKeys)];
  const seq = ctx.nextSeq();
  return { seq, done: commitLoop(ctx, { input, body, keys, seq }) };
}

/**
 * Writes the parts of a payload too large for the intake commit, a few per
 * commit, under a fresh body id; returns the stored form that points at them.
 * If the intake commit then never happens (a duplicate, a crash), the parts
 * are swept when the journal next opens.
 */
async function stageParts(
  kv: Deno.Kv,
  body: ReturnType<typeof encodeBody>,
): Promise<ReturnType<typeof encodeBody>> {
  if (body.parts.length <= COMMIT_PARTS) return body;
  const id = crypto.randomUUID();
  for (let at = 0; at < body.parts.length; at += COMMIT_PARTS) {
    const op = kv.atomic();
    body.parts.slice(at, at + COMMIT_PARTS).forEach((part, i) =>
      op.set(stagedKey(id, at + i), part)
    );
    const res = await op.commit();
    if (!res.ok) throw new Error("Expected to stage a payload's parts but the commit failed");
  }
  return { stored: { parts: body.parts.length, staged: id }, parts: [], bytes: body.bytes };
}

async function commitLoop(
  ctx: AdmitContext,
  work: { input: AdmitInput; body: ReturnType<typeof encodeBody>; keys: string[]; seq: number },
): Promise<AdmitCommit> {
  const { input, keys } = work;
  const body = await stageParts(ctx.kv, work.body);
  let seq = work.seq;
  for (let races = 0; races < MAX_ADMIT_RACES; races++) {
    const at = ctx.now();
    const entryKey = fifoKey(input.account, input.chatKey, seq);
    const op = ctx.kv.atomic().check({ key: entryKey, versionstamp: null });
    const marker: DedupeValue = { seq, at };
    for (const k of keys) {
      const key = dedupeKey(input.account, k);
      op.check({ key, versionstamp: null }).set(key, marker, { expireIn: ctx.dedupeTtlMs });
    }
    const entry: FifoValue = { ...body.stored, admittedAt: at, attempts: 0, retryAt: 0 };
    op.set(entryKey, entry);
    body.parts.forEach((part, i) => op.set(bodyKey(seq, i), part));
    const res = await op.commit();
    if (res.ok) return { result: "queued", seq, races };
    const seen = await ctx.kv.getMany(keys.map((k) => dedupeKey(input.account, k)));
    if (seen.some((e) => e.versionstamp !== null)) return { result: "duplicate", seq, races };
    // Nothing we check exists any more (a key expired, or the entry key was
    // taken by another writer): a versionstamp race. Try again on a new key.
    seq = ctx.nextSeq();
  }
  throw new Error(
    `Expected the intake commit to settle within ${MAX_ADMIT_RACES} attempts but found ${MAX_ADMIT_RACES} races`,
  );
}

function checkInput(input: AdmitInput): void {
  for (const [name, value] of [["account", input.account], ["chatKey", input.chatKey]]) {
    if (typeof value !== "string" || value.length === 0) {
      throw new TypeError(`Expected ${name} to be a non-empty string but found ${String(value)}`);
    }
  }
  if (!Array.isArray(input.dedupeKeys) || input.dedupeKeys.length > MAX_DEDUPE_KEYS) {
    throw new TypeError(
      `Expected dedupeKeys to be an array of at most ${MAX_DEDUPE_KEYS} strings but found ${
        Array.isArray(input.dedupeKeys) ? input.dedupeKeys.length : typeof input.dedupeKeys
      }`,
    );
  }
  for (const k of input.dedupeKeys) {
    if (typeof k !== "string" || k.length === 0) {
      throw new TypeError(`Expected every dedupe key to be a non-empty string but found ${k}`);
    }
  }
}
