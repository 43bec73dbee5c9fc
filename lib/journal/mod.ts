/**
 * The durable intake journal and the per-chat workers (Deno KV).
 *
 * Where it sits in the data flow: the Feishu event handler calls
 * `journal.admit(...)` — ONE atomic KV commit — and ACKs the frame as soon as
 * it resolves; all slow work runs later in `start(handler)`'s per-chat
 * workers, strictly in order per chat, and survives `kill -9`.
 *
 * Guarantees:
 * - `admit` checks every dedupe key is absent, sets them (7-day TTL by
 *   default, never under 24 h) and appends the payload to the chat's FIFO in
 *   a single `kv.atomic()` commit. A crash can never keep a dedupe key
 *   without its entry, or the reverse. When the commit fails (a full or
 *   read-only disk) `admit` rejects and nothing was written: the caller must
 *   not acknowledge the event.
 * - Entries of one chat are handled one at a time, in the order `admit` was
 *   called; chats run in parallel, at most `maxRunning` handlers at once
 *   (default 16) across every chat. A chat whose next entry is due waits
 *   for a free slot, first come first served, and queues again behind the
 *   others after each entry; a chat waiting out a retry backoff (or an
 *   earlier admit) holds no slot, so it can never starve the others. A
 *   flood of chats thus costs memory and event-loop time for the bound, not
 *   for every chat at once. An entry is deleted only after its handler
 *   resolved, so a crash re-runs at most the one entry per chat that was
 *   running: handlers must be idempotent (key on `account` + event/message
 *   id, or on `job.seq`).
 * - A handler that throws leaves its entry in place with the failed attempt
 *   persisted, and the chat waits (bounded exponential backoff on the
 *   injected clock) before retrying it; after `maxAttempts` runs the entry
 *   moves to the dead-letter prefix with the error text, is logged and
 *   counted, and the chat moves on. A handler that knows its job can never
 *   succeed throws `PermanentFailure`: dead-lettered after that one run;
 *   one that must wait throws `RetryLater` (see `failureStep` in types.ts).
 *   A failure on a full or read-only disk waits the same way (2 s, no
 *   attempt spent): a long outage must not dead-letter every job.
 * - Workers are woken in process: `admit` kicks the chat's worker after its
 *   commit, and `start` resumes every non-empty FIFO found at open (a crash
 *   loses no wake-up: the FIFO is the state). The journal uses no KV queue
 *   (`enqueue`/`listenQueue`): Deno panics the whole process ("KV queue
 *   dequeue failed: database or disk is full") when a dequeue hits a full
 *   disk, and the kick plus the scan at open already did all a doorbell did.
 *   Queue messages an older version left in the file are never read.
 * - One process per KV file (the server's workdir lock): sequence numbers are
 *   allocated in process, seeded above the largest key at open and above
 *   `clock.now() * 1000`.
 *
 * KV key layout (every key under `"journal"`):
 *
 * | key | value |
 * |---|---|
 * | `["journal", "dedupe", account, dedupeKey]` | `{seq, at}`, `expireIn` = dedupe TTL |
 * | `["journal", "fifo", account, chatKey, seq]` | `{admittedAt, attempts, retryAt, lastError?, body?, parts}` |
 * | `["journal", "body", seq, part]` | `Uint8Array`, part of a payload over 60 000 bytes |
 * | `["journal", "dead", account, chatKey, seq]` | `{admittedAt, attempts, error, deadAt, body?, parts}` |
 * | `["journal", "probe"]` | 16 KiB of zeros, set and deleted by `probe()` |
 *
 * `seq` is a number; `body` is the payload's UTF-8 JSON. Large payloads
 * (up to 704 KiB) are split into `body` parts written in the same commit;
 * dead letters keep theirs.
 *
 * @example Admit, then drain
 * ```ts
 * import { createLogger, systemClock } from "../core/mod.ts";
 * import { openJournal } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * const journal = await openJournal({
 *   path: `${dir}/queue.kv`,
 *   clock: systemClock,
 *   log: createLogger({ sink: () => {} }),
 * });
 * const seen: unknown[] = [];
 * journal.start((job) => void seen.push(job.payload));
 * const first = await journal.admit({ account: "main", chatKey: "oc_1", dedupeKeys: ["ev_1"], payload: { n: 1 } });
 * const again = await journal.admit({ account: "main", chatKey: "oc_1", dedupeKeys: ["ev_1"], payload: { n: 1 } });
 * await journal.idle();
 * await journal.close();
 * await Deno.remove(dir, { recursive: true });
 * if (first !== "queued" || again !== "duplicate" || seen.length !== 1) throw new Error();
 * ```
 * @module
 */

export { journalPath, openJournal } from "./open.ts";
export { Journal } from "./journal.ts";
export type { Job, JournalStats, JsonValue } from "./types.ts";
export { PermanentFailure, RetryLater } from "./types.ts";
