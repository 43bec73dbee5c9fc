/**
 * What the events log says, made readable for the people in a chat: raw
 * JSON, the bridge's own content tags and Feishu's ids and keys are noise
 * to them, so they are dropped or named in words. Pure and linear-time:
 *
 * - an embedded JSON object (or an array of objects) is dropped:
 *   `[card action: button] {"demo": "approve"}` → `[card action: button]`;
 * - content tags, as the bridge writes them (`<file key="…" name="a.pdf"/>`)
 *   or as a notification quotes them (`‹file key=… name=…›`), become
 *   `[file: a.pdf]`, `[image]`, `[todo]` …; their closing tags go;
 * - image and file keys (`img_v3_…`, `file_v3_…`) become `[image]`, `[file]`;
 *   message, chat, user and topic ids (`om_…`, `oc_…`, `ou_…`, `on_…`,
 *   `omt_…`), alone or inside a compound id (`main:oc_…:om_…`), become
 *   `[message]`, `[chat]`, `[user]`, `[topic]`.
 *
 * Placeholders of the redactor (`<REDACTED:kind>`) are left as they are.
 * @module
 */

/** Longest JSON blob considered (a longer one is left as text). */
const JSON_SCAN = 8000;

/** The content tags the bridge writes into message text, and how they read. */
const TAG_LABELS: Readonly<Record<string, string>> = {
  file: "file",
  image: "image",
  img: "image",
  audio: "audio",
  video: "video",
  media: "video",
  sticker: "sticker",
  folder: "folder",
  location: "location",
  hongbao: "red packet",
  forwarded_messages: "forwarded messages",
  todo: "todo",
  vote: "vote",
  meeting: "video chat",
  calendar: "calendar event",
  calendar_event: "calendar event",
  calendar_invite: "calendar event",
  share_chat: "shared chat",
  share_user: "shared contact",
  card: "card",
  interactive: "card",
  system: "system message",
};

// `<name attr="v" …/>`, `</name>`, or the guillemet form a notification uses.
const TAG =
  /[<‹](?<close>\/)?(?<name>[a-z][a-z_]{1,30})(?<attrs>(?:\s+[a-z_]{1,30}=(?:"[^"<>‹›\n]{0,300}"|[^\s"<>‹›\/]{1,300}))*)\s*\/?[>›]/g;
const NAME_ATTR = /\sname=(?:"([^"]*)"|([^\s"<>‹›\/]+))/;

// Ids and keys always carry a digit: `on_click_handler` is a name, not an id.
const ID_BODY = (min: number, max: number) =>
  `(?=[A-Za-z_-]{0,${max}}[0-9])[A-Za-z0-9_-]{${min},${max}}(?![A-Za-z0-9_-])`;
const COMPOUND_ID = new RegExp(
  `\\b[A-Za-z0-9_-]{1,64}:oc_${ID_BODY(4, 64)}(?<message>:om_${ID_BODY(4, 64)})?`,
  "g",
);
const FEISHU_ID = new RegExp(`\\b(?<kind>omt|om|oc|ou|on)_${ID_BODY(6, 64)}`, "g");
const KEY = new RegExp(`\\b(?<kind>img|file)_v\\d_${ID_BODY(4, 128)}`, "g");
const ID_LABELS: Readonly<Record<string, string>> = {
  om: "[message]",
  oc: "[chat]",
  ou: "[user]",
  on: "[user]",
  omt: "[topic]",
};

function tagText(match: string, groups: Record<string, string | undefined>): string {
  const label = TAG_LABELS[groups.name ?? ""];
  if (label === undefined) return match;
  if (groups.close) return "";
  const m = NAME_ATTR.exec(groups.attrs ?? "");
  const name = (m?.[1] ?? m?.[2] ?? "").trim();
  return name === "" ? `[${label}]` : `[${label}: ${name}]`;
}

/**
 * Spans `[start, end)` of the outermost `{…}` / `[…]` groups, found in one
 * pass: brackets inside JSON strings do not count, and a group still open
 * {@link JSON_SCAN} characters after it began is given up (the scan goes on
 * from where it is, so the pass stays linear).
 */
function bracketSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (depth > 0 && i - start > JSON_SCAN) {
      depth = 0;
      inString = false;
    }
    if (depth > 0 && inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === "{" || c === "[") {
      if (depth === 0) start = i;
      depth++;
    } else if ((c === "}" || c === "]") && depth > 0) {
      if (--depth === 0) spans.push([start, i + 1]);
    } else if (c === '"' && depth > 0) {
      inString = true;
    }
  }
  return spans;
}

/** Whether `s` is JSON worth dropping: an object, or an array holding an object or array. */
function isJsonBlob(s: string): boolean {
  let v: unknown;
  try {
    v = JSON.parse(s);
  } catch {
    return false;
  }
  if (Array.isArray(v)) return v.some((x) => typeof x === "object" && x !== null);
  return typeof v === "object" && v !== null;
}

function dropJson(text: string): string {
  if (!text.includes("{") && !text.includes("[")) return text;
  let out = "";
  let from = 0;
  for (const [a, b] of bracketSpans(text)) {
    if (!isJsonBlob(text.slice(a, b))) continue;
    out += text.slice(from, a);
    from = b;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Collapses the spaces a removal leaves behind (not newlines), and trims the ends. */
function tidy(text: string): string {
  return text.replace(/[ \t]{2,}/g, " ").replace(/[ \t]+$/gm, "").replace(/^[ \t]+(?=\S)/, "")
    .trim();
}

/**
 * `text` with JSON, content tags, keys and ids turned into plain words (see
 * the module doc). Never throws; text with none of them comes back as it was.
 *
 * @example
 * ```ts
 * import { humanText } from "./human_text.ts";
 * const said = 'Answering Alice: [card action: button] {"demo": "approve"}';
 * if (humanText(said) !== "Answering Alice: [card action: button]") throw new Error();
 * if (humanText('got ‹file key="file_v3_x1" name="a.pdf"/›') !== "got [file: a.pdf]") throw new Error();
 * if (humanText("see om_emu_000001 in main:oc_emu_01:om_emu_02") !== "see [message] in [message]") {
 *   throw new Error();
 * }
 * ```
 */
export function humanText(text: string): string {
  if (typeof text !== "string" || text === "") return "";
  try {
    let out = dropJson(text);
    out = out.replace(TAG, (match, ...args) => tagText(match, args.at(-1) ?? {}));
    out = out.replace(COMPOUND_ID, (_m, ...args) => args.at(-1)?.message ? "[message]" : "[chat]");
    out = out.replace(KEY, (_m, ...args) => args.at(-1)?.kind === "img" ? "[image]" : "[file]");
    out = out.replace(FEISHU_ID, (_m, ...args) => ID_LABELS[args.at(-1)?.kind ?? ""] ?? "");
    return out === text ? text : tidy(out);
  } catch {
    return text;
  }
}
