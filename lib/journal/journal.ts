/**
 * The `Journal` class: admit, per-chat workers, stats, idle and close. Build
 * it with `openJournal` (`open.ts`); `mod.ts` documents the key layout and the
 * guarantees.
 * @module
 */

import type { Clock, Logger } from "../core/mod.ts";
import { commitAdmit } from "./_admit.ts";
import { chatId, DEDUPE_PREFIX, PROBE_KEY } from "./_keys.ts";
import { type Found, readDeadLetters, readHeads } from "./_scan.ts";
import { SeqAllocator } from "./_seq.ts";
import { Slots } from "./_slots.ts";
import { runChatWorker, type WorkerHost } from "./_worker.ts";
import type {
  AdmitInput,
  AdmitResult,
  BackoffOptions,
  ChatHead,
  DeadLetter,
  JobHandler,
  JournalStats,
} from "./types.ts";

/** Size of the probe write: a typical event, so a disk with room for it only is not "writable". */
const PROBE_BYTES = 16_384;

interface ChatState {
  account: string;
  chatKey: string;
  depth: number;
  /** Admits in progress, by sequence number. */
  admitting: Map<number, Promise<unknown>>;
  worker: WorkerHost | null;
  running: Promise<void> | null;
}

/** Settings of a {@link Journal}, resolved by `openJournal`. */
export interface JournalSettings {
  clock: Clock;
  log: Logger;
  dedupeTtlMs: number;
  maxAttempts: number;
  /** Handlers running at once across every chat. */
  maxRunning: number;
  /** Both bounds resolved (`openJournal` applies the defaults). */
  backoff: Required<BackoffOptions>;
  found: Found;
}

/**
 * The intake journal: `admit` is the one durable write of an event handler;
 * per-chat workers run the handler over each chat's FIFO in order.
 * Build it with `openJournal`.
 */
export class Journal implements AsyncDisposable {
  readonly #kv: Deno.Kv;
  readonly #settings: JournalSettings;
  readonly #chats = new Map<string, ChatState>();
  readonly #abort = new AbortController();
  readonly #seq: SeqAllocator;
  readonly #slots: Slots;
  #deadLetters: number;
  #counts = {
    admitted: 0,
    duplicates: 0,
    processed: 0,
    failures: 0,
    faults: 0,
    inFlight: 0,
  };
  #handler: JobHandler | null = null;
  #closing: Promise<void> | null = null;
  #idleWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  /** Use {@link openJournal}. */
  constructor(kv: Deno.Kv, settings: JournalSettings) {
    this.#kv = kv;
    this.#settings = settings;
    this.#seq = new SeqAllocator(settings.found.floor);
    this.#slots = new Slots(settings.maxRunning, this.#abort.signal);
    this.#deadLetters = settings.found.deadLetters;
    for (const d of settings.found.depths) this.#chat(d.account, d.chatKey).depth = d.depth;
  }

  /**
   * Admits one event in a single atomic commit: dedupe check-and-set and FIFO
   * append, then kicks the chat's worker. Resolves `"duplicate"` (and writes nothing) when any
   * dedupe key of this account was admitted before. Safe to ACK the event
   * once it resolves; when it rejects (the commit failed: a full disk, say)
   * nothing was written and the event must not be acknowledged.
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
   * Starts the workers: resumes every non-empty FIFO found at open; later
   * admits kick their chat's worker directly. Call once.
   */
  start(handler: JobHandler): void {
    if (this.#closing) throw new Error("Expected an open journal but found it closed");
    if (this.#handler) {
      throw new Error("Expected start() to be called once but found a second call");
    }
    this.#handler = handler;
    for (const chat of this.#chats.values()) if (chat.depth > 0) this.#kick(chat);
  }

  /**
   * One durable write of about an event's size (set, then delete, a probe
   * key): resolves when the KV file can be written, throws the write's error
   * (a full disk, say) otherwise. Intake probes with it after a failed admit.
   */
  async probe(): Promise<void> {
    if (this.#closing) throw new Error("Expected an open journal but found it closed");
    await this.#kv.set(PROBE_KEY, new Uint8Array(PROBE_BYTES));
    await this.#kv.delete(PROBE_KEY);
  }

  /** A snapshot for the status resource. */
  stats(): JournalStats {
    const fifo = [...this.#chats.values()].filter((c) => c.depth > 0)
      .map((c) => ({ account: c.account, chatKey: c.chatKey, depth: c.depth }));
    return {
      fifo,
      pending: fifo.reduce((n, c) => n + c.depth, 0),
      inFlight: this.#counts.inFlight,
      waiting: this.#slots.waiting,
      deadLetters: this.#deadLetters,
      admitted: this.#counts.admitted,
      duplicates: this.#counts.duplicates,
      processed: this.#counts.processed,
      failures: this.#counts.failures,
      faults: this.#counts.faults,
    };
  }

  /** Reads the head entry of every non-empty FIFO: how often it failed, and why. */
  heads(): Promise<ChatHead[]> {
    return readHeads(this.#kv, this.stats().fifo);
  }

  /** Reads dead letters, oldest chat key first (at most `limit`, default 100). */
  deadLetters(options: { limit?: number } = {}): Promise<DeadLetter[]> {
    return readDeadLetters(this.#kv, options.limit ?? 100);
  }

  /**
   * Counts the dedupe keys held now (every account; expired ones excluded):
   * the size of the memory that recognises redeliveries. Lists the prefix.
   */
  async dedupeKeys(): Promise<number> {
    let n = 0;
    for await (const _ of this.#kv.list({ prefix: DEDUPE_PREFIX })) n++;
    return n;
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
   * with no attempt counted), then closes the KV file. Workers still waiting
   * for a slot stop without running their handler; their entries stay.
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
      slots: this.#slots,
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
