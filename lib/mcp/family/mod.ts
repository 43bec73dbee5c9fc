/**
 * The strict `feishu` tool family: the one tool the MCP server lists, its
 * published JSON Schema, the zod schemas and types of every action input, and
 * the validation boundary every `tools/call` passes before any action runs.
 *
 * Sits between the MCP server (`lib/mcp/`) and the actions: the server lists
 * {@link feishuTool}, hands the raw arguments to {@link validateToolCall}, and
 * dispatches the returned call (action + input only) or returns the failure.
 * Pure: no SDK imports, no I/O.
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
export { feishuTool, type ToolProjection } from "./tool.ts";
export { type ContentType, EDITABLE_CONTENT_TYPES } from "./_content_schema.ts";
