/**
 * The records the store keeps, as one tagged union owned here: an incoming
 * message, a sent message, a passive event of the `events` conversation, and
 * a card action. `kind` says which; `record` is the full object `read`
 * returns. Producers (inbound normalisation, outbound results) build these
 * shapes; readers (actions, notifications) take them from the store without
 * casts.
 * @module
 */

import type { EVENTS_CHAT_ID } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

/** A JSON object. */
type JsonObject = Record<string, unknown>;

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
  | {
    kind: "merge_forward";
    /** Always false once stored (the expansion runs before the record is written). */
    loading: boolean;
    /** The forwarded messages in order; empty until expanded, or when expansion failed. */
    items: ForwardedMessage[];
    /** True when a depth, count or size bound left messages out. */
    truncated: boolean;
    /** Why the forwarded messages could not be fetched (bounded); null otherwise. */
    error: string | null;
  }
  | { kind: "unknown"; message_type: string }
  /** What is left of a recalled message whose content was removed. */
  | { kind: "recalled"; message_type: string };

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

/** One message of a forwarded chat history, normalised like an inbound message. */
export interface ForwardedMessage {
  message_id: string;
  message_type: string;
  /** The original sender: an open_id for users, an app id for bots; "" when Feishu gave none. */
  from_id: string;
  from_name: string | null;
  sender_type: string | null;
  /** When it was first sent (ISO, seconds). */
  date: string;
  /** Its flat text, mentions resolved (bounded). */
  text: string;
  /** Its normalised content; a nested forward carries its own `items`. */
  content: MessageContent;
}

/**
 * What a reply answers: the parent's sender and a one-line preview, taken from
 * the store, or fetched once from Feishu when the store does not have it.
 * A parent Feishu would not give is `unreadable` with the reason; nothing is guessed.
 */
export interface ReplyParent {
  /** The parent's compound id (the record's `reply_to`). */
  id: string;
  /** `store` (a record we have), `feishu` (fetched), or `unreadable`. */
  source: "store" | "feishu" | "unreadable";
  message_type?: string;
  /** open_id of a user, app id of a bot. */
  from_id?: string;
  from_name?: string | null;
  sender_type?: string | null;
  date?: string;
  /** One line, at most 200 code points. */
  text?: string;
  /** Why the parent could not be read (bounded). */
  error?: string;
  /**
   * The parent is one of the bridge's own cards: the chat's resident Task
   * Card, or a local command's control card. Neither can be acted on.
   */
  task_card?: true;
  local_command?: true;
}

/** The inbound message record as this project stores it. */
export interface IncomingMessageRecord {
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
  /** Set when the bot loop guard recorded this message without waking the agent. */
  wake_held?: boolean;
  text: string;
  /** Feishu's create time, whole seconds (ISO). */
  date: string;
  /** Feishu's create time in ms: with the arrival sequence, the chat's order. */
  create_time_ms?: number;
  parent_id: string;
  root_id: string;
  reply_to: string | null;
  /** The replied-to message's sender and preview, for replies. */
  reply_to_message?: ReplyParent;
  mentions: Mention[];
  content: MessageContent;
  attachments: Attachment[];
  media: AttachmentSummary | null;
  voice_transcript: VoiceTranscript | null;
  /** True when the message came from history backfill, not a live event. */
  backfilled?: boolean;
  /** Seconds between Feishu's create time and processing, for late messages. */
  delayed_seconds?: number;
  /** Why the message could not be read (bounded); `text` is then a placeholder. */
  error?: string;
  /** Set once its sender (or a group's owner or manager) recalled it. */
  recalled?: RecallMark;
  feishu: RawEnvelope | Record<string, never>;
}

/** Who recalled a message, and when. */
export interface RecallMark {
  /** When (ISO, seconds), from Feishu's `recall_time`. */
  at: string;
  /**
   * Who: Feishu names no person, only the role (`message_owner`,
   * `group_owner`, `group_manager`, `enterprise_manager`).
   */
  by: string;
  /** True when the text, content and attachments were removed (`privacy.keep_recalled` off). */
  removed: boolean;
}

/** Kinds of downloadable resources. */
export type AttachmentType = "image" | "file" | "audio" | "video" | "sticker";

/** One thing to download, in record order. */
export interface AttachmentDescriptor {
  type: AttachmentType;
  file_key: string;
  file_name?: string;
  duration_ms?: number;
  cover_image_key?: string;
  /** `cover` for the poster image of a video. */
  role?: "cover";
  /** The video a cover belongs to. */
  parent_file_key?: string;
}

/** A descriptor after its download. */
export type Attachment =
  & AttachmentDescriptor
  & (
    | { status: "downloaded"; filename: string; path: string; size: number }
    | { status: "failed"; error: string }
  )
  & {
    /** Set by the transcription stage on audio attachments. */
    transcription_status?: "completed" | "failed" | "skipped";
    transcription_error?: string;
  };

/** The legacy one-attachment summary of a record (`media`). */
export interface AttachmentSummary {
  type: AttachmentType;
  filename?: string;
  path?: string;
  size?: number;
  file_key?: string;
  download_error?: string;
}

/** One timed piece of a transcript (seconds, rounded to 0.01). */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

/** The stored transcript of a voice message (the record's `voice_transcript`). */
export interface VoiceTranscript {
  text: string;
  /** Detected language code, or null when the transcriber did not say. */
  language: string | null;
  /** Audio length in seconds (rounded to 0.01), or null when unknown. */
  duration: number | null;
  segments: TranscriptSegment[];
}

export type PassiveEventType =
  | "reaction"
  | "message_read"
  | "bot_added"
  | "bot_leave"
  | "p2p_entered"
  | "chat_disbanded"
  | "message_recalled";

/** A passive event record of the `events` conversation. */
export interface PassiveEventRecord {
  id: string;
  feishu_event_id: string;
  chat_id: typeof EVENTS_CHAT_ID;
  chat_type: "synthetic";
  thread_id: null;
  message_type: "event";
  event_type: PassiveEventType;
  from_open_id: string;
  from_name: string | null;
  text: string;
  date: string;
  synthetic: true;
  source_chat_id: string | null;
  event: JsonObject;
  feishu: RawEnvelope;
}

/** What a sent record stores about media instead of the path or key. */
export interface SentMediaSummary {
  type: "image" | "file" | "audio" | "video" | "sticker";
  filename?: string;
  size?: number;
}

/** The record of one logical message the agent sent (every chunk's id in `message_ids`). */
export interface SentMessageRecord {
  id: string;
  feishu_message_id: string;
  feishu_message_ids: string[];
  message_ids: string[];
  chunks: { index: number; message_id: string }[];
  to: { receive_id: string; receive_id_type: string };
  chat_id: string;
  message_type: string;
  /** The normalised content exactly as given (`type` plus its fields). */
  content: JsonObject & { type: string };
  text: string;
  sent_at: string;
  date: string;
  /** Feishu's create time of the first chunk in ms (the chat's order); absent on old records. */
  create_time_ms?: number;
  status: string;
  placeholder?: boolean;
  partial_delivery?: boolean;
  chunk_count?: number;
  delivered_chunk_count?: number;
  failed_chunk_index?: number;
  /** The chunk whose fate is unknown (no answer came back), instead of a failed one. */
  unknown_chunk_index?: number;
  error?: string;
  error_code?: string;
  retryable?: boolean;
  retry_after_seconds?: number | null;
  automatic_retry_allowed?: false;
  media?: SentMediaSummary;
  root_id?: string;
  parent_id?: string;
  thread_id?: string;
  reply_to?: string;
  reply_in_thread?: boolean;
  /** A resident Task Card: hidden from every action. */
  task_card?: boolean;
  /** A local command's answer: hidden from every action. */
  local_command?: boolean;
  /** Added by edits and deletes. */
  [lifecycle: string]: unknown;
}

/** A click on an interactive card, recorded in the conversation of the card. */
export interface CardActionRecord {
  id: string;
  feishu_event_id: string;
  chat_id: string;
  /** The topic of the card, when it is in one. */
  thread_id: string | null;
  message_type: "card_action";
  from_open_id: string;
  from_name: string | null;
  text: string;
  date: string;
  synthetic: true;
  /** The clicked card's Feishu message id, and its compound id. */
  source_message_id: string | null;
  source_message_ref: string | null;
  card_action: JsonObject;
  [key: string]: unknown;
}

/** What a row holds, tagged by `kind`. */
export type BridgeRecord =
  | { kind: "message"; record: IncomingMessageRecord }
  | { kind: "sent"; record: SentMessageRecord }
  | { kind: "event"; record: PassiveEventRecord }
  | { kind: "card_action"; record: CardActionRecord };

/** What kind of record a row holds. */
export type RecordKind = BridgeRecord["kind"];
