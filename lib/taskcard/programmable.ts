/**
 * Reads the agent's programmable Task Card slot: `<workdir>/taskcard/status`
 * says whether the agent wants its own body shown, `<workdir>/taskcard/taskcard.md`
 * is that body. The producer writes both atomically, so a read sees a whole
 * file; anything unexpected (missing, unreadable, a status other than the two
 * exact words, a blank body) means "leave the card as it is", never "clear it".
 * Only an exact `inactive` takes the slot away. Reads are bounded so a runaway
 * file cannot stall a poll.
 * @module
 */

import { join } from "node:path";
import { stripWhitespace } from "./project.ts";
import { readAt, withFile } from "./_file.ts";

/** Code points of the body the card shows. */
export const BODY_LIMIT = 3500;
/** Bytes read of `status` (the two valid values are far shorter). */
const STATUS_BYTES = 64;
/** Bytes read of the body: 3500 code points take at most 14 000 bytes of UTF-8. */
const BODY_BYTES = 64 * 1024;

/** What the programmable slot asks for. */
export type ProgrammableSlot =
  | { state: "active"; body: string }
  | { state: "inactive" }
  | { state: "none" };

/**
 * Up to `limit` bytes of `path` as UTF-8 (a multi-byte sequence cut at the
 * limit is dropped), or null when unreadable (missing, a directory, invalid UTF-8).
 * `more` tells whether the file went on past the limit.
 */
async function readBounded(
  path: string,
  limit: number,
): Promise<{ text: string; more: boolean } | null> {
  return await withFile(path, async (file) => {
    const bytes = await readAt(file, 0, limit + 1);
    const more = bytes.length > limit;
    // `stream` keeps a sequence split by the limit from counting as invalid.
    const text = new TextDecoder("utf-8", { fatal: true })
      .decode(bytes.subarray(0, Math.min(bytes.length, limit)), { stream: more });
    return { text, more };
  }).catch(() => null);
}

/**
 * The programmable slot of the agent at `workdir`: `active` with its body
 * (cut to {@link BODY_LIMIT} code points, otherwise as written), `inactive`
 * when the status is exactly that word, else `none` (no change wanted).
 *
 * @example Not run as a doc test: it needs file access
 * ```ts ignore
 * import { readProgrammableSlot } from "./programmable.ts";
 * const slot = await readProgrammableSlot(workdir);
 * if (slot.state === "active") compose(slot.body);
 * else if (slot.state === "inactive") removeSlot();
 * ```
 */
export async function readProgrammableSlot(workdir: string): Promise<ProgrammableSlot> {
  const dir = join(workdir, "taskcard");
  const status = await readBounded(join(dir, "status"), STATUS_BYTES);
  // Compared as written: the producer never adds a newline, so `active\n` is not `active`.
  if (status === null || status.more) return { state: "none" };
  if (status.text === "inactive") return { state: "inactive" };
  if (status.text !== "active") return { state: "none" };
  const body = await readBounded(join(dir, "taskcard.md"), BODY_BYTES);
  if (body === null || stripWhitespace(body.text) === "") return { state: "none" };
  const text = body.text.length > BODY_LIMIT
    ? Array.from(body.text).slice(0, BODY_LIMIT).join("")
    : body.text;
  return { state: "active", body: text };
}

/**
 * The body shown after reading `slot` while `current` was shown: an active
 * slot's body, nothing after an exact `inactive` (cleared even while the
 * cards are hidden, so a stale body cannot come back), else `current`.
 *
 * @example
 * ```ts
 * import { slotAfter } from "./programmable.ts";
 * if (slotAfter({ state: "active", body: "b" }, "a") !== "b") throw new Error();
 * if (slotAfter({ state: "inactive" }, "a") !== null) throw new Error();
 * if (slotAfter({ state: "none" }, "a") !== "a") throw new Error();
 * ```
 */
export function slotAfter(slot: ProgrammableSlot, current: string | null): string | null {
  if (slot.state === "active") return slot.body;
  return slot.state === "inactive" ? null : current;
}
