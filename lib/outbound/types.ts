/**
 * Shapes of outbound content after normalisation (spec §3.1) and of the wire
 * bodies it materialises into (spec §3.3).
 * @module
 */

/** Where a media file comes from: a local file to upload, or a provider key to reuse. */
export type MediaSource = { type: "path"; path: string } | { type: "key"; key: string };

/** The `type` values of the OutboundContent union (spec §1.8.5). */
export type ContentType =
  | "text"
  | "markdown"
  | "post"
  | "card"
  | "image"
  | "file"
  | "audio"
  | "video"
  | "share_chat"
  | "share_user"
  | "sticker";

/** Content types that `edit` accepts (spec §1.8.5 EditableContent). */
export const EDITABLE_TYPES: readonly ContentType[] = ["text", "markdown", "post", "card"];

/** Media content types that may need an upload. */
export type MediaType = "image" | "file" | "audio" | "video";

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** The record's `content`: the normalised value exactly as given (spec §5.4). */
export type RecordContent = JsonObject & { type: ContentType };

/** What the sent record stores about media instead of the path or key (spec §3.1). */
export interface MediaSummary {
  type: MediaType | "sticker";
  filename?: string;
  size?: number;
}

/** A local file to upload before sending (spec §3.3, ARCHITECTURE decision 9). */
export interface MediaUpload {
  /** The resolved real path that was checked against `media_roots`. */
  path: string;
  /** The uploaded name: `file_name` when given, else the path's basename. */
  fileName: string;
  /** `image` goes to the image endpoint; the others are `file_type` values of the file endpoint. */
  fileType: "image" | "stream" | "opus" | "mp4";
}

/** The media part of a normalised message: its source and, for paths, the upload to make. */
export interface MediaPlan {
  type: MediaType;
  source: MediaSource;
  /** Present for path sources only. Key sources are used verbatim. */
  upload?: MediaUpload;
  /** A non-blank caption (image and video), sent as a post with the media. */
  caption?: string;
}

/** One outbound message after validation, before any I/O. */
export interface NormalisedContent {
  type: ContentType;
  /** Stored as the sent record's `content`. */
  recordContent: RecordContent;
  /** Stored as the sent record's `text` (spec §3.1 preview). */
  previewText: string;
  /** Stored as the sent record's `message_type`. */
  messageType: string;
  media?: MediaPlan;
  /** Stored as the sent record's `media` (image, file, audio, video, sticker). */
  mediaSummary?: MediaSummary;
}

/** One message as Feishu receives it: `content` is a JSON string. */
export interface WireBody {
  msg_type: string;
  content: string;
}
