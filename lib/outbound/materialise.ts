/**
 * One logical message → ordered wire bodies: text chunks, markdown
 * as posts with one `md` element per chunk, a post AST or a card as one body,
 * media bodies from resolved provider keys. Every body is checked against
 * Feishu's byte limits before any I/O: chunks that are still too large are
 * split further; a post AST or card that is too large is a `FORMAT_ERROR`
 * saying by how much (nothing is sent; the agent must make it smaller).
 * A single code point over the limit is `INVALID_ARGUMENT`.
 * Markdown nested past its budget, and a post or card nested past its own,
 * is a `FORMAT_ERROR` before anything parses or walks it.
 * @module
 */

import { BridgeError, codePointLength } from "../core/mod.ts";
import { assertBodyDepth } from "./_depth.ts";
import {
  assertMarkdownNesting,
  type ChunkOptions,
  DEFAULT_CHUNK_LIMIT,
  type Degradation,
  splitMarkdown,
  type SplitResult,
  splitText,
} from "./markdown/mod.ts";
import type { JsonObject, MediaPlan, NormalisedContent, WireBody } from "./types.ts";
import {
  byteLimitOf,
  type ByteLimits,
  FEISHU_BYTE_LIMITS,
  markdownPost,
  requestBytes,
  wireBody,
} from "./wire.ts";

/** Options of {@link materialise}. */
export interface MaterialiseOptions extends Partial<ChunkOptions> {
  /** The provider key of an uploaded path source (`image_key` or `file_key`). */
  mediaKey?: string;
  /** Request-body limits; Feishu's by default. */
  byteLimits?: ByteLimits;
}

/** The bodies to send, in order, and the degradations to report. */
export interface Materialised {
  bodies: WireBody[];
  degradations: Degradation[];
}

function tooLarge(what: string, limit: number, found: number): BridgeError {
  return new BridgeError(
    "INVALID_ARGUMENT",
    `Expected the ${what} to be at most ${limit} bytes as a Feishu request but found ${found}`,
  );
}

/** A post or card (never split) over its limit: the content must change. */
function overLimit(what: string, limit: number, found: number): BridgeError {
  return new BridgeError(
    "FORMAT_ERROR",
    `Expected the ${what} to be at most ${limit} bytes as a Feishu request but found ${found} ` +
      `(${found - limit} byte${found - limit === 1 ? "" : "s"} over); ` +
      "make it smaller or split it into several messages",
  );
}

/**
 * Materialises normalised content into wire bodies.
 *
 * @example Long text becomes several text bodies
 * ```ts
 * import { materialise } from "./materialise.ts";
 * const n = { type: "text", recordContent: { type: "text", text: "a\nb" }, previewText: "a\nb", messageType: "text" } as const;
 * const m = materialise(n, { limit: 1 });
 * if (m.bodies.map((b) => b.content).join() !== '{"text":"a"},{"text":"b"}') throw new Error();
 * ```
 */
export function materialise(
  content: NormalisedContent,
  options: MaterialiseOptions = {},
): Materialised {
  const m = new Materialiser(options);
  const bodies = m.bodies(content);
  if (bodies.length === 0) {
    throw new BridgeError("INVALID_ARGUMENT", "Feishu outbound materialized an empty body");
  }
  return { bodies, degradations: m.degradations };
}

class Materialiser {
  readonly degradations: Degradation[] = [];
  readonly #o: MaterialiseOptions;
  readonly #limits: ByteLimits;
  readonly #chunk: ChunkOptions;

  constructor(o: MaterialiseOptions) {
    this.#o = o;
    this.#limits = o.byteLimits ?? FEISHU_BYTE_LIMITS;
    this.#chunk = {
      limit: o.limit ?? DEFAULT_CHUNK_LIMIT,
      maxTablesPerChunk: o.maxTablesPerChunk,
      maxTableColumns: o.maxTableColumns,
    };
  }

  bodies(c: NormalisedContent): WireBody[] {
    const r = c.recordContent;
    switch (c.type) {
      case "text":
        return this.#fit(String(r.text), {
          split: (t, limit) => splitText(t, { limit }),
          build: (t) => wireBody("text", { text: t }),
        }).map((c) => c.body);
      case "markdown":
        return this.#markdown(String(r.markdown), []);
      case "post":
        assertBodyDepth("post", r.post);
        return [this.#whole("post", wireBody("post", r.post as JsonObject), overLimit)];
      case "card":
        assertBodyDepth("card", r.card);
        return [this.#whole("card", wireBody("interactive", r.card as JsonObject), overLimit)];
      case "image":
      case "video":
      case "file":
      case "audio":
        return this.#media(c.media!);
      case "share_chat":
        return [wireBody("share_chat", { chat_id: r.chat_id })];
      case "share_user":
        return [wireBody("share_user", { user_id: r.user_id })];
      case "sticker":
        return [wireBody("sticker", { file_key: r.file_key })];
    }
  }

  #whole(what: string, body: WireBody, refuse = tooLarge): WireBody {
    const bytes = requestBytes(body);
    const limit = byteLimitOf(body, this.#limits);
    if (bytes > limit) throw refuse(what, limit, bytes);
    return body;
  }

  /** Markdown posts; `extraRows` go under the last chunk (a caption's image or media). */
  #markdown(md: string, extraRows: JsonObject[][]): WireBody[] {
    assertMarkdownNesting(md, extraRows.length === 0 ? "markdown" : "the caption");
    const reserve = extraRows.length === 0
      ? 0
      : requestBytes(wireBody("post", markdownPost([], extraRows)));
    const chunks = this.#fit(md, {
      split: (t, limit) => splitMarkdown(t, { ...this.#chunk, limit }),
      build: (t) => wireBody("post", markdownPost([t])),
      reserve,
    });
    const bodies = chunks.map((c) => c.body);
    const last = chunks.at(-1);
    if (extraRows.length > 0 && last !== undefined) {
      bodies[bodies.length - 1] = this.#whole(
        "captioned media",
        wireBody("post", markdownPost([last.text], extraRows)),
      );
    }
    return bodies;
  }

  #media(media: MediaPlan): WireBody[] {
    const key = this.#o.mediaKey ?? (media.source.type === "key" ? media.source.key : undefined);
    if (key === undefined) {
      throw new TypeError("Expected mediaKey for a path source (upload first) but found none");
    }
    if (media.type === "image") {
      if (media.caption !== undefined) {
        return this.#markdown(media.caption, [[{ tag: "img", image_key: key }]]);
      }
      return [wireBody("image", { image_key: key })];
    }
    if (media.type === "video") {
      if (media.caption !== undefined) {
        return this.#markdown(media.caption, [[{ tag: "media", file_key: key }]]);
      }
      return [wireBody("media", { file_key: key })];
    }
    return [wireBody(media.type, { file_key: key })];
  }

  /**
   * Chunks `source`, builds a body per chunk, and splits any body still over
   * its byte limit again with a proportionally smaller chunk limit.
   */
  #fit(
    source: string,
    how: {
      split: (text: string, limit: number) => SplitResult;
      build: (chunk: string) => WireBody;
      reserve?: number;
    },
  ): { text: string; body: WireBody }[] {
    const out: { text: string; body: WireBody }[] = [];
    const visit = (text: string, limit: number): void => {
      const r = how.split(text, limit);
      this.degradations.push(...r.degradations);
      for (const chunk of r.chunks) {
        const body = how.build(chunk.text);
        const bytes = requestBytes(body) + (how.reserve ?? 0);
        const max = byteLimitOf(body, this.#limits);
        if (bytes <= max) {
          out.push({ text: chunk.text, body });
          continue;
        }
        const cps = codePointLength(chunk.text);
        if (cps <= 1) throw tooLarge("message chunk", max, bytes);
        visit(chunk.text, Math.max(1, Math.min(cps - 1, Math.floor((cps * max) / bytes * 0.9))));
      }
    };
    visit(source, this.#chunk.limit);
    return out;
  }
}
