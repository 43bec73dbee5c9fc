/**
 * How the Task Card looks for one agent: its language (the control cards'
 * table), its title (the agent's name: `scribe Task Card`, `scribe 任务卡片`;
 * just `Task Card` when no name is known) and the time zone its clock times
 * are shown in (the agent's own, else this machine's). The frame is rendered
 * and redacted here, in one place, from the events log snapshot and the
 * programmable slot.
 * @module
 */

import { fill, headerName, type Messages, messagesFor } from "../../cards/mod.ts";
import { machineTimeZone, validTimeZone } from "../core/mod.ts";
import type { Redact } from "./project.ts";
import { type FrameLook, renderEventGroups } from "./render.ts";
import { composeFrame } from "./resident.ts";
import type { Projection } from "./types.ts";

/** What the agent's settings say about it; every field may be unknown. */
export interface AgentProfile {
  /** The configured language (`en`, `zh`, `wen`, …). */
  language: string | null;
  /** Its display name. */
  name: string | null;
  /** An IANA time zone. */
  timeZone: string | null;
}

/** The Task Card's look: its texts and redactor, title and time zone. */
export interface CardLook extends FrameLook {
  title: string;
  zone: string;
}

/** Longest agent name shown in the title, in code points. */
export const NAME_CHARS = 40;

/** A name fit for a one-line plain-text title: no control characters, bounded. */
function cleanName(name: string | null, redact: Redact): string {
  if (typeof name !== "string") return "";
  const flat = headerName(redact(name));
  const cps = Array.from(flat);
  return cps.length <= NAME_CHARS ? flat : `${cps.slice(0, NAME_CHARS - 1).join("")}…`;
}

/**
 * The look for a profile (null: nothing known yet).
 *
 * @example
 * ```ts
 * import { cardLook } from "./look.ts";
 * const zh = cardLook({ language: "zh", name: "scribe", timeZone: "asia/shanghai" }, (s) => s);
 * if (zh.title !== "scribe 任务卡片" || zh.zone !== "Asia/Shanghai") throw new Error();
 * const none = cardLook(null, (s) => s, "UTC");
 * if (none.title !== "Task Card" || none.zone !== "UTC") throw new Error();
 * ```
 */
export function cardLook(
  profile: AgentProfile | null,
  redact: Redact,
  machineZone: string = machineTimeZone(),
): CardLook {
  const m: Messages = messagesFor(profile?.language);
  const name = cleanName(profile?.name ?? null, redact);
  return {
    t: m.task,
    redact,
    title: name === "" ? m.text.taskcard : fill(m.task.title, { name }),
    zone: validTimeZone(profile?.timeZone) ?? validTimeZone(machineZone) ?? "UTC",
  };
}

/** Whether two looks show the same (the redactor is the server's one and never changes). */
export function sameLook(a: CardLook, b: CardLook): boolean {
  return a.t === b.t && a.title === b.title && a.zone === b.zone;
}

/**
 * The text of a route's card: the events log's frame in the look's language
 * and zone (with the neutral count of steps elsewhere when above 0), the
 * programmable slot under its heading, the whole redacted once more (the
 * slot is the agent's own text too).
 */
export function renderFrame(
  snapshot: Projection,
  normalRows: number,
  programmable: string | null,
  look: CardLook,
  nowMs: number,
  otherSteps = 0,
): string {
  const automatic = renderEventGroups(
    snapshot.groups,
    normalRows,
    snapshot.metadata,
    { ms: nowMs, zone: look.zone },
    look,
    otherSteps,
  );
  return look.redact(composeFrame(automatic, programmable, look.t.programmable));
}
