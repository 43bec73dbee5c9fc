/**
 * What the composer sends: a typed `@bot` (or `@<bot name>`) becomes a real
 * mention of the bot, as Feishu's mention picker would make it.
 * @module
 */

/**
 * Splits typed text into the text to send and whether it @-mentions the
 * bot (`@bot` or `@<bot name>`, removed from the text).
 *
 * @example
 * ```ts
 * import { extractBotMention } from "./compose.ts";
 * const m = extractBotMention("@EmuBot  hello", "EmuBot");
 * if (m.text !== "hello" || !m.bot) throw new Error(JSON.stringify(m));
 * if (extractBotMention("mail a@EmuBot.x", "EmuBot").bot) throw new Error();
 * ```
 */
export function extractBotMention(text: string, botName: string): { text: string; bot: boolean } {
  const names = ["bot", botName].filter(Boolean).map((n) =>
    n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  const re = new RegExp(`(^|\\s)@(?:${names.join("|")})(?=\\s|$)`, "gi");
  const stripped = text.replace(re, "$1");
  return stripped === text ? { text, bot: false } : { text: stripped.trim(), bot: true };
}
