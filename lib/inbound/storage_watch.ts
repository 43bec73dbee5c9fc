/**
 * What intake does when it cannot write. An event whose journal commit
 * failed is not acknowledged (intake throws; the node-sdk ACKs code 500 and
 * Feishu pushes it again — but only a few times: 5 s, 5 min, 1 h, 6 h). So
 * the first failure opens an outage: it remembers, per chat, the oldest
 * message that could not be written, arms a probe that tries a small write
 * with backoff on the injected clock (not waiting for the next event), and
 * as soon as a write succeeds again — the probe's or a re-pushed event's —
 * hands the outage to `onRecovered`, which runs one catch-up backfill from
 * there. An outage stays open until a catch-up completes, so a catch-up cut
 * short by the disk filling again is run again after the next recovery.
 * The status shows the outage as `storage` (`disk_full`, `read_only` or
 * `error`, since when, the last error).
 * @module
 */

import {
  type Clock,
  exponentialDelay,
  type Logger,
  storageErrorText,
  type StorageFault,
  storageFault,
} from "../core/mod.ts";

/** Where a failed event belongs, when it is a message. */
export interface FailedEvent {
  chatId: string;
  chatType: string | null;
  /** The message's Feishu create time (ms). */
  createTime: number | null;
}

/** An outage: when writing broke, and what the catch-up must cover. */
export interface Outage {
  /** Our clock (ms) at the first failure. */
  since: number;
  /** Per chat, the oldest message (Feishu create time, ms) that could not be written. */
  chats: Map<string, { chatType: string | null; oldest: number | null }>;
}

/** The storage as the status shows it. */
export interface StorageView {
  state: "ok" | StorageFault | "error";
  /** ISO time of the first failure of the current outage, null when ok. */
  since: string | null;
  /** The last write error (named), null when ok. */
  last_error: string | null;
  /** Intake commits that failed since the start. */
  failed_writes: number;
  /** Catch-up backfills run after a recovery. */
  catch_ups: number;
}

/** Options of {@link StorageWatch}. */
export interface StorageWatchOptions {
  clock: Clock;
  log: Logger;
  /** One small durable write; throws while writing fails. */
  probe(): Promise<void>;
  /** Runs the catch-up of an outage; resolves true when it completed. */
  onRecovered(outage: Outage): Promise<boolean>;
  /** Probe backoff (default 1 s doubling to 30 s). */
  backoff?: { baseMs: number; maxMs: number };
  signal?: AbortSignal;
}

/** Tracks intake write failures, probes for recovery and starts the catch-up. */
export class StorageWatch {
  readonly #o: StorageWatchOptions;
  #outage: Outage | null = null;
  #fault: StorageView["state"] = "ok";
  #lastError: string | null = null;
  #failedWrites = 0;
  #catchUps = 0;
  #probing = false;
  #catchingUp: Promise<void> | null = null;
  /** A recovery came in while a catch-up ran: run it again after. */
  #again = false;

  constructor(options: StorageWatchOptions) {
    this.#o = options;
  }

  /** An intake commit failed: open (or extend) the outage and arm the probe. */
  failed(err: unknown, event: FailedEvent | null): void {
    this.#failedWrites++;
    this.#fault = storageFault(err) ?? "error";
    this.#lastError = storageErrorText(err);
    const outage = this.#outage ??= { since: this.#o.clock.now(), chats: new Map() };
    if (event) {
      const seen = outage.chats.get(event.chatId);
      const oldest = [seen?.oldest, event.createTime].filter((t) => typeof t === "number");
      outage.chats.set(event.chatId, {
        chatType: event.chatType ?? seen?.chatType ?? null,
        oldest: oldest.length ? Math.min(...(oldest as number[])) : null,
      });
    }
    this.#armProbe();
  }

  /** A write succeeded: if an outage is open, writing works again. */
  succeeded(): void {
    if (this.#fault !== "ok") {
      this.#o.log.info("storage writable again", { after: this.#lastError });
      this.#fault = "ok";
    }
    if (this.#outage) this.#recover();
  }

  /** The status's `storage` object. */
  view(): StorageView {
    const ok = this.#fault === "ok";
    return {
      state: this.#fault,
      since: ok || !this.#outage ? null : new Date(this.#outage.since).toISOString(),
      last_error: ok ? null : this.#lastError,
      failed_writes: this.#failedWrites,
      catch_ups: this.#catchUps,
    };
  }

  /** Settles when no probe or catch-up is running (tests, close). */
  async settled(): Promise<void> {
    while (this.#catchingUp) await this.#catchingUp;
  }

  /** Read through a method: the probe's awaits let `succeeded()` change it. */
  #isOk(): boolean {
    return this.#fault === "ok";
  }

  #armProbe(): void {
    if (this.#probing || this.#o.signal?.aborted) return;
    this.#probing = true;
    void this.#probeLoop().finally(() => (this.#probing = false));
  }

  async #probeLoop(): Promise<void> {
    const backoff = this.#o.backoff ?? { baseMs: 1000, maxMs: 30_000 };
    for (let attempt = 1; !this.#isOk() && !this.#o.signal?.aborted; attempt++) {
      try {
        await this.#o.clock.sleep(exponentialDelay(attempt, backoff), this.#o.signal);
      } catch {
        return; // closing
      }
      if (this.#isOk()) return; // an event's write got there first
      try {
        await this.#o.probe();
      } catch (err) {
        this.#lastError = storageErrorText(err);
        this.#fault = storageFault(err) ?? "error";
        continue;
      }
      this.succeeded();
      return;
    }
  }

  #recover(): void {
    if (this.#catchingUp) {
      this.#again = true;
      return;
    }
    this.#catchingUp = this.#catchUp().finally(() => (this.#catchingUp = null));
  }

  async #catchUp(): Promise<void> {
    do {
      this.#again = false;
      const outage = this.#outage;
      if (!outage || this.#o.signal?.aborted) return;
      // A fresh outage collects what fails during this catch-up.
      this.#outage = null;
      this.#catchUps++;
      let done = false;
      try {
        done = await this.#o.onRecovered(outage);
      } catch (err) {
        this.#o.log.warn("catch-up after a storage outage failed", {
          error: storageErrorText(err),
        });
      }
      if (!done) this.#outage = merge(outage, this.#outage);
      // Not done and writing fails again: the probe brings us back here.
    } while (this.#again && this.#isOk());
  }
}

function merge(a: Outage, b: Outage | null): Outage {
  if (!b) return a;
  const chats = new Map(a.chats);
  for (const [chat, v] of b.chats) {
    const seen = chats.get(chat);
    const times = [seen?.oldest, v.oldest].filter((t) => typeof t === "number") as number[];
    chats.set(chat, {
      chatType: seen?.chatType ?? v.chatType,
      oldest: times.length ? Math.min(...times) : null,
    });
  }
  return { since: Math.min(a.since, b.since), chats };
}
