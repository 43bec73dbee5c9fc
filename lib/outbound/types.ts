/**
 * Shapes of outbound content after normalisation and of the wire bodies it
 * materialises into. The content itself is typed by the tool's zod schemas
 * (`lib/mcp/family`); nothing here redeclares it.
 * @module
 */

import {
  type ContentType,
  EDITABLE_CONTENT_TYPES,
  type MediaContent,
  type MediaSource,
} from "../mcp/family/mod.ts";

export type { ContentType, MediaSource };

/** Content types that `edit` accepts (the tool's editable content). */
export const EDITABLE_TYPES: readonly ContentType[] = EDITABLE_CONTENT_TYPES;

/** Media content types that may need an upload. */
export type MediaType = MediaContent["type"];

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** The record's `content`: the normalised value exactly as given. */
export type RecordContent = JsonObject & { type: ContentType };

/** What the sent record stores about media instead of the path or key. */
export interface MediaSummary {
  type: MediaType | "sticker";
  filename?: string;
  size?: number;
}

/** A local file to upload before sending (a `key` source is never uploaded). */
export interface MediaUpload {
  /** The resolved real path that was checked against `media_roots`. */
  path: string;
  /**
   * The file's bytes, read from the one handle the checks were made on (the
   * upload never opens the path again, so a file swapped afterwards cannot
   * take its place).
   */
  bytes: Uint8Array;
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
  /** Stored as the sent record's `text`: a short preview of the content. */
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
