/**
 * JSON Schema of the outbound content union: closed branches
 * told apart by `type`, the media source union, and the editable subset.
 * @module
 */

import { closedObject, type JsonSchema, str } from "./_json_schema.ts";

/** The content `type` values `edit` accepts, in published order. */
export const EDITABLE_CONTENT_TYPES = ["text", "markdown", "post", "card"] as const;

/** Every content `type` value, in published order. */
export const CONTENT_TYPES = [
  ...EDITABLE_CONTENT_TYPES,
  "image",
  "file",
  "audio",
  "video",
  "share_chat",
  "share_user",
  "sticker",
] as const;

/** One of {@link CONTENT_TYPES}. */
export type ContentType = typeof CONTENT_TYPES[number];

/**
 * The media source union: a local absolute path or an existing provider key.
 *
 * @example
 * ```ts
 * import { mediaSourceSchema } from "./_content_schema.ts";
 * import assert from "node:assert/strict";
 * assert.equal((mediaSourceSchema().oneOf as unknown[]).length, 2);
 * ```
 */
export function mediaSourceSchema(): JsonSchema {
  return {
    oneOf: [
      closedObject({ type: tag("path"), path: str({ minLength: 1 }) }, {
        required: ["type", "path"],
      }),
      closedObject({ type: tag("key"), key: str({ minLength: 1 }) }, {
        required: ["type", "key"],
      }),
    ],
  };
}

/**
 * The closed branch of one content type.
 *
 * @example
 * ```ts
 * import { contentBranchSchema } from "./_content_schema.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(contentBranchSchema("sticker").required, ["type", "file_key"]);
 * ```
 */
export function contentBranchSchema(type: ContentType): JsonSchema {
  const [fields, required] = BRANCH_FIELDS[type]();
  return closedObject({ type: tag(type), ...fields }, { required: ["type", ...required] });
}

/**
 * The full outbound content union (`send`, `reply`), or the editable subset
 * (`edit`) when `editable` is set.
 *
 * @example
 * ```ts
 * import { contentSchema } from "./_content_schema.ts";
 * import assert from "node:assert/strict";
 * assert.equal((contentSchema().oneOf as unknown[]).length, 11);
 * assert.equal((contentSchema({ editable: true }).oneOf as unknown[]).length, 4);
 * ```
 */
export function contentSchema(
  options: { editable?: boolean; description?: string } = {},
): JsonSchema {
  const types = options.editable ? EDITABLE_CONTENT_TYPES : CONTENT_TYPES;
  const out: JsonSchema = { oneOf: types.map(contentBranchSchema) };
  if (options.description !== undefined) out.description = options.description;
  return out;
}

/** A discriminator: `enum` with one value (the small validator knows no `const` on strings). */
function tag(value: string): JsonSchema {
  return str({ enum: [value] });
}

type BranchFields = () => [Record<string, JsonSchema>, string[]];

const BRANCH_FIELDS: Record<ContentType, BranchFields> = {
  text: () => [{ text: str({ minLength: 1 }) }, ["text"]],
  markdown: () => [{ markdown: str({ minLength: 1 }) }, ["markdown"]],
  post: () => [{ post: { type: "object", minProperties: 1 } }, ["post"]],
  card: () => [{
    card: {
      type: "object",
      properties: { schema: str({ enum: ["2.0"] }) },
      required: ["schema"],
      minProperties: 2,
    },
  }, ["card"]],
  image: () => [{ source: mediaSourceSchema(), caption: str() }, ["source"]],
  file: () => [{ source: mediaSourceSchema(), file_name: str({ minLength: 1 }) }, ["source"]],
  audio: () => [{ source: mediaSourceSchema() }, ["source"]],
  video: () => [{ source: mediaSourceSchema(), caption: str() }, ["source"]],
  share_chat: () => [{ chat_id: str({ minLength: 1 }) }, ["chat_id"]],
  share_user: () => [{ user_id: str({ minLength: 1 }) }, ["user_id"]],
  sticker: () => [{ file_key: str({ minLength: 1 }) }, ["file_key"]],
};
