/**
 * The converter registry: one converter per wire `message_type`, and the
 * explicit fallback — an unregistered type, or a converter that throws, ends
 * in {@link convertUnknown}, so normalisation never takes the pipeline down.
 * @module
 */

import { parseJson } from "./_json.ts";
import { convertText } from "./converters/text.ts";
import { convertPost } from "./converters/post.ts";
import {
  convertAudio,
  convertFile,
  convertFolder,
  convertImage,
  convertSticker,
  convertVideo,
} from "./converters/media.ts";
import { convertInteractive } from "./converters/interactive.ts";
import {
  convertHongbao,
  convertLocation,
  convertShareChat,
  convertShareUser,
  convertVote,
} from "./converters/cards.ts";
import { convertCalendar, convertTodo, convertVideoChat } from "./converters/schedule.ts";
import { convertSystem } from "./converters/system.ts";
import { convertMergeForward, convertUnknown } from "./converters/fallbacks.ts";
import type { Conversion, ConvertContext, Converter } from "./types.ts";

export { convertUnknown };

/** The built-in converters by wire `message_type`. */
export const CONVERTERS: ReadonlyMap<string, Converter> = new Map<string, Converter>([
  ["text", convertText],
  ["post", convertPost],
  ["image", convertImage],
  ["file", convertFile],
  ["audio", convertAudio],
  ["media", convertVideo],
  ["sticker", convertSticker],
  ["folder", convertFolder],
  ["interactive", convertInteractive],
  ["share_chat", convertShareChat],
  ["share_user", convertShareUser],
  ["location", convertLocation],
  ["hongbao", convertHongbao],
  ["vote", convertVote],
  ["todo", convertTodo],
  ["calendar", convertCalendar("calendar")],
  ["general_calendar", convertCalendar("general_calendar")],
  ["share_calendar_event", convertCalendar("share_calendar_event")],
  ["video_chat", convertVideoChat],
  ["system", convertSystem],
  ["merge_forward", convertMergeForward],
]);

/** Input of {@link convertContent}. */
export interface ContentInput {
  messageType: string;
  /** The `content` JSON string as sent. */
  content: string;
}

/** Options of {@link convertContent}. */
export interface ConvertOptions {
  context: ConvertContext;
  /** Replaces the built-in registry (tests). */
  converters?: ReadonlyMap<string, Converter>;
}

/** A conversion and, when the fallback was used because a converter threw, why. */
export interface ConvertResult {
  conversion: Conversion;
  /** The thrown error's text when the registered converter failed. */
  converterError?: string;
}

/**
 * Parses the content JSON once and runs the registered converter; unknown
 * types and thrown errors fall back to {@link convertUnknown}.
 *
 * @example A converter that throws falls back
 * ```ts
 * import { convertContent } from "./registry.ts";
 * import assert from "node:assert/strict";
 * const r = convertContent({ messageType: "text", content: '{"text":"hi"}' }, {
 *   context: { mention: (id) => id },
 *   converters: new Map([["text", () => { throw new Error("boom"); }]]),
 * });
 * assert.equal(r.converterError, "boom");
 * assert.equal(r.conversion.content.kind, "unknown");
 * assert.equal(r.conversion.text, "hi");
 * ```
 */
export function convertContent(input: ContentInput, options: ConvertOptions): ConvertResult {
  const parsed = parseJson(input.content);
  const converter = (options.converters ?? CONVERTERS).get(input.messageType);
  if (!converter) return { conversion: convertUnknown(input.messageType, parsed) };
  try {
    return { conversion: converter(parsed, options.context) };
  } catch (err) {
    return {
      conversion: convertUnknown(input.messageType, parsed),
      converterError: err instanceof Error ? err.message : String(err),
    };
  }
}
