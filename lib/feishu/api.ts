/**
 * Our narrow view of Feishu: the calls the bridge makes, in plain data. The
 * node-sdk stays behind this interface (`lib/feishu/` is the only
 * importer of `@larksuiteoapi/node-sdk`). Every method throws a classified
 * `BridgeError` on failure and makes exactly one attempt, or two when Feishu
 * refused the first for its token (`token_guard.ts`).
 * @module
 */

import type { AuthStatus } from "./token_guard.ts";

/** A message as Feishu returns it from create/reply/get/list. */
export interface FeishuMessage {
  messageId: string;
  chatId: string;
  threadId: string | null;
  rootId: string | null;
  parentId: string | null;
  /** The merge-forward message this one was forwarded in (set on forwarded messages only). */
  upperMessageId: string | null;
  msgType: string;
  /** ms since epoch, or null. */
  createTime: number | null;
  /** Content JSON string. */
  content: string | null;
  deleted: boolean;
  /** Sender: `{id, id_type, sender_type}`; kept raw. */
  sender: Record<string, unknown> | null;
  /** The raw item, for backfill normalisation. */
  raw: Record<string, unknown>;
}

/** A reaction as Feishu lists it. */
export interface FeishuReaction {
  reactionId: string;
  emojiType: string;
  /** `app` for a bot's reaction (then `operatorId` is its app id), else `user`. */
  operatorType: string;
  operatorId: string;
}

/** Receive id kinds accepted by `createMessage`. */
export type ReceiveIdType = "open_id" | "user_id" | "union_id" | "email" | "chat_id";

/** Options for one call. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** The Feishu calls of one account. */
export interface FeishuApi {
  readonly alias: string;
  readonly appId: string;
  createMessage(req: {
    receiveId: string;
    receiveIdType: ReceiveIdType;
    msgType: string;
    content: string;
    uuid?: string;
  }): Promise<FeishuMessage>;
  replyMessage(req: {
    messageId: string;
    msgType: string;
    content: string;
    replyInThread: boolean;
    uuid?: string;
  }): Promise<FeishuMessage>;
  /** PUT: edit a text or post message. */
  updateMessage(req: { messageId: string; msgType: string; content: string }): Promise<void>;
  /** PATCH: replace a card's content. */
  patchMessage(req: { messageId: string; content: string }): Promise<void>;
  deleteMessage(messageId: string): Promise<void>;
  /**
   * `GET im/v1/messages/:id`: the message, and for a merge-forward its
   * forwarded messages after it (each naming its container in
   * `upperMessageId`). Empty when Feishu lists nothing.
   */
  getMessage(messageId: string): Promise<FeishuMessage[]>;
  /** Adds a reaction; returns its `reaction_id`. */
  addReaction(messageId: string, emojiType: string): Promise<string>;
  removeReaction(messageId: string, reactionId: string): Promise<void>;
  /** The reactions of one emoji type on a message (first page, up to 50). */
  listReactions(messageId: string, emojiType: string): Promise<FeishuReaction[]>;
  uploadImage(bytes: Uint8Array): Promise<string>;
  uploadFile(req: {
    bytes: Uint8Array;
    fileType: "opus" | "mp4" | "pdf" | "doc" | "xls" | "ppt" | "stream";
    fileName: string;
    durationMs?: number;
  }): Promise<string>;
  /** Downloads a message resource; aborting `signal` cancels the request. */
  downloadResource(
    messageId: string,
    fileKey: string,
    type: "image" | "file",
    options?: CallOptions,
  ): Promise<{ bytes: Uint8Array; fileName: string | null; contentType: string | null }>;
  /**
   * Streams a message resource into the file `path`, never holding more than
   * one chunk; a resource over `maxBytes` is stopped, its partial file removed,
   * and `DOWNLOAD_FAILED` names the cap. Aborting `signal` cancels the request.
   */
  downloadResourceTo(
    messageId: string,
    fileKey: string,
    type: "image" | "file",
    options: CallOptions & { path: string; maxBytes: number },
  ): Promise<{ size: number; fileName: string | null; contentType: string | null }>;
  /** One page of a chat's (or thread's) history. Times in ms. */
  listMessages(req: {
    containerIdType: "chat" | "thread";
    containerId: string;
    startTimeMs?: number;
    endTimeMs?: number;
    pageToken?: string;
    pageSize?: number;
    order?: "asc" | "desc";
  }): Promise<{ items: FeishuMessage[]; hasMore: boolean; pageToken: string | null }>;
  /** `bot/v3/info`. */
  botInfo(): Promise<{ openId: string; name: string | null }>;
  /** `application/v6/applications/:app_id` (identity fallback). */
  appInfo(): Promise<{ name: string | null; openId: string | null }>;
  /** A user's display name, or null without contact permission. */
  userName(openId: string): Promise<string | null>;
  /**
   * One page of the group chats the bot is in (`GET im/v1/chats`; a bot
   * token lists no p2p chat), newest activity first with `order: "active"`,
   * else in creation order. Page size at most 100 (default 100).
   */
  listChats(req: {
    order?: "active" | "created";
    pageToken?: string;
    pageSize?: number;
  }): Promise<
    { items: { chatId: string; name: string | null }[]; hasMore: boolean; pageToken: string | null }
  >;
  /** Chat info, or null. */
  chatInfo(chatId: string): Promise<{ name: string | null; chatMode: string | null } | null>;
  /** The token state (refused tokens, refetches); absent on test doubles. */
  auth?(): AuthStatus;
}
