/**
 * Shapes of normalisation: a converter's output and what it is given. The
 * record it produces and its `content` union are the store's
 * (`IncomingMessageRecord`, `MessageContent`).
 * @module
 */

import type { ResourceRef } from "../attachments/mod.ts";
import type { MessageContent } from "../../store/mod.ts";

/**
 * What a converter returns. `text` is the flat rendering and may still hold
 * mention placeholders (`@_user_1`, `@_all`), which the normaliser resolves.
 */
export interface Conversion {
  content: MessageContent;
  text: string;
  resources: ResourceRef[];
}

/** What a converter may ask of its caller. */
export interface ConvertContext {
  /**
   * Resolves an inline `<at>` of a post or md element to what the text
   * shows: the key of the event's mention for that id, `@_all` for everyone,
   * else the visible `@name` (`@user` without one). Never adds a mention.
   */
  mention(id: string, name?: string): string;
}

/** Converts the parsed content JSON (undefined when it was not JSON). */
export type Converter = (content: unknown, ctx: ConvertContext) => Conversion;

/** A successful transcript (filled by the transcription stage). */
