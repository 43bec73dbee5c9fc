/**
 * Notifications, the last inbound stage: after a record is written the agent
 * is woken. Flow: {@link buildPreview} (conversation body + structured
 * window, bounded by {@link fitItems}) → {@link buildMessageEvent} and
 * {@link writeLiccEvent} for LingTai, and/or {@link buildChannelNotification}
 * for Claude Code channels (sent by `lib/mcp/`). Passive events never notify.
 * @module
 */

export * from "./relative_time.ts";
export * from "./items.ts";
export * from "./fit.ts";
export * from "./preview.ts";
export * from "./licc.ts";
export * from "./channel.ts";
export * from "./notifier.ts";
