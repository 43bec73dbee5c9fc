/**
 * `openJournal`: the durable intake journal on Deno KV and its per-chat
 * workers. See `mod.ts` for the key layout and the guarantees.
 * @module
 */

import { dirname, join } from "node:path";
import type { Clock, Logger } from "../core/mod.ts";
import { commitAdmit } from "./_admit.ts";
import { decodeBody } from "./_body.ts";
import {
  bodyKey,
  chatId,
  DEAD_PREFIX,
  type DeadValue,
  FIFO_PREFIX,
  readDoorbell,
} from "./_keys.ts";
import { SeqAllocator } from "./_seq.ts";
import { runChatWorker, type WorkerHost } from "./_worker.ts";
import type {
  AdmitInput,
  AdmitResult,
  BackoffOptions,
  DeadLetter,
  JobHandler,
  JournalOptions,
  JournalStats,
} from "./types.ts";

/** Shortest dedupe lifetime accepted: Feishu re-pushes for up to a day. */
export const MIN_DEDUPE_TTL_MS = 24 * 60 * 60 * 1000;
/** Default dedupe lifetime: 7 days. */
export const DEFAULT_DEDUPE_TTL_MS = 7 * MIN_DEDUPE_TTL_MS;
/** Default runs of one entry before it is dead-lettered. */
export const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * The KV file of a workdir: `<workdir>/feishu/queue.kv`.
 *
 * @example
 * ```ts
 * import { journalPath } from "./journal.ts";
 * if (journalPath("/w") !== "/w/feishu/queue.kv") throw new Error();
 * ```
 */
export function journalPath(workdir: string): string {
  return join(workdir, "feishu", "queue.kv");
}

interface ChatState {
  account: string;
  chatKey: string;
  depth: number;
  /** Admits in progress, by sequence number. */
  admitting: Map<number, Promise<unknown>>;
  worker: WorkerHost | null;
  running: Promise<void> | null;
}

/**
 * Opens (creating if needed) the journal at `options.path`, scans it for
 * waiting entries and dead letters, and returns it unstarted: `admit` works at
 * once; call `start(handler)` to run the workers.
 */
export async function openJournal(options: JournalOptions): Promise<Journal> {
  const dedupeTtlMs = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  if (!(dedupeTtlMs >= MIN_DEDUPE_TTL_MS)) {
    throw new RangeError(
      `Expected dedupeTtlMs to be at least ${MIN_DEDUPE_TTL_MS} but found ${dedupeTtlMs}`,
    );
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(
      `Expected maxAttempts to be an integer of at least 1 but found ${maxAttempts}`,
    );
  }
  await Deno.mkdir(dirname(options.path), { recursive: true });
  const kv = await Deno.openKv(options.path);
  try {
    const found = await scanJournal(kv);
    return new Journal(kv, {
      clock: options.clock,
      log: options.log,
      dedupeTtlMs,
      maxAttempts,
      backoff: options.backoff ?? {},
      found,
    });
  } catch (err) {
    kv.close();
    throw err;
  }
}

/** What `openJournal` finds in the KV file. */
interface Found {
  depths: { account: string; chatKey: string; depth: number }[];
  deadLetters: number;
  /** Largest sequence number in use, or -1. */
  floor: number;
}

async function scanJournal(kv: Deno.Kv): Promise<Found> {
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

/** Settings of a {@link Journal}, resolved by `openJournal`. */
interface JournalSettings {
  clock: Clock;
  log: Logger;
  dedupeTtlMs: number;
  maxAttempts: number;
  backoff: BackoffOptions;
  found: Found;
}

/**
 * The intake journal: `admit` is the one durable write of an event handler;
 * per-chat workers run the handler over each chat's FIFO in order.
 * Build it with {@link openJournal}.
 */
export class Journal implements AsyncDisposable {
  readonly #kv: Deno.Kv;
  readonly #settings: JournalSettings;
  readonly #chats = new Map<string, ChatState>();
  readonly #abort = new AbortController();
  readonly #seq: SeqAllocator;
  #deadLetters: number;
  #counts = {
    admitted: 0,
    duplicates: 0,
    processed: 0,
    failures: 0,
    faults: 0,
    doorbells: 0,
    inFlight: 0,
  };
  #handler: JobHandler | null = null;
  #listening: Promise<void> | null = null;
  #closing: Promise<void> | null = null;
  #idleWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  /** Use {@link openJournal}. */
  constructor(kv: Deno.Kv, settings: JournalSettings) {
    this.#kv = kv;
    this.#settings = settings;
    this.#seq = new SeqAllocator(settings.found.floor);
    this.#deadLetters = settings.found.deadLetters;
    for (const d of settings.found.depths) this.#chat(d.account, d.chatKey).depth = d.depth;
  }

  /**
   * Admits one event in a single atomic commit: dedupe check-and-set, FIFO
   * append and doorbell. Resolves `"duplicate"` (and writes nothing) when any
   * dedupe key of this account was admitted before. Safe to ACK the event
   * once it resolves.
   */
  async admit(input: AdmitInput): Promise<AdmitResult> {
    if (this.#closing) throw new Error("Expected an open journal but found it closed");
    const { seq, done } = commitAdmit({
      kv: this.#kv,
      now: () => this.#settings.clock.now(),
      nextSeq: () => this.#seq.next(this.#settings.clock.now()),
      dedupeTtlMs: this.#settings.dedupeTtlMs,
    }, input);
    const chat = this.#chat(input.account, input.chatKey);
    chat.admitting.set(seq, done);
    try {
      const out = await done;
      if (out.result === "duplicate") {
        this.#counts.duplicates++;
        return "duplicate";
      }
      this.#counts.admitted++;
      chat.depth++;
      if (this.#handler && !this.#closing) this.#kick(chat);
      return "queued";
    } finally {
      chat.admitting.delete(seq);
      this.#settle(chat);
    }
  }

  /**
   * Starts the workers: registers the doorbell listener and resumes every
   * non-empty FIFO. Call once.
   */
  start(handler: JobHandler): void {
    if (this.#closing) throw new Error("Expected an open journal but found it closed");
    if (this.#handler) {
      throw new Error("Expected start() to be called once but found a second call");
    }
    this.#handler = handler;
    this.#listening = this.#kv.listenQueue((message: unknown) => {
      const bell = readDoorbell(message);
      if (bell === null) {
        this.#settings.log.warn("journal queue message is not a doorbell; ignored");
        return;
      }
      this.#counts.doorbells++;
      if (!this.#closing) this.#kick(this.#chat(bell[0], bell[1]));
    });
    for (const chat of this.#chats.values()) if (chat.depth > 0) this.#kick(chat);
  }

  /** A snapshot for the status resource. */
  stats(): JournalStats {
    const fifo = [...this.#chats.values()].filter((c) => c.depth > 0)
      .map((c) => ({ account: c.account, chatKey: c.chatKey, depth: c.depth }));
    return {
      fifo,
      pending: fifo.reduce((n, c) => n + c.depth, 0),
      inFlight: this.#counts.inFlight,
      deadLetters: this.#deadLetters,
      admitted: this.#counts.admitted,
      duplicates: this.#counts.duplicates,
      processed: this.#counts.processed,
      failures: this.#counts.failures,
      faults: this.#counts.faults,
      doorbells: this.#counts.doorbells,
    };
  }

  /** Reads dead letters, oldest chat key first (at most `limit`, default 100). */
  async deadLetters(options: { limit?: number } = {}): Promise<DeadLetter[]> {
    const out: DeadLetter[] = [];
    const it = this.#kv.list<DeadValue>({ prefix: DEAD_PREFIX }, { limit: options.limit ?? 100 });
    for await (const e of it) {
      const [, , account, chatKey, seq] = e.key as [string, string, string, string, number];
      const keys = Array.from({ length: e.value.parts }, (_, i) => bodyKey(seq, i));
      const parts = keys.length === 0 ? [] : (await this.#kv.getMany<Uint8Array[]>(keys))
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

  /**
   * Resolves when every FIFO is empty and no admit is in progress. Rejects if
   * the journal closes first.
   */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    if (this.#closing) {
      return Promise.reject(new Error("Expected an open journal but found it closed"));
    }
    return new Promise((resolve, reject) => this.#idleWaiters.push({ resolve, reject }));
  }

  /**
   * Stops cleanly: aborts `job.signal`, waits for admits in progress and for
   * running handlers (an entry whose handler throws after the abort stays,
   * with no attempt counted), then closes the KV file and its listener.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** Same as {@link Journal.close}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutdown(): Promise<void> {
    this.#abort.abort(new DOMException("The journal is closing", "AbortError"));
    const waits: Promise<unknown>[] = [];
    for (const chat of this.#chats.values()) {
      waits.push(...chat.admitting.values());
      if (chat.running) waits.push(chat.running);
    }
    await Promise.allSettled(waits);
    this.#kv.close();
    await this.#listening;
    const waiters = this.#idleWaiters.splice(0);
    for (const w of waiters) w.reject(new Error("Expected an open journal but found it closed"));
  }

  #chat(account: string, chatKey: string): ChatState {
    const id = chatId(account, chatKey);
    let chat = this.#chats.get(id);
    if (!chat) {
      chat = { account, chatKey, depth: 0, admitting: new Map(), worker: null, running: null };
      this.#chats.set(id, chat);
    }
    return chat;
  }

  #kick(chat: ChatState): void {
    if (chat.worker) {
      chat.worker.dirty = true;
      return;
    }
    const handler = this.#handler;
    if (!handler) return;
    const host: WorkerHost = {
      kv: this.#kv,
      clock: this.#settings.clock,
      log: this.#settings.log,
      handler,
      signal: this.#abort.signal,
      maxAttempts: this.#settings.maxAttempts,
      backoff: this.#settings.backoff,
      dirty: false,
      earlierAdmits: (seq) => {
        const before = [...chat.admitting].filter(([s]) => s < seq).map(([, p]) => p);
        return before.length === 0 ? null : Promise.allSettled(before);
      },
      exit: () => {
        chat.worker = null;
        chat.running = null;
        this.#settle(chat);
      },
      report: (event) => this.#report(chat, event),
    };
    chat.worker = host;
    chat.running = runChatWorker(host, chat);
  }

  #report(chat: ChatState, event: Parameters<WorkerHost["report"]>[0]): void {
    const c = this.#counts;
    if (event === "start") c.inFlight++;
    else if (event === "end") c.inFlight--;
    else if (event === "failed") c.failures++;
    else if (event === "fault") c.faults++;
    else {
      c.failures += event === "dead" ? 1 : 0;
      this.#deadLetters += event === "dead" ? 1 : 0;
      c.processed += event === "processed" ? 1 : 0;
      chat.depth--;
      this.#settle(chat);
    }
  }

  #isIdle(): boolean {
    for (const chat of this.#chats.values()) {
      if (chat.depth > 0 || chat.admitting.size > 0) return false;
    }
    return true;
  }

  #settle(chat: ChatState): void {
    if (chat.depth === 0 && chat.admitting.size === 0 && !chat.worker) {
      this.#chats.delete(chatId(chat.account, chat.chatKey));
    }
    if (this.#idleWaiters.length === 0 || !this.#isIdle()) return;
    for (const w of this.#idleWaiters.splice(0)) w.resolve();
  }
}
