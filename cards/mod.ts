/**
 * Card builders: JSON for the cards the bridge sends itself. Pure data in,
 * card JSON out; the outbound path materialises and sends them.
 * @module
 */

export { finishedProgressCard, progressCard, type ProgressCardOptions } from "./progress.ts";
export { approvalCard, type ApprovalTexts } from "./approval.ts";
export { type ControlButton, controlCard } from "./control.ts";
export { taskCardWrapper } from "./taskcard.ts";
export { cutEscaped, escapeMarkdown } from "./markdown.ts";
export { headerName } from "./name.ts";
export {
  COMMAND_NAMES,
  fill,
  LAYER_KEYS,
  type MessageKey,
  type Messages,
  messagesFor,
} from "./i18n/mod.ts";
