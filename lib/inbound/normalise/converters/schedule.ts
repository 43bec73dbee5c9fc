/**
 * Time-bound families: `todo`, the calendar family (`calendar`,
 * `general_calendar`, `share_calendar_event`) and `video_chat`. Times are
 * rendered as UTC `YYYY-MM-DDTHH:MM:SSZ`.
 * @module
 */

import { asArray, asObject, asText } from "../_json.ts";
import { isoFromFeishuTime } from "../_format.ts";
import type { Conversion } from "../types.ts";

/**
 * `todo`: title, plain body and `Due:` line inside `<todo>`.
 *
 * @example
 * ```ts
 * import { convertTodo } from "./schedule.ts";
 * import assert from "node:assert/strict";
 * const c = convertTodo({ summary: { title: "Ship", content: [[{ tag: "text", text: "v1" }]] }, due_time: "1735700000000" });
 * assert.equal(c.text, "<todo>\nShip\nv1\nDue: 2025-01-01T02:53:20Z\n</todo>");
 * assert.equal(convertTodo({}).text, "<todo>\n[todo]\n</todo>");
 * ```
 */
export function convertTodo(content: unknown): Conversion {
  const c = asObject(content);
  const summary = asObject(c?.summary);
  const title = asText(summary?.title);
  const body = plainParagraphs(summary?.content);
  const due = isoFromFeishuTime(c?.due_time);
  const lines = [title, body || undefined, due ? `Due: ${due}` : undefined]
    .filter((l): l is string => l !== undefined);
  return {
    content: {
      kind: "todo",
      ...(title ? { title } : {}),
      ...(body ? { body } : {}),
      ...(due ? { due_time: due } : {}),
    },
    text: `<todo>\n${lines.length > 0 ? lines.join("\n") : "[todo]"}\n</todo>`,
    resources: [],
  };
}

/** The text of `text` and `a` elements, one line per paragraph. */
function plainParagraphs(value: unknown): string {
  return asArray(value)
    .map((p) =>
      asArray(p)
        .map((el) => asObject(el))
        .map((el) => (el?.tag === "text" || el?.tag === "a") ? asText(el.text) ?? "" : "")
        .join("")
    )
    .filter((line) => line !== "")
    .join("\n");
}

const CALENDAR_TAG: Record<string, string> = {
  calendar: "calendar_invite",
  general_calendar: "calendar",
  share_calendar_event: "calendar_share",
};

/**
 * The calendar family: `📅 summary` and `🕙 start ~ end` inside a tag named
 * after the kind.
 *
 * @example
 * ```ts
 * import { convertCalendar } from "./schedule.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertCalendar("share_calendar_event")({ summary: "Sync" }).text,
 *   "<calendar_share>\n📅 Sync\n</calendar_share>");
 * ```
 */
export function convertCalendar(
  kind: "calendar" | "general_calendar" | "share_calendar_event",
): (content: unknown) => Conversion {
  return (content) => {
    const c = asObject(content);
    const summary = asText(c?.summary);
    const start = isoFromFeishuTime(c?.start_time);
    const end = isoFromFeishuTime(c?.end_time);
    const organizer = asText(c?.organizer) ?? asText(c?.organizer_name);
    const lines = [
      ...(summary ? [`📅 ${summary}`] : []),
      ...(start ? [end ? `🕙 ${start} ~ ${end}` : `🕙 ${start}`] : []),
      ...(organizer ? [`👤 ${organizer}`] : []),
    ];
    const tag = CALENDAR_TAG[kind] ?? kind;
    return {
      content: {
        kind,
        ...(summary ? { summary } : {}),
        ...(start ? { start_time: start } : {}),
        ...(end ? { end_time: end } : {}),
        ...(organizer ? { organizer } : {}),
      },
      text: `<${tag}>\n${lines.length > 0 ? lines.join("\n") : "[calendar event]"}\n</${tag}>`,
      resources: [],
    };
  };
}

/**
 * `video_chat`: `📹 topic`, `🔢 meeting number`, `🕙 start` inside `<meeting>`.
 *
 * @example
 * ```ts
 * import { convertVideoChat } from "./schedule.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertVideoChat({ topic: "sync", meet_number: "123" }).text, "<meeting>\n📹 sync\n🔢 123\n</meeting>");
 * ```
 */
export function convertVideoChat(content: unknown): Conversion {
  const c = asObject(content);
  const topic = asText(c?.topic);
  const number = asText(c?.meet_number) ??
    (typeof c?.meet_number === "number" ? String(c.meet_number) : undefined);
  const start = isoFromFeishuTime(c?.start_time);
  const lines = [
    ...(topic ? [`📹 ${topic}`] : []),
    ...(number ? [`🔢 ${number}`] : []),
    ...(start ? [`🕙 ${start}`] : []),
  ];
  return {
    content: {
      kind: "video_chat",
      ...(topic ? { topic } : {}),
      ...(start ? { start_time: start } : {}),
      ...(number ? { meet_number: number } : {}),
    },
    text: `<meeting>\n${lines.length > 0 ? lines.join("\n") : "[video chat]"}\n</meeting>`,
    resources: [],
  };
}
