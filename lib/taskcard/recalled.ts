/**
 * Text people recalled, kept out of the Task Cards of their chat. A card's
 * rows are the agent's own words, and they often quote the message being
 * answered ("Answering Bob: …"); once Bob recalls that message, his words
 * must not stay on a card everyone in the chat reads. The bridge remembers
 * the recalled texts of each chat (bounded, in memory: rows read after a
 * restart belong to no conversation anyway) and blanks them, whole or as the
 * start of a row cut short with "…", wherever a frame of that chat shows them.
 * @module
 */

/** The marker shown where recalled text was. */
export const RECALLED_MARK = "[recalled]";
/** Recalled texts remembered per chat (the oldest forgotten first). */
const PER_CHAT = 20;
/** A cut-short quote is blanked only when this much of the recalled text shows. */
const MIN_PREFIX = 6;

/**
 * `frame` with every occurrence of a recalled text replaced by
 * {@link RECALLED_MARK}, and a line that ends in a cut-short start of one
 * ("…" after at least a few of its first characters) blanked from there.
 *
 * @example
 * ```ts
 * import { withoutRecalled } from "./recalled.ts";
 * const texts = ["my password is hunter2"];
 * if (withoutRecalled("• Answering Bob: my password is hunter2", texts) !== "• Answering Bob: [recalled]") throw new Error();
 * if (withoutRecalled("• Answering Bob: my passwo…\n✓ done", texts) !== "• Answering Bob: [recalled]\n✓ done") throw new Error();
 * if (withoutRecalled("• my pa…", texts) !== "• my pa…") throw new Error("too short a prefix to tell");
 * ```
 */
export function withoutRecalled(frame: string, texts: readonly string[]): string {
  let out = frame;
  for (const text of texts) {
    const whole = text.trim();
    if (whole === "") continue;
    out = out.split(whole).join(RECALLED_MARK);
    out = out.split("\n").map((line) => blankCutShort(line, whole)).join("\n");
  }
  return out;
}

/** The line with a trailing "start of `text`…" blanked, or as it was. */
function blankCutShort(line: string, text: string): string {
  const cut = line.endsWith("…") ? line.slice(0, -1).trimEnd() : null;
  if (cut === null) return line;
  for (let start = 0; start < cut.length; start++) {
    const tail = cut.slice(start);
    if (tail.length >= MIN_PREFIX && text.startsWith(tail)) {
      return `${cut.slice(0, start)}${RECALLED_MARK}`;
    }
  }
  return line;
}

/** The recalled texts of each chat, by account and chat id. */
export class RecalledTexts {
  #byChat = new Map<string, string[]>();

  /** Remembers a chat's recalled text; false when there is nothing new to hide. */
  add(account: string, chatId: string, text: string): boolean {
    const whole = text.trim();
    if (whole === "") return false;
    const key = `${account}\u0000${chatId}`;
    const texts = this.#byChat.get(key) ?? [];
    if (texts.includes(whole)) return false;
    texts.push(whole);
    if (texts.length > PER_CHAT) texts.shift();
    this.#byChat.set(key, texts);
    return true;
  }

  /** The frame of a route without its chat's recalled texts. */
  hide(route: { account: string; chatId: string } | undefined, frame: string): string {
    const texts = route && this.#byChat.get(`${route.account}\u0000${route.chatId}`);
    return texts ? withoutRecalled(frame, texts) : frame;
  }
}
