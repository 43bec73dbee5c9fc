/**
 * Records for the notification tests. Test-only.
 * @module
 */

import type { PreviewEntry, PreviewRecord } from "../items.ts";
import type { IncomingMessageRecord } from "../../store/mod.ts";
import { incomingRecord } from "../../store/testdata/records.ts";

/** The test chat. */
export const CHAT = "oc_chat";
/** 2026-08-03T09:15:00Z. */
export const NOW = Date.parse("2026-08-03T09:15:00Z");

/** An inbound record of the test chat with sensible defaults. */
export function inbound(
  messageId: string,
  extra: Partial<IncomingMessageRecord> = {},
): IncomingMessageRecord {
  return incomingRecord(messageId, { chat_id: CHAT, ...extra });
}

/** An incoming preview entry. */
export function incoming(record: IncomingMessageRecord): PreviewEntry {
  return { direction: "incoming", record };
}

/** An outgoing preview entry for a sent record. */
export function outgoing(messageId: string, extra: Partial<PreviewRecord> = {}): PreviewEntry {
  return {
    direction: "outgoing",
    record: {
      id: `main:${CHAT}:${messageId}`,
      message_ids: [`main:${CHAT}:${messageId}`],
      message_type: "post",
      text: `sent ${messageId}`,
      sent_at: "2026-08-03T09:14:00Z",
      date: "2026-08-03T09:14:00Z",
      ...extra,
    },
  };
}

/** Minute `m` after 09:00 on the test day, as a record date. */
export function at(m: number): string {
  return new Date(Date.parse("2026-08-03T09:00:00Z") + m * 60_000).toISOString().replace(
    ".000Z",
    "Z",
  );
}
