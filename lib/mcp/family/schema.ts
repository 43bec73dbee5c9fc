/**
 * The published JSON Schema of the `feishu` tool: a
 * closed root `{action, input, reasoning, summarize?}`, `input.anyOf` over the
 * thirteen titled action branches, and an `allOf` of one `if/then` per action
 * that ties `input` to the branch `action` names. Draft-07, so any standard
 * validator gives the intended result.
 * @module
 */

import { FEISHU_ACTIONS, type FeishuAction } from "./actions.ts";
import { contentSchema } from "./_content_schema.ts";
import {
  ACTION_DESCRIPTION,
  FIELD_DESCRIPTIONS as D,
  INPUT_DESCRIPTION,
  REASONING_DESCRIPTION,
  SUMMARIZE_DESCRIPTION,
} from "./descriptions.ts";
import { closedObject, exactlyOneKey, type JsonSchema, nullable, str } from "./_json_schema.ts";

export type { JsonSchema } from "./_json_schema.ts";

/** The `receive_id_type` values of `send`. */
export const RECEIVE_ID_TYPES = ["open_id", "user_id", "email", "chat_id", "union_id"] as const;

/** The root keys the tool accepts; anything else is refused. */
export const ROOT_KEYS = ["action", "input", "reasoning", "summarize"] as const;

/** The closed root both projections publish: `{action, input, reasoning, summarize?}`. */
export interface ToolRootSchema extends JsonSchema {
  type: "object";
  properties: {
    action: JsonSchema;
    input: JsonSchema;
    reasoning: JsonSchema;
    summarize: JsonSchema;
  };
  required: ["action", "input", "reasoning"];
  additionalProperties: false;
}

/** The shape of the tool's `ltp` `inputSchema` (the root plus one `if/then` per action). */
export interface FeishuInputSchema extends ToolRootSchema {
  allOf: JsonSchema[];
}

/**
 * The closed input schema of one action, without its title.
 *
 * @example
 * ```ts
 * import { actionInputSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(actionInputSchema("send").required, ["receive_id"]);
 * assert.deepEqual(actionInputSchema("manual"), {
 *   type: "object",
 *   additionalProperties: false,
 *   properties: {},
 * });
 * ```
 */
export function actionInputSchema(action: FeishuAction): JsonSchema {
  return ACTION_SCHEMAS[action]();
}

/**
 * The tool's whole published input schema. Each call builds a fresh object.
 *
 * @example
 * ```ts
 * import { feishuInputSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 * const s = feishuInputSchema();
 * assert.equal(s.allOf.length, 13);
 * assert.deepEqual(s.required, ["action", "input", "reasoning"]);
 * assert.equal((s.properties.input.anyOf as unknown[]).length, 13);
 * ```
 */
export function feishuInputSchema(): FeishuInputSchema {
  return {
    type: "object",
    properties: {
      action: { type: "string", enum: [...FEISHU_ACTIONS], description: ACTION_DESCRIPTION },
      input: {
        type: "object",
        description: INPUT_DESCRIPTION,
        anyOf: FEISHU_ACTIONS.map((a) => ({ ...actionInputSchema(a), title: `${a} input` })),
      },
      reasoning: { type: "string", description: REASONING_DESCRIPTION },
      summarize: { type: "boolean", description: SUMMARIZE_DESCRIPTION },
    },
    required: ["action", "input", "reasoning"],
    additionalProperties: false,
    allOf: FEISHU_ACTIONS.map((a) => ({
      if: { properties: { action: { const: a } }, required: ["action"] },
      then: { properties: { input: actionInputSchema(a) } },
    })),
  };
}

const account = (): JsonSchema => nullable(str(), D.account);
const plain = (): JsonSchema => str();
const nonEmpty = (): JsonSchema => str({ minLength: 1 });
const idempotencyKey = (): JsonSchema => str({ minLength: 1, description: D.idempotencyKey });
const onlyAccount = (): JsonSchema => closedObject({ account: account() });

/**
 * `react`: the pairing (add ⇒ emoji_type only, remove ⇒ reaction_id only) is
 * part of the schema itself, so a standard validator enforces the closed
 * input and the pairing (validation steps 6 and 7) together.
 */
function reactSchema(): JsonSchema {
  const pairing = (operation: string, needs: string, forbids: string): JsonSchema => ({
    properties: { operation: { const: operation } },
    required: [needs],
    not: { required: [forbids] },
  });
  return closedObject({
    message_id: nonEmpty(),
    operation: str({ enum: ["add", "remove"] }),
    emoji_type: nonEmpty(),
    reaction_id: nonEmpty(),
  }, {
    required: ["message_id", "operation"],
    extra: {
      oneOf: [
        pairing("add", "emoji_type", "reaction_id"),
        pairing("remove", "reaction_id", "emoji_type"),
      ],
    },
  });
}

const ACTION_SCHEMAS: Record<FeishuAction, () => JsonSchema> = {
  send: () =>
    closedObject({
      account: account(),
      receive_id: plain(),
      receive_id_type: nullable(str({ enum: RECEIVE_ID_TYPES }), D.receiveIdType),
      text: plain(),
      content: contentSchema({ description: D.content }),
      placeholder: nullable({ type: "boolean" }, D.placeholder),
      idempotency_key: idempotencyKey(),
    }, { required: ["receive_id"], extra: exactlyOneKey("text", "content") }),
  check: onlyAccount,
  read: () =>
    closedObject({
      account: account(),
      chat_id: plain(),
      limit: nullable({ type: "integer", minimum: 0 }, D.readLimit),
    }, { required: ["chat_id"] }),
  reply: () =>
    closedObject({
      message_id: plain(),
      text: plain(),
      content: contentSchema({ description: D.content }),
      reply_in_thread: { type: "boolean", description: D.replyInThread },
      idempotency_key: idempotencyKey(),
    }, { required: ["message_id"], extra: exactlyOneKey("text", "content") }),
  react: reactSchema,
  search: () =>
    closedObject({ query: plain(), account: account(), chat_id: nullable(str()) }, {
      required: ["query"],
    }),
  delete: () =>
    closedObject({ message_id: str({ description: D.deleteMessageId }) }, {
      required: ["message_id"],
    }),
  edit: () =>
    closedObject({
      message_id: str({ description: D.editMessageId }),
      text: plain(),
      content: contentSchema({ editable: true, description: D.editContent }),
    }, { required: ["message_id"], extra: exactlyOneKey("text", "content") }),
  contacts: onlyAccount,
  add_contact: () =>
    closedObject({
      account: account(),
      open_id: plain(),
      alias: plain(),
      name: nullable(str()),
      chat_id: nullable(str()),
    }, { required: ["open_id", "alias"] }),
  remove_contact: () =>
    closedObject({ account: account(), open_id: plain(), alias: plain() }, {
      extra: exactlyOneKey("alias", "open_id"),
    }),
  accounts: () => closedObject({}),
  manual: () => closedObject({}),
};
