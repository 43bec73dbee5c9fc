/**
 * State changes shared by the HTTP routes and the scripting helpers: storing
 * a message (with root/parent/thread rules), recalling it, reactions and
 * uploads. Each change is announced on the change feed.
 * @module
 */

import type { Core } from "./core.ts";
import { ID_PREFIX } from "./ids.ts";
import { makeChat } from "./fixtures.ts";
import type { App, Chat, Mention, Reaction, Sender, StoredMessage, Upload, User } from "./world.ts";

/** What a new message needs. */
export interface NewMessage {
  chat: Chat;
  sender: Sender;
  msgType: string;
  content: string;
  resources?: string[];
  mentions?: Mention[];
  /** The message this one replies to. */
  replyTo?: StoredMessage;
  /** Reply inside a thread (created on the root when it has none). */
  inThread?: boolean;
  uuid?: string;
  /** The message_id to store it under instead of the next counter id. */
  messageId?: string;
}

/** The thread of a root message, created (and set on the root) when missing. */
function threadOf(core: Core, root: StoredMessage): string {
  if (root.threadId) return root.threadId;
  root.threadId = core.ids.next(ID_PREFIX.thread);
  core.feed.emit({ kind: "message.updated", chat_id: root.chatId, message_id: root.messageId });
  return root.threadId;
}

/**
 * Stores a message. Replies get `root_id`/`parent_id`; a reply stays in its
 * target's thread; in a topic chat every message belongs to a thread (a new
 * post opens one); elsewhere `inThread` opens a thread on the root.
 */
export function storeMessage(core: Core, input: NewMessage): StoredMessage {
  const now = core.clock.now();
  const { chat, replyTo } = input;
  let rootId: string | undefined;
  let threadId: string | undefined;
  if (replyTo) {
    rootId = replyTo.rootId ?? replyTo.messageId;
    const root = core.world.messages.get(rootId) ?? replyTo;
    if (replyTo.threadId || root.threadId || input.inThread || chat.mode === "topic") {
      threadId = replyTo.threadId ?? threadOf(core, root);
    }
  } else if (chat.mode === "topic") {
    threadId = core.ids.next(ID_PREFIX.thread);
  }
  const message = core.world.addMessage({
    messageId: input.messageId ?? core.ids.next(ID_PREFIX.message),
    chatId: chat.chatId,
    sender: input.sender,
    msgType: input.msgType,
    content: input.content,
    rootId,
    parentId: replyTo?.messageId,
    threadId,
    createTime: now,
    updateTime: now,
    deleted: false,
    updated: false,
    editCount: 0,
    uuid: input.uuid,
    resources: input.resources ?? [],
    mentions: input.mentions ?? [],
  });
  core.feed.emit({ kind: "message.created", chat_id: chat.chatId, message_id: message.messageId });
  return message;
}

/** Replaces a message's content (an edit, a card patch or a card callback). */
export function updateContent(
  core: Core,
  message: StoredMessage,
  change: { content: string; countEdit: boolean; mentions?: Mention[]; resources?: string[] },
): void {
  message.content = change.content;
  if (change.mentions) message.mentions = change.mentions;
  if (change.resources) message.resources = change.resources;
  message.updated = true;
  message.updateTime = core.clock.now();
  if (change.countEdit) message.editCount++;
  core.feed.emit({
    kind: "message.updated",
    chat_id: message.chatId,
    message_id: message.messageId,
  });
}

/** Marks a message deleted (recalled). */
export function recallMessage(core: Core, message: StoredMessage): void {
  message.deleted = true;
  message.updateTime = core.clock.now();
  core.feed.emit({
    kind: "message.deleted",
    chat_id: message.chatId,
    message_id: message.messageId,
  });
}

/**
 * Adds a reaction, or returns the operator's existing one with that emoji
 * (with `duplicate`, always adds a new one).
 */
export function addReaction(
  core: Core,
  input: Omit<Reaction, "reactionId" | "actionTime">,
  options: { duplicate?: boolean } = {},
): { reaction: Reaction; created: boolean } {
  const existing = options.duplicate ? undefined : core.world.reactionsOf(input.messageId).find(
    (r) => r.emojiType === input.emojiType && r.operatorId === input.operatorId,
  );
  if (existing) return { reaction: existing, created: false };
  const reaction: Reaction = {
    ...input,
    reactionId: core.ids.next(ID_PREFIX.reaction),
    actionTime: core.clock.now(),
  };
  core.world.reactions.set(reaction.reactionId, reaction);
  const chatId = core.world.messages.get(input.messageId)?.chatId;
  core.feed.emit({ kind: "reaction.added", chat_id: chatId, message_id: input.messageId });
  return { reaction, created: true };
}

/** Removes a reaction. */
export function removeReaction(core: Core, reaction: Reaction): void {
  core.world.reactions.delete(reaction.reactionId);
  const chatId = core.world.messages.get(reaction.messageId)?.chatId;
  core.feed.emit({ kind: "reaction.removed", chat_id: chatId, message_id: reaction.messageId });
}

/** Stores an upload or inbound resource under a fresh key. */
export function storeUpload(core: Core, upload: Omit<Upload, "key">): Upload {
  const key = core.ids.next(upload.kind === "image" ? ID_PREFIX.image : ID_PREFIX.file);
  const stored: Upload = { ...upload, key };
  core.world.uploads.set(key, stored);
  core.feed.emit({ kind: "upload.created" });
  return stored;
}

/** Puts the bot of `appId` in or out of a chat. */
export function setBotMember(core: Core, chat: Chat, appId: string, member: boolean): void {
  if (member) chat.bots.add(appId);
  else chat.bots.delete(appId);
  core.feed.emit({ kind: "chat.updated", chat_id: chat.chatId });
}

/** Dissolves a chat: its bots leave with it and every later chat operation fails (230045). */
export function dissolveChat(core: Core, chat: Chat): void {
  chat.dissolvedAt = core.clock.now();
  chat.bots.clear();
  core.feed.emit({ kind: "chat.updated", chat_id: chat.chatId });
}

/** The p2p chat of a user and an app's bot, created (and announced) when missing. */
export function ensureP2pChat(core: Core, app: App, user: User): Chat {
  const existing = core.world.p2pChat(app.appId, user.openId);
  if (existing) return existing;
  const chat = makeChat({
    chatId: core.ids.next(ID_PREFIX.chat),
    name: "",
    mode: "p2p",
    members: [user.openId],
    bots: [app.appId],
  });
  core.world.addChat(chat);
  core.feed.emit({ kind: "chat.updated", chat_id: chat.chatId });
  return chat;
}
