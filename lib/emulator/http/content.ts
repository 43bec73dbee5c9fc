/**
 * Outbound content validation, the way Feishu answers it: JSON per
 * `msg_type` (230001), size limits (230025), invalid cards (230099), resource
 * keys that are unknown (230001), not the app's own (230017) or of the wrong
 * type (230055). Also turns `<at>` tags into mentions, as Feishu stores them.
 * @module
 */

import type { Limits } from "../core.ts";
import type { Mention, World } from "../world.ts";
import { ApiError } from "./_envelope.ts";

/** Validated content, ready to store. */
export interface CheckedContent {
  /** The content string as Feishu returns it afterwards. */
  content: string;
  /** Resource keys the message carries. */
  resources: string[];
  mentions: Mention[];
}

const encoder = new TextEncoder();
type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function invalid(what: string): ApiError {
  return new ApiError(230001, `invalid message content, ext=${what}`);
}

function parseContent(content: unknown): unknown {
  if (typeof content !== "string") throw invalid("content must be a JSON string");
  try {
    return JSON.parse(content);
  } catch {
    // Feishu answers unparsable content with 230001; the parse error itself is not needed.
    throw invalid("content is not valid JSON");
  }
}

function checkSize(msgType: string, content: string, limits: Limits): void {
  const bytes = encoder.encode(content).length;
  const limit = msgType === "text" ? limits.textBytes : limits.richBytes;
  if (bytes > limit) {
    throw new ApiError(
      230025,
      `The message content is too long: ${bytes} bytes, the limit for ${msgType} is ${limit}`,
    );
  }
}

/** Resolves an `<at>` / `at`-element target to a mention; "all" gives none. */
function mentionFor(world: World, id: string, key: string): Mention | undefined {
  const user = world.findUser(id);
  if (user) {
    return {
      key,
      openId: user.openId,
      unionId: user.unionId,
      userId: user.userId,
      name: user.name,
    };
  }
  for (const app of world.apps.values()) {
    if (app.botOpenId === id) {
      return { key, openId: app.botOpenId, unionId: app.botUnionId, userId: "", name: app.botName };
    }
  }
  return undefined;
}

function checkText(world: World, value: unknown): CheckedContent {
  if (!isObj(value) || typeof value.text !== "string") throw invalid("text content needs a text");
  if (value.text.trim() === "") throw invalid("text is empty");
  const mentions: Mention[] = [];
  const text = value.text.replace(
    /<at\s+(?:user_id|open_id|id)\s*=\s*"?([^">\s]+)"?\s*>([^<]*)<\/at>/g,
    (_all, id: string, name: string) => {
      if (id === "all") return "@_all";
      const m = mentionFor(world, id, `@_user_${mentions.length + 1}`);
      if (!m) return `@${name}`;
      mentions.push(m);
      return m.key;
    },
  );
  return { content: JSON.stringify({ ...value, text }), resources: [], mentions };
}

const POST_TAGS = new Set(["text", "a", "at", "img", "media", "emotion", "hr", "code_block", "md"]);

function checkOwnKey(
  world: World,
  appId: string,
  key: unknown,
  kind: "image" | "file",
): string {
  if (typeof key !== "string" || key === "") throw invalid(`missing ${kind}_key`);
  const upload = world.uploads.get(key);
  if (!upload || upload.kind !== kind) throw invalid(`invalid ${kind}_key ${key}`);
  if (upload.appId !== appId) {
    throw new ApiError(230017, `The bot is not the owner of the resource ${key}`);
  }
  return key;
}

function postBody(value: unknown): Obj {
  const root = isObj(value) && isObj(value.post) ? value.post : value;
  if (!isObj(root)) throw invalid("post content must be an object");
  const locale = Object.keys(root).find((k) => /^[a-z]{2}_[a-z]{2}$/.test(k));
  const body = locale ? root[locale] : undefined;
  if (!isObj(body)) throw invalid("post content needs a locale such as zh_cn");
  return body;
}

function checkPost(world: World, appId: string, value: unknown): CheckedContent {
  const body = postBody(value);
  if (!Array.isArray(body.content)) throw invalid("post content needs a content array");
  const resources: string[] = [];
  const mentions: Mention[] = [];
  for (const line of body.content) {
    if (!Array.isArray(line)) throw invalid("each post line must be an array");
    for (const el of line) {
      if (!isObj(el) || typeof el.tag !== "string" || !POST_TAGS.has(el.tag)) {
        throw invalid(`unknown post element ${JSON.stringify(isObj(el) ? el.tag : el)}`);
      }
      if (el.tag === "img") resources.push(checkOwnKey(world, appId, el.image_key, "image"));
      if (el.tag === "media") resources.push(checkOwnKey(world, appId, el.file_key, "file"));
      if (el.tag === "at" && typeof el.user_id === "string" && el.user_id !== "all") {
        const m = mentionFor(world, el.user_id, `@_user_${mentions.length + 1}`);
        if (m) mentions.push(m);
      }
    }
  }
  const stored = { title: typeof body.title === "string" ? body.title : "", content: body.content };
  return { content: JSON.stringify(stored), resources, mentions };
}

function countTags(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countTags(v), 0);
  if (!isObj(value)) return 0;
  let n = typeof value.tag === "string" ? 1 : 0;
  for (const v of Object.values(value)) n += countTags(v);
  return n;
}

function badCard(detail: string): ApiError {
  return new ApiError(230099, `Failed to create card content, ext=${detail}`);
}

/**
 * Checks a card (schema 2.0, v1, template or card entity) and returns it
 * unchanged; throws 230099 when it is not a card.
 *
 * @example
 * ```ts
 * import { checkCard } from "./content.ts";
 * checkCard({ schema: "2.0", body: { elements: [{ tag: "markdown", content: "hi" }] } }, 200);
 * let code = 0;
 * try { checkCard({ schema: "2.0", body: {} }, 200); } catch (e) { code = (e as { code: number }).code; }
 * if (code !== 230099) throw new Error(String(code));
 * ```
 */
export function checkCard(value: unknown, maxElements: number): void {
  if (!isObj(value)) throw badCard("card must be an object");
  if (value.type === "template") {
    if (!isObj(value.data) || typeof value.data.template_id !== "string") {
      throw badCard("template card needs data.template_id");
    }
    return;
  }
  if (value.type === "card") {
    if (!isObj(value.data) || typeof value.data.card_id !== "string") {
      throw badCard("card entity needs data.card_id");
    }
    return;
  }
  const elements = value.schema === "2.0"
    ? (isObj(value.body) ? value.body.elements : undefined)
    : value.elements ??
      (isObj(value.i18n_elements) ? Object.values(value.i18n_elements)[0] : undefined);
  if (!Array.isArray(elements)) throw badCard("card needs an elements array");
  for (const el of elements) {
    if (!isObj(el) || typeof el.tag !== "string") throw badCard("every element needs a tag");
  }
  const count = countTags(value);
  if (count > maxElements) {
    throw badCard(`ErrCode: 11310; ErrMsg: element exceeds the limit (${count} > ${maxElements})`);
  }
}

function needString(value: unknown, field: string): string {
  const v = isObj(value) ? value[field] : undefined;
  if (typeof v !== "string" || v === "") throw invalid(`missing ${field}`);
  return v;
}

/**
 * Validates outbound `content` for `msgType` as the app `appId` and returns
 * what to store. Throws an `ApiError` with Feishu's code otherwise.
 *
 * @example Mentions become placeholders
 * ```ts
 * import { checkContent } from "./content.ts";
 * import { createDefaultWorld, DEFAULT_IDS } from "../fixtures.ts";
 * import { DEFAULT_LIMITS } from "../core.ts";
 * const c = checkContent(createDefaultWorld(), {
 *   appId: DEFAULT_IDS.appId, msgType: "text", limits: DEFAULT_LIMITS,
 *   content: JSON.stringify({ text: `<at user_id="${DEFAULT_IDS.alice.openId}">Alice</at> hi` }),
 * });
 * if (c.content !== '{"text":"@_user_1 hi"}' || c.mentions[0]?.name !== "Alice") throw new Error(c.content);
 * ```
 */
export function checkContent(
  world: World,
  input: { appId: string; msgType: unknown; content: unknown; limits: Limits },
): CheckedContent {
  const { appId, msgType, limits } = input;
  if (typeof msgType !== "string" || msgType === "") throw invalid("missing msg_type");
  const value = parseContent(input.content);
  checkSize(msgType, input.content as string, limits);
  const plain = (resources: string[] = []): CheckedContent => ({
    content: input.content as string,
    resources,
    mentions: [],
  });
  switch (msgType) {
    case "text":
      return checkText(world, value);
    case "post":
      return checkPost(world, appId, value);
    case "image":
      return plain([checkOwnKey(world, appId, isObj(value) ? value.image_key : "", "image")]);
    case "file":
      return plain([checkOwnKey(world, appId, isObj(value) ? value.file_key : "", "file")]);
    case "audio":
    case "media": {
      const key = checkOwnKey(world, appId, isObj(value) ? value.file_key : "", "file");
      const want = msgType === "audio" ? "opus" : "mp4";
      if (world.uploads.get(key)?.fileType !== want) {
        throw new ApiError(
          230055,
          `The file type does not match msg_type ${msgType}: want ${want}`,
        );
      }
      const cover = isObj(value) && typeof value.image_key === "string"
        ? [checkOwnKey(world, appId, value.image_key, "image")]
        : [];
      return plain([key, ...cover]);
    }
    case "sticker":
      return plain([needString(value, "file_key")]);
    case "interactive":
      checkCard(value, limits.cardElements);
      return plain();
    case "share_chat":
      if (!world.chats.has(needString(value, "chat_id"))) throw invalid("unknown chat_id");
      return plain();
    case "share_user":
      if (!world.findUser(needString(value, "user_id"))) throw invalid("unknown user_id");
      return plain();
    default:
      throw invalid(`unsupported msg_type ${msgType}`);
  }
}
