/**
 * zod schemas of the outbound content union, each branch
 * closed, accepting exactly what the published JSON Schema accepts.
 * @module
 */

import { z } from "zod";
import { isJsonObject } from "./_json_value.ts";

const nonEmpty = () => z.string().min(1);

/** A local absolute path or an existing provider key (zod). */
export const MediaSourceSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("path"), path: nonEmpty() }),
  z.strictObject({ type: z.literal("key"), key: nonEmpty() }),
]);
/** Where the bytes of a media message come from. */
export type MediaSource = z.output<typeof MediaSourceSchema>;

/** A Feishu post document: any object with at least one key, passed through untouched. */
export type PostBody = Record<string, unknown>;
/** A schema 2.0 card: `schema: "2.0"` plus at least one more key, passed through untouched. */
export type CardBody = { schema: "2.0"; [key: string]: unknown };

/** The `post` field: a non-empty object, kept as the same reference (zod). */
export const PostBodySchema = z.custom<PostBody>(
  (v) => isJsonObject(v) && Object.keys(v).length >= 1,
);
/** The `card` field: a schema 2.0 card, kept as the same reference (zod). */
export const CardBodySchema = z.custom<CardBody>(
  (v) => isJsonObject(v) && v.schema === "2.0" && Object.keys(v).length >= 2,
);

/** `{type:"text", text}` (zod). */
export const TextContentSchema = z.strictObject({ type: z.literal("text"), text: nonEmpty() });
/** `{type:"markdown", markdown}` (zod). */
export const MarkdownContentSchema = z.strictObject({
  type: z.literal("markdown"),
  markdown: nonEmpty(),
});
/** `{type:"post", post}` (zod). */
export const PostContentSchema = z.strictObject({ type: z.literal("post"), post: PostBodySchema });
/** `{type:"card", card}` (zod). */
export const CardContentSchema = z.strictObject({ type: z.literal("card"), card: CardBodySchema });
/** A media branch with an optional caption (image, video). */
const captionedMedia = <T extends "image" | "video">(type: T) =>
  z.strictObject({
    type: z.literal(type),
    source: MediaSourceSchema,
    caption: z.string().optional(),
  });

/** `{type:"image", source, caption?}` (zod). */
export const ImageContentSchema = captionedMedia("image");
/** `{type:"file", source, file_name?}` (zod). */
export const FileContentSchema = z.strictObject({
  type: z.literal("file"),
  source: MediaSourceSchema,
  file_name: nonEmpty().optional(),
});
/** `{type:"audio", source}` (zod). */
export const AudioContentSchema = z.strictObject({
  type: z.literal("audio"),
  source: MediaSourceSchema,
});
/** `{type:"video", source, caption?}` (zod). */
export const VideoContentSchema = captionedMedia("video");
/** `{type:"share_chat", chat_id}` (zod). */
export const ShareChatContentSchema = z.strictObject({
  type: z.literal("share_chat"),
  chat_id: nonEmpty(),
});
/** `{type:"share_user", user_id}` (zod). */
export const ShareUserContentSchema = z.strictObject({
  type: z.literal("share_user"),
  user_id: nonEmpty(),
});
/** `{type:"sticker", file_key}` (zod). */
export const StickerContentSchema = z.strictObject({
  type: z.literal("sticker"),
  file_key: nonEmpty(),
});

const EDITABLE_BRANCHES = [
  TextContentSchema,
  MarkdownContentSchema,
  PostContentSchema,
  CardContentSchema,
] as const;

/** Content `edit` accepts: text, markdown, post or card (zod). */
export const EditableContentSchema = z.discriminatedUnion("type", [...EDITABLE_BRANCHES]);

/** Content `send` and `reply` accept: every branch (zod). */
export const OutboundContentSchema = z.discriminatedUnion("type", [
  ...EDITABLE_BRANCHES,
  ImageContentSchema,
  FileContentSchema,
  AudioContentSchema,
  VideoContentSchema,
  ShareChatContentSchema,
  ShareUserContentSchema,
  StickerContentSchema,
]);

/** Content `edit` accepts. */
export type EditableContent = z.output<typeof EditableContentSchema>;
/** Any outbound content value. */
export type OutboundContent = z.output<typeof OutboundContentSchema>;
/** Media content: the branches whose bytes come from a `source` (image, file, audio, video). */
export type MediaContent = Extract<OutboundContent, { source: unknown }>;
