/**
 * Notifications, the last inbound stage: after a record is written the agent
 * is woken. Flow: {@link buildPreview} (conversation body + structured
 * window, bounded by {@link fitItems}) → {@link buildMessageEvent} and
 * {@link writeLiccEvent} for LingTai, and/or {@link buildChannelNotification}
 * for Claude Code channels (sent by `lib/mcp/`). Passive events never notify.
 * @module
 */

export { PREVIEW_WINDOW } from "./preview.ts";
export { liccInboxDir } from "./licc.ts";
export {
  createNotifier,
  type Notifier,
  type NotifierCounters,
  type PushTarget,
} from "./notifier.ts";
