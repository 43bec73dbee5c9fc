/**
 * The strict `feishu` tool family: the one tool the MCP server lists, its
 * published JSON Schema, the zod schemas and types of every action input, and
 * the validation boundary every `tools/call` passes before any action runs.
 *
 * Sits between the MCP server (`lib/mcp/`) and the actions: the server lists
 * {@link feishuTool}, hands the raw arguments to {@link validateToolCall}, and
 * dispatches the returned call (action + input only) or returns the failure.
 * Pure: no SDK imports, no I/O.
 *
 * The input schema is published in one of two projections
 * ({@link ToolProjection}) of the same family: `ltp`, the exact schema
 * LingTai's host adapters consume (a root `allOf` of `if/then` per action,
 * `input.anyOf` over 13 titled branches, `oneOf` and `not` for the exclusive
 * keys), and `portable`, derived from it for every other client: one closed
 * root and one flat closed `input` whose fields say which actions take them,
 * with no combinator but nullable `anyOf`, under 8 KB. Validation does not
 * depend on the projection: the same strict zod decides every call, and a
 * failure names the offending path, what was expected, every problem found
 * (`details`) and the keys accepted there (`accepted_keys`).
 * @module
 */

export type {
  AddContactInput,
  CardBody,
  CheckInput,
  ContactsInput,
  DeleteInput,
  EditableContent,
  EditInput,
  MediaContent,
  MediaSource,
  OutboundContent,
  ReactInput,
  ReadInput,
  RemoveContactInput,
  ReplyInput,
  SearchInput,
  SendInput,
  ValidatedCall,
} from "./inputs.ts";
export { validateToolCall } from "./validate.ts";
export { feishuTool } from "./tool.ts";
export { type ContentType, EDITABLE_CONTENT_TYPES } from "./_content_schema.ts";
