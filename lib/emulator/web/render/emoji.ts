/**
 * Feishu emoji types (reaction `emoji_type`, post `emotion` elements,
 * `:NAME:` in card markdown) and the glyph the page shows for each. Unknown
 * types fall back to their name, so nothing the bot sends is hidden.
 * @module
 */

const GLYPHS: Record<string, string> = {
  OK: "👌",
  THUMBSUP: "👍",
  ThumbsDown: "👎",
  Typing: "⌨️",
  SMILE: "😄",
  LAUGH: "😆",
  HEART: "❤️",
  LOVE: "😍",
  JIAYI: "➕1",
  DONE: "✅",
  CheckMark: "✔️",
  CrossMark: "❌",
  MUSCLE: "💪",
  CLAP: "👏",
  APPLAUSE: "👏",
  FIRE: "🔥",
  PARTY: "🎉",
  THANKS: "🙏",
  CRY: "😢",
  WOW: "😮",
  SHOCKED: "😱",
  THINKING: "🤔",
  FACEPALM: "🤦",
  BLUSH: "😊",
  SMIRK: "😏",
  ANGRY: "😠",
  WAVE: "👋",
  ROSE: "🌹",
  BEER: "🍺",
  CAKE: "🎂",
  GIFT: "🎁",
  FINGERHEART: "🫰",
  OnIt: "🫡",
  Get: "🆗",
  LGTM: "👍",
  EYES: "👀",
  ROCKET: "🚀",
  STAR: "⭐",
  HUNDRED: "💯",
  SLEEP: "😴",
  WHAT: "❓",
};

/**
 * The glyph for a Feishu emoji type, or undefined when the page has none.
 *
 * @example
 * ```ts
 * import { emojiGlyph } from "./emoji.ts";
 * if (emojiGlyph("THUMBSUP") !== "👍" || emojiGlyph("NoSuchEmoji") !== undefined) throw new Error();
 * ```
 */
export function emojiGlyph(type: string): string | undefined {
  return Object.hasOwn(GLYPHS, type) ? GLYPHS[type] : undefined;
}

/** Emoji types the page offers in its reaction picker, in order. */
export const PICKER_EMOJIS: readonly string[] = [
  "THUMBSUP",
  "OK",
  "HEART",
  "LAUGH",
  "DONE",
  "PARTY",
  "THINKING",
  "CRY",
];
