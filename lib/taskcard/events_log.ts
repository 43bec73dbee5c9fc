/**
 * Follows the agent's `logs/events.jsonl` by polling and keeps its Task Card
 * projection current. Only a bounded window lives in memory (the last rounds
 * plus a bounded memory of results), never the file: start reads a tail of
 * the file, and each poll reads only the bytes appended since the last one, so
 * a poll costs the same on a 10 KB events log as on a 100 MB one.
 *
 * The agent may be mid-write when we look: a line is projected only once its
 * `\n` is on disk, and the unfinished remainder is read again next time. When
 * the file shrinks (truncated), is replaced (new inode), disappears and comes
 * back, or grows by more than one poll may read, the tail is re-read instead.
 * A file that disappears keeps the last snapshot until it reappears.
 * @module
 */

import {
  emptyState,
  EVENT_WINDOW,
  type EventsLogLine,
  mergeChunk,
  parseLine,
  type ProjectionState,
  projectLines,
  type Redact,
  sameProjection,
  toProjection,
} from "./project.ts";
import type { Projection } from "./types.ts";
import { readAt, withFile } from "./_file.ts";

/** Bytes read from the end of the file when (re)loading it, doubled while too few rounds. */
export const TAIL_CHUNK = 65_536;
/** Appended bytes one poll may read; beyond this the tail is reloaded instead. */
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/** The largest tail a (re)load reads, however few rounds it holds. */
export const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/** Where the events log is and how much one look at it may read. */
export interface EventsLogTailerOptions {
  path: string;
  /** Removes secrets from every text a row keeps (default: no registered secrets). */
  redact?: Redact;
  /** Appended bytes a poll reads before it reloads the tail instead (default 4 MiB). */
  maxChunkBytes?: number;
  /** First tail window of a (re)load (default 64 KiB). */
  tailBytes?: number;
  /** Cap on a (re)load's tail window (default 16 MiB). */
  maxTailBytes?: number;
  /**
   * Told the complete lines each poll appended, parsed (`value` set), before
   * they are merged; never the lines of a (re)load, which were not seen arrive.
   */
  onLines?(lines: EventsLogLine[]): void;
}

/** A polling follower of the events log. */
export interface EventsLogTailer {
  /** Loads the tail of the file (an absent file gives an empty projection). */
  start(): Promise<void>;
  /** Looks at the file once; true when the projection changed (or the file was reloaded). */
  pollOnce(): Promise<boolean>;
  /** A deep copy of the current projection. */
  snapshot(): Projection;
}

interface Loaded {
  state: ProjectionState;
  offset: number;
  ino: number | null;
}

const NL = 0x0a;
// Non-fatal: a stray invalid byte spoils (at most) its own line, never the poll.
const decoder = new TextDecoder("utf-8");

/** The lines of `bytes[from, end)`, each tagged with its offset in the file. */
function splitLines(bytes: Uint8Array, from: number, end: number, base: number): EventsLogLine[] {
  const lines: EventsLogLine[] = [];
  let p = from;
  while (p < end) {
    const nl = bytes.indexOf(NL, p);
    const stop = nl < 0 || nl >= end ? end : nl;
    if (stop > p) lines.push({ at: base + p, text: decoder.decode(bytes.subarray(p, stop)) });
    p = stop + 1;
  }
  return lines;
}

/**
 * Follows the events log at `path`; nothing is read until {@link EventsLogTailer.start}.
 * Calls are serialised, so overlapping polls never interleave their reads.
 *
 * @example Driven once a second by the caller (not run as a doc test: it needs file access)
 * ```ts ignore
 * import { createEventsLogTailer } from "./events_log.ts";
 * const tailer = createEventsLogTailer({ path: `${workdir}/logs/events.jsonl` });
 * await tailer.start();
 * render(tailer.snapshot());
 * setInterval(async () => {
 *   if (await tailer.pollOnce()) render(tailer.snapshot());
 * }, 1000);
 * ```
 */
export function createEventsLogTailer(options: EventsLogTailerOptions): EventsLogTailer {
  const { path, redact } = options;
  const maxChunk = options.maxChunkBytes ?? MAX_CHUNK_BYTES;
  const firstTail = options.tailBytes ?? TAIL_CHUNK;
  const maxTail = Math.max(firstTail, options.maxTailBytes ?? MAX_TAIL_BYTES);

  let state = emptyState();
  let offset = 0;
  let ino: number | null = null;
  let exists = false;
  /** Set when a look found no file: the next file seen is loaded afresh. */
  let lost = false;
  let queue: Promise<unknown> = Promise.resolve();

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };

  /** Projects the tail of the file: at least the last rounds, or the whole file when shorter. */
  async function load(): Promise<Loaded | null> {
    return await withFile(path, async (file) => {
      const info = await file.stat();
      if (!info.isFile) return null;
      const size = info.size;
      for (let window = firstTail;; window = Math.min(window * 2, maxTail)) {
        const start = Math.max(0, size - window);
        // One byte before the window tells whether it starts on a line boundary.
        const readFrom = start > 0 ? start - 1 : 0;
        const bytes = await readAt(file, readFrom, size - readFrom);
        let from = 0;
        if (start > 0) {
          const nl = bytes.indexOf(NL);
          from = nl < 0 ? bytes.length : nl + 1;
        }
        // A final line without its `\n` is still being written: leave it for a poll.
        const end = Math.max(from, bytes.lastIndexOf(NL) + 1);
        const projected = projectLines(splitLines(bytes, from, end, readFrom), redact);
        if (projected.groups.length >= EVENT_WINDOW || start === 0 || window >= maxTail) {
          return { state: projected, offset: readFrom + end, ino: info.ino };
        }
      }
    });
  }

  function adopt(loaded: Loaded): void {
    state = loaded.state;
    offset = loaded.offset;
    ino = loaded.ino;
    exists = true;
    lost = false;
  }

  /** Reloads the tail; true when told to report it regardless, else when the view changed. */
  async function reload(always: boolean): Promise<boolean> {
    const loaded = await load().catch(() => null);
    if (loaded === null) {
      lost = true; // gone between the stat and the open: keep the snapshot, retry next poll
      return false;
    }
    const before = state;
    adopt(loaded);
    return always || !sameProjection(before, state);
  }

  function readAppended(from: number, length: number): Promise<Uint8Array | null> {
    return withFile(path, (file) => readAt(file, from, length)).catch(() => null);
  }

  async function poll(): Promise<boolean> {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch {
      lost = true;
      return false;
    }
    if (!info.isFile) {
      lost = true;
      return false;
    }
    const replaced = ino !== null && info.ino !== null && info.ino !== ino;
    if (!exists || lost || info.size < offset || replaced) return await reload(true);
    if (info.size === offset) return false;
    // The card shows only the last rounds: a burst larger than one read is skipped to its tail.
    if (info.size - offset > maxChunk) return await reload(false);
    const bytes = await readAppended(offset, info.size - offset);
    if (bytes === null) return false;
    const end = bytes.lastIndexOf(NL) + 1;
    if (end === 0) return false; // only an unfinished line so far
    const lines = splitLines(bytes, 0, end, offset);
    for (const line of lines) line.value = parseLine(line.text);
    options.onLines?.(lines);
    const next = mergeChunk(state, lines, redact);
    offset += end;
    const changed = !sameProjection(state, next);
    state = next;
    return changed;
  }

  return {
    start: () =>
      serial(async () => {
        const loaded = await load().catch(() => null);
        if (loaded !== null) return adopt(loaded);
        state = emptyState();
        offset = 0;
        ino = null;
        exists = false;
        lost = false;
      }),
    pollOnce: () => serial(poll),
    snapshot: () => toProjection(state),
  };
}
