/**
 * Shapes of normalisation: the `content` union, a converter's output, and
 * the inbound record.
 * @module
 */

import type { VoiceTranscript } from "../transcribe/mod.ts";
import type { JsonObject } from "./_json.ts";
import type { Attachment, MediaSummary, ResourceRef } from "../attachments/mod.ts";
import type { RawEnvelope } from "./envelope.ts";

/** The normalised content of a message: `kind` plus its family's fields (never `raw`). */
export type MessageContent =
  | { kind: "text"; text: string }
  | { kind: "post"; title: string; text: string; post: JsonObject | null }
  | { kind: "image"; image_key?: string }
  | { kind: "file"; file_key?: string; file_name?: string }
  | { kind: "audio"; file_key?: string; duration_ms?: number }
  | {
    kind: "media";
    file_key?: string;
    image_key?: string;
    duration_ms?: number;
    file_name?: string;
  }
  | { kind: "sticker"; file_key?: string }
  | { kind: "interactive"; card: JsonObject | null; card_version: "v1" | "v2" | "unknown" }
  | { kind: "share_chat"; chat_id?: string }
  | { kind: "share_user"; user_id?: string }
  | { kind: "todo"; title?: string; body?: string; due_time?: string }
  | { kind: "location"; name?: string; longitude?: string; latitude?: string }
  | { kind: "system"; template?: string; from_user: string[]; to_chatters: string[] }
  | { kind: "folder"; file_key?: string; file_name?: string; file_size?: number }
  | { kind: "hongbao"; text?: string; amount?: string }
  | {
    kind: "calendar" | "general_calendar" | "share_calendar_event";
    summary?: string;
    start_time?: string;
    end_time?: string;
    organizer?: string;
  }
  | { kind: "video_chat"; topic?: string; start_time?: string; meet_number?: string }
  | { kind: "vote"; topic?: string; options: string[] }
  | { kind: "merge_forward"; loading: boolean; items: unknown[]; truncated: boolean; error: null }
  | { kind: "unknown"; message_type: string };

/** One resolved mention; members without a value are absent. */
export interface Mention {
  key: string;
  open_id?: string;
  user_id?: string;
  union_id?: string;
  name?: string;
  is_bot: boolean;
  tenant_key?: string;
}

/**
 * What a converter returns. `text` is the flat rendering and may still hold
 * mention placeholders (`@_user_1`, `@_at_…`), which the normaliser resolves.
 */
export interface Conversion {
  content: MessageContent;
  text: string;
  resources: ResourceRef[];
}

/** What a converter may ask of its caller. */
export interface ConvertContext {
  /**
   * Registers an inline `<at>` of a post or md element and returns the
   * placeholder to put in the text: the key of a known mention for that id,
   * `@_all` for everyone, else a new `@_at_<id>` key.
   */
  mention(id: string, name?: string): string;
}

/** Converts the parsed content JSON (undefined when it was not JSON). */
export type Converter = (content: unknown, ctx: ConvertContext) => Conversion;

/** The inbound message record as this project stores it. */
export interface InboundRecord {
  id: string;
  feishu_message_id: string;
  chat_id: string;
  chat_type: "p2p" | "group" | "topic" | "unknown";
  thread_id: string | null;
  message_type: string;
  from_open_id: string;
  from_user_id: string | null;
  from_union_id: string | null;
  from_name: string | null;
  sender_type: string | null;
  sender_is_bot: boolean;
  text: string;
  date: string;
  parent_id: string;
  root_id: string;
  reply_to: string | null;
  mentions: Mention[];
  content: MessageContent;
  attachments: Attachment[];
  media: MediaSummary | null;
  voice_transcript: VoiceTranscript | null;
  /** True when the message came from history backfill, not a live event. */
  backfilled?: boolean;
  /** Seconds between Feishu's create time and processing, for late messages. */
  delayed_seconds?: number;
  feishu: RawEnvelope | Record<string, never>;
}

/** A successful transcript (filled by the transcription stage). */
export type { VoiceTranscript };
