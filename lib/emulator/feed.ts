/**
 * The change feed: every state change the emulator makes is announced here,
 * so tests wait on notifications (never by polling) and the control plane
 * streams them to a page.
 * @module
 */

import type { EmuClock } from "./clock.ts";

/** What changed. */
export type ChangeKind =
  | "message.created"
  | "message.updated"
  | "message.deleted"
  | "reaction.added"
  | "reaction.removed"
  | "chat.updated"
  | "upload.created"
  | "request.logged"
  | "event.queued"
  | "event.delivered"
  | "event.acked"
  | "event.timed_out"
  | "card.result"
  | "ws.session"
  | "registration.changed"
  | "error.recorded";

/** One change notification (snake_case keys: it is also the SSE payload). */
export interface Change {
  kind: ChangeKind;
  chat_id?: string;
  message_id?: string;
  event_id?: string;
  session_id?: string;
}

/**
 * A synchronous fan-out of {@linkcode Change}s.
 *
 * @example
 * ```ts
 * import { ChangeFeed } from "./feed.ts";
 * const feed = new ChangeFeed();
 * const seen: string[] = [];
 * const off = feed.subscribe((c) => seen.push(c.kind));
 * feed.emit({ kind: "message.created" });
 * off();
 * feed.emit({ kind: "message.deleted" });
 * if (seen.join() !== "message.created") throw new Error(seen.join());
 * ```
 */
export class ChangeFeed {
  #listeners = new Set<(change: Change) => void>();

  /** Announces a change to every subscriber. */
  emit(change: Change): void {
    for (const fn of [...this.#listeners]) fn(change);
  }

  /** Subscribes; returns the unsubscribe function. */
  subscribe(fn: (change: Change) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}

/** Options for {@linkcode waitForChange}. */
export interface WaitOptions {
  /** Gives up after this many ms of the emulator clock (default 10 000). */
  timeoutMs?: number;
  /** Stops waiting when aborted. */
  signal?: AbortSignal;
  /** Shown in the timeout error. */
  description?: string;
}

/**
 * Resolves with the predicate's first truthy value, checking once now and
 * again after every change. Rejects on timeout (emulator clock) or abort.
 *
 * @example
 * ```ts
 * import { ChangeFeed, waitForChange } from "./feed.ts";
 * import { ManualEmuClock } from "./clock.ts";
 * const feed = new ChangeFeed();
 * let n = 0;
 * const p = waitForChange(() => n >= 2 && n, { feed, clock: new ManualEmuClock() });
 * n = 2;
 * feed.emit({ kind: "message.created" });
 * if (await p !== 2) throw new Error();
 * ```
 */
export function waitForChange<T>(
  predicate: () => T | undefined | null | false | 0 | "",
  options: WaitOptions & { feed: ChangeFeed; clock: EmuClock },
): Promise<T> {
  const { feed, clock, timeoutMs = 10_000, signal, description } = options;
  return new Promise<T>((resolve, reject) => {
    let off = () => {};
    let timer = 0;
    const finish = (fn: () => void) => {
      off();
      clock.clearTimer(timer);
      signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const check = (): boolean => {
      let value: T | undefined | null | false | 0 | "";
      try {
        value = predicate();
      } catch (error) {
        finish(() => reject(error));
        return true;
      }
      if (value) finish(() => resolve(value as T));
      return Boolean(value);
    };
    const onAbort = () => finish(() => reject(signal?.reason));
    if (signal?.aborted) return reject(signal.reason);
    if (check()) return;
    off = feed.subscribe(() => void check());
    signal?.addEventListener("abort", onAbort, { once: true });
    timer = clock.setTimer(timeoutMs, () => {
      finish(() =>
        reject(
          new Error(
            `Expected ${
              description ?? "the condition"
            } within ${timeoutMs} ms but it did not happen`,
          ),
        )
      );
    });
  });
}
