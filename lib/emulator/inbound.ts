/**
 * Scripted user messages: build the content Feishu would deliver for each
 * message type (text, post, image, file, audio, video, sticker, share,
 * interactive), with mentions (`@_user_N`, `@_all`), replies and threads,
 * store the message and push `im.message.receive_v1`.
 * @module
 */

import type { Core } from "./core.ts";
import { type EventEnv, pushMessageEvent } from "./events.ts";
import { sniffContentType } from "./http/mod.ts";
import { storeMessage, storeUpload } from "./ops.ts";
import type { App, Chat, Mention, StoredMessage, User } from "./world.ts";
import type { Ack, PushOptions } from "./ws/mod.ts";

/** What a scripted user sends. Give exactly one content field. */
export interface UserMessageInput {
  /** Sender open_id. */
  user: string;
  /** Target chat_id. */
  chat: string;
  text?: string;
  post?: { title?: string; content: unknown[][] };
  image?: { bytes: Uint8Array };
  file?: { bytes: Uint8Array; name: string };
  audio?: { bytes: Uint8Array; duration: number };
  video?: { bytes: Uint8Array; name?: string; duration?: number; cover?: Uint8Array };
  sticker?: { bytes?: Uint8Array };
  shareChat?: string;
  shareUser?: string;
  interactive?: unknown;
  /**
   * A message exactly as given: its msg_type, its content (a string is
   * stored as is, anything else as JSON) and the resource keys it carries
   * (from `uploadResource`). No mention placeholder is added.
   */
  raw?: { msgType: string; content: unknown; resources?: string[] };
  /** Who is mentioned: "bot", "all", or user open_ids. */
  mentions?: string[];
  /** message_id this replies to. */
  replyTo?: string;
  /** Reply inside the target's thread (topic groups always are). */
  inThread?: boolean;
  /** App whose bot receives the event (default: the first app). */
  app?: string;
  /** Fragmenting and duplicate delivery. */
  push?: PushOptions;
  /**
   * The message_id the event carries instead of the next counter id: a
   * provider that sends ids outside Feishu's alphabet (`../x`, `a/b`).
   */
  messageId?: string;
  /**
   * Its create time, ms since the epoch (default: the emulator clock's now):
   * a message Feishu pushes late keeps the time it was sent.
   */
  createTime?: number;
}

/** What a scripted inbound action returns. */
export interface Inbound {
  eventId: string;
  messageId?: string;
  /** Resolves with the client's ACK (the first accepted one). */
  ack: Promise<Ack>;
}

/** A 1×1 transparent PNG, the default video cover. */
const TINY_PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

function fail(msg: string): never {
  throw new Error(msg);
}

/** Looks up the app, user and chat of a scripted action and checks membership. */
export function actors(
  core: Core,
  input: { user: string; chat: string; app?: string },
): { app: App; user: User; chat: Chat } {
  const app = input.app ? core.world.apps.get(input.app) : core.world.primaryApp();
  if (!app) fail(`Expected a known app id but found ${input.app}`);
  const user = core.world.findUser(input.user) ??
    fail(`Expected a known user but found ${input.user}`);
  const chat = core.world.chats.get(input.chat) ??
    fail(`Expected a known chat_id but found ${input.chat}`);
  if (chat.dissolvedAt !== undefined) fail(`Expected a live chat but ${chat.chatId} was dissolved`);
  if (!chat.members.includes(user.openId)) {
    fail(`Expected ${user.name} to be a member of ${chat.chatId} but found they are not`);
  }
  return { app, user, chat };
}

function mentionsOf(core: Core, app: App, ids: string[]): { list: Mention[]; all: boolean } {
  const list: Mention[] = [];
  let all = false;
  for (const id of ids) {
    if (id === "all") {
      all = true;
      continue;
    }
    const key = `@_user_${list.length + 1}`;
    if (id === "bot" || id === app.botOpenId) {
      list.push({
        key,
        openId: app.botOpenId,
        unionId: app.botUnionId,
        userId: "",
        name: app.botName,
      });
      continue;
    }
    const u = core.world.findUser(id) ?? fail(`Expected a known user to mention but found ${id}`);
    list.push({ key, openId: u.openId, unionId: u.unionId, userId: u.userId, name: u.name });
  }
  return { list, all };
}

function withPlaceholders(text: string, mentions: Mention[], all: boolean): string {
  const missing = [...(all ? ["@_all"] : []), ...mentions.map((m) => m.key)]
    .filter((k) => !text.includes(k));
  return missing.length ? `${missing.join(" ")} ${text}` : text;
}

/** A message's type, content and resource keys, ready to store. */
export interface Composed {
  msgType: string;
  /** The content object, or the exact content string of a `raw` message. */
  content: Record<string, unknown> | string;
  resources: string[];
}

function upload(
  core: Core,
  kind: "image" | "file",
  extra: Record<string, unknown> & { bytes: Uint8Array },
) {
  return storeUpload(core, {
    kind,
    bytes: extra.bytes,
    contentType: sniffContentType(extra.bytes, "application/octet-stream"),
    fileType: extra.fileType as string | undefined,
    fileName: extra.fileName as string | undefined,
    duration: extra.duration as number | undefined,
  });
}

/** A resource a user's client uploaded, for `raw` messages to carry; returns its key. */
export function uploadResource(
  core: Core,
  input: { bytes: Uint8Array; kind?: "image" | "file"; fileName?: string },
): string {
  const kind = input.kind ?? "image";
  return upload(core, kind, {
    bytes: input.bytes,
    fileType: kind === "file" ? "stream" : undefined,
    fileName: input.fileName,
  }).key;
}

/** Builds the content Feishu would store for the one content field `input` gives. */
export function compose(
  core: Core,
  input: Omit<UserMessageInput, "user" | "chat">,
  m: { list: Mention[]; all: boolean } = { list: [], all: false },
): Composed {
  if (input.raw) {
    const { msgType, content, resources = [] } = input.raw;
    return {
      msgType,
      content: typeof content === "string" ? content : JSON.stringify(content),
      resources: [...resources],
    };
  }
  if (input.text !== undefined) {
    return {
      msgType: "text",
      content: { text: withPlaceholders(input.text, m.list, m.all) },
      resources: [],
    };
  }
  if (input.post) {
    const lines = input.post.content.map((l) => [...l]);
    const ats = m.list
      .filter((x) => !JSON.stringify(lines).includes(x.key))
      .map((x) => ({ tag: "at", user_id: x.key, user_name: x.name }));
    if (ats.length) lines.unshift(ats);
    const resources = lines.flat()
      .map((el) => (el as { image_key?: unknown }).image_key)
      .filter((k): k is string => typeof k === "string");
    return {
      msgType: "post",
      content: { title: input.post.title ?? "", content: lines },
      resources,
    };
  }
  if (input.image) {
    const img = upload(core, "image", { bytes: input.image.bytes });
    return { msgType: "image", content: { image_key: img.key }, resources: [img.key] };
  }
  if (input.file) {
    const f = upload(core, "file", {
      bytes: input.file.bytes,
      fileType: "stream",
      fileName: input.file.name,
    });
    return {
      msgType: "file",
      content: { file_key: f.key, file_name: input.file.name },
      resources: [f.key],
    };
  }
  if (input.audio) {
    const f = upload(core, "file", {
      bytes: input.audio.bytes,
      fileType: "opus",
      fileName: "audio.opus",
      duration: input.audio.duration,
    });
    return {
      msgType: "audio",
      content: { file_key: f.key, duration: input.audio.duration },
      resources: [f.key],
    };
  }
  if (input.video) {
    const name = input.video.name ?? "video.mp4";
    const duration = input.video.duration ?? 1000;
    const f = upload(core, "file", {
      bytes: input.video.bytes,
      fileType: "mp4",
      fileName: name,
      duration,
    });
    const cover = upload(core, "image", { bytes: input.video.cover ?? TINY_PNG });
    return {
      msgType: "media",
      content: { file_key: f.key, image_key: cover.key, file_name: name, duration },
      resources: [f.key, cover.key],
    };
  }
  if (input.sticker) {
    const f = upload(core, "file", { bytes: input.sticker.bytes ?? TINY_PNG, fileType: "stream" });
    return { msgType: "sticker", content: { file_key: f.key }, resources: [f.key] };
  }
  if (input.shareChat !== undefined) {
    return { msgType: "share_chat", content: { chat_id: input.shareChat }, resources: [] };
  }
  if (input.shareUser !== undefined) {
    return { msgType: "share_user", content: { user_id: input.shareUser }, resources: [] };
  }
  if (input.interactive !== undefined) {
    return {
      msgType: "interactive",
      content: input.interactive as Record<string, unknown>,
      resources: [],
    };
  }
  return fail(
    "Expected one of text, post, image, file, audio, video, sticker, share, interactive or raw but found none",
  );
}

/** What `storeMessage` takes: a user message, its time, and whether the bot may read it. */
export interface StoredUserMessageInput extends UserMessageInput {
  /** The bot may not read it: reading it answers 230027. */
  unreadable?: boolean;
}

/** Stores a user's message without pushing anything (the bot may not be in the chat). */
export function storeUserMessage(core: Core, input: StoredUserMessageInput): StoredMessage {
  const { app, user, chat } = actors(core, input);
  const replyTo = input.replyTo === undefined
    ? undefined
    : core.world.messages.get(input.replyTo) ??
      fail(`Expected a known message to reply to but found ${input.replyTo}`);
  if (replyTo && replyTo.chatId !== chat.chatId) {
    fail(`Expected the reply target to be in ${chat.chatId} but found ${replyTo.chatId}`);
  }
  const m = mentionsOf(core, app, input.mentions ?? []);
  const composed = compose(core, input, m);
  const message = storeMessage(core, {
    chat,
    sender: { type: "user", id: user.openId },
    msgType: composed.msgType,
    content: contentString(composed),
    resources: composed.resources,
    mentions: m.list,
    replyTo,
    inThread: input.inThread,
    messageId: input.messageId,
  });
  if (input.createTime !== undefined) {
    message.createTime = input.createTime;
    message.updateTime = input.createTime;
  }
  if (input.unreadable) message.unreadable = true;
  return message;
}

/** The content string Feishu returns for a composed message. */
export function contentString(composed: Composed): string {
  return typeof composed.content === "string" ? composed.content : JSON.stringify(composed.content);
}

/**
 * A user sends a message: the message is stored and `im.message.receive_v1`
 * is pushed (or queued while no connection is up). Throws when the bot is not
 * in the chat, since Feishu would push nothing.
 */
export function userSends(
  env: EventEnv,
  input: UserMessageInput,
  /** Runs on the stored message before the event goes out (a forward stores its messages). */
  beforePush?: (message: StoredMessage) => void,
): Inbound {
  const { app, chat } = actors(env.core, input);
  if (!chat.bots.has(app.appId)) {
    fail(
      `Expected the bot of ${app.appId} in ${chat.chatId} but found it is not; no event would be pushed`,
    );
  }
  const message = storeUserMessage(env.core, input);
  beforePush?.(message);
  const sender = env.core.world.users.get(message.sender.id) ?? fail("sender vanished");
  const record = pushMessageEvent(env, { app, message, sender, options: input.push });
  return { eventId: record.eventId, messageId: message.messageId, ack: record.ackPromise };
}
