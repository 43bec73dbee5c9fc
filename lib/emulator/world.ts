/**
 * The emulator's in-memory Feishu: apps, users, chats, messages, reactions,
 * uploads, tokens and card results, with the lookups the HTTP routes and the
 * scripting helpers share. Plain data; no I/O and no clock.
 * @module
 */

/**
 * How the tenant set up card callbacks for an app: over the long connection
 * (the default), or not at all (no callback configured, or no published
 * version with it: every click fails with 200340 and nothing is pushed).
 */
export type CardCallbackMode = "long_connection" | "none";

/**
 * How the tenant stands on the scopes an app asks for. By default every scope
 * of `DEFAULT_SCOPES` is requested and granted; `withhold` lists scopes the
 * app requested but the tenant did not grant (`grant_status` 2, e.g. waiting
 * for an administrator), `omit` scopes the app never requested (not listed).
 */
export interface ScopeSetting {
  withhold?: readonly string[];
  omit?: readonly string[];
}

/** A self-built app and its bot. */
export interface App {
  appId: string;
  appSecret: string;
  botOpenId: string;
  botUnionId: string;
  botName: string;
  tenantKey: string;
  /** Card callback delivery (default "long_connection"). */
  cardCallback?: CardCallbackMode;
  /** Scope grants (default: every scope of `DEFAULT_SCOPES` granted). */
  scopes?: ScopeSetting;
}

/** A tenant user. `available` is false when the user is outside the app's availability. */
export interface User {
  openId: string;
  unionId: string;
  userId: string;
  name: string;
  enName: string;
  email: string;
  available: boolean;
}

/** Chat modes as `im/v1/chats` reports them. */
export type ChatMode = "p2p" | "group" | "topic";

/** A chat with its members. */
export interface Chat {
  chatId: string;
  name: string;
  mode: ChatMode;
  description: string;
  ownerOpenId: string;
  /** Member users by open_id, in join order. */
  members: string[];
  /** App ids whose bot is in the chat. */
  bots: Set<string>;
  /** Set when the chat was dissolved (ms): every chat operation then fails with 230045. */
  dissolvedAt?: number;
}

/** Who sent a message: a user (open_id) or an app (app_id). */
export interface Sender {
  type: "user" | "app";
  id: string;
}

/** A mention as stored on a message. */
export interface Mention {
  key: string;
  openId: string;
  unionId: string;
  userId: string;
  name: string;
}

/** A message as the emulator stores it. `content` is the JSON string Feishu returns. */
export interface StoredMessage {
  messageId: string;
  chatId: string;
  sender: Sender;
  msgType: string;
  content: string;
  rootId?: string;
  parentId?: string;
  threadId?: string;
  createTime: number;
  updateTime: number;
  deleted: boolean;
  updated: boolean;
  editCount: number;
  uuid?: string;
  /** Resource keys (image_key / file_key) the message carries. */
  resources: string[];
  mentions: Mention[];
  /**
   * The forward (`merge_forward`) this message was forwarded in. Such a
   * message is no message of the chat: only reading its forward shows it.
   */
  upperMessageId?: string;
  /** True when the bot may not read it: a read answers 230027. */
  unreadable?: boolean;
  /** Creation order, the tie-breaker for equal create times. */
  seq: number;
}

/** A reaction on a message. */
export interface Reaction {
  reactionId: string;
  messageId: string;
  emojiType: string;
  operatorType: "user" | "app";
  /** open_id for users, app_id for apps. */
  operatorId: string;
  actionTime: number;
}

/** An uploaded or inbound resource. */
export interface Upload {
  key: string;
  kind: "image" | "file";
  bytes: Uint8Array;
  /** For files: opus, mp4, pdf, doc, xls, ppt, stream. */
  fileType?: string;
  fileName?: string;
  /** Milliseconds, for audio and video. */
  duration?: number;
  contentType: string;
  /** The app that uploaded it, or undefined for resources users sent. */
  appId?: string;
}

/** An issued tenant access token. */
export interface Token {
  token: string;
  appId: string;
  expiresAt: number;
  revoked: boolean;
}

/** A toast as a card callback returns it. */
export interface Toast {
  type?: string;
  content?: string;
  i18n?: Record<string, string>;
}

/** What one card click produced. */
export interface CardResult {
  /** The pushed `card.action.trigger`, or "" when nothing was pushed (200340). */
  eventId: string;
  messageId: string;
  userOpenId: string;
  /** The frame `type` the callback went out in (absent when nothing was pushed). */
  frameType?: "event" | "card";
  /** The ACK's code; absent when no ACK came in time or nothing was pushed. */
  ackCode?: number;
  toast?: Toast;
  card?: { type: string; data: unknown };
  /** True when a `raw` card replaced the message content. */
  applied: boolean;
  /** True when no ACK arrived within the ACK timeout (the click failed with 200341). */
  timedOut: boolean;
  /** The error code the user's client shows: 200340 or 200341; absent on success. */
  errorCode?: number;
  /** What that error code means. */
  errorMessage?: string;
  at: number;
}

/** The `token` of a card callback, for `POST /open-apis/interactive/v1/card/update`. */
export interface CardToken {
  token: string;
  appId: string;
  /** The card message the click was on. */
  messageId: string;
  /** The callback's event id. */
  eventId: string;
  /** When the callback was pushed (emulator clock). */
  issuedAt: number;
  /** Successful updates made with it. */
  uses: number;
}

/** The whole mutable state. */
export class World {
  /** Apps by app_id. */
  readonly apps: Map<string, App> = new Map();
  /** Users by open_id. */
  readonly users: Map<string, User> = new Map();
  /** Chats by chat_id. */
  readonly chats: Map<string, Chat> = new Map();
  /** Messages by message_id. */
  readonly messages: Map<string, StoredMessage> = new Map();
  /** Reactions by reaction_id (removed ones are deleted). */
  readonly reactions: Map<string, Reaction> = new Map();
  /** Uploads and inbound resources by key. */
  readonly uploads: Map<string, Upload> = new Map();
  /** Tenant tokens by value. */
  readonly tokens: Map<string, Token> = new Map();
  /** Send idempotency: `${app_id}|${uuid}` → message id and first-use time. */
  readonly uuids: Map<string, { messageId: string; at: number }> = new Map();
  /** Card results in click order. */
  readonly cardResults: CardResult[] = [];
  /** Card callback tokens by value. */
  readonly cardTokens: Map<string, CardToken> = new Map();
  #seq = 0;

  /** Adds or replaces an app. */
  addApp(app: App): App {
    this.apps.set(app.appId, app);
    return app;
  }

  /** Adds or replaces a user. */
  addUser(user: User): User {
    this.users.set(user.openId, user);
    return user;
  }

  /** Adds or replaces a chat. */
  addChat(chat: Chat): Chat {
    this.chats.set(chat.chatId, chat);
    return chat;
  }

  /** The first app, which single-app helpers default to. */
  primaryApp(): App {
    const first = this.apps.values().next();
    if (first.done) throw new Error("Expected the world to have an app but found none");
    return first.value;
  }

  /** Finds a user by open_id, union_id, user_id or email. */
  findUser(id: string, idType?: string): User | undefined {
    for (const u of this.users.values()) {
      if ((idType === undefined || idType === "open_id") && u.openId === id) return u;
      if ((idType === undefined || idType === "union_id") && u.unionId === id) return u;
      if ((idType === undefined || idType === "user_id") && u.userId === id) return u;
      if ((idType === undefined || idType === "email") && u.email === id) return u;
    }
    return undefined;
  }

  /** The p2p chat between a user and an app's bot, if any. */
  p2pChat(appId: string, openId: string): Chat | undefined {
    for (const c of this.chats.values()) {
      if (c.mode === "p2p" && c.bots.has(appId) && c.members.includes(openId)) return c;
    }
    return undefined;
  }

  /** Stores a new message, assigning its creation sequence. */
  addMessage(message: Omit<StoredMessage, "seq">): StoredMessage {
    const stored = { ...message, seq: ++this.#seq };
    this.messages.set(stored.messageId, stored);
    return stored;
  }

  /** Puts back a message exactly as stored (its `seq` kept), as a saved world is loaded. */
  restoreMessage(message: StoredMessage): void {
    this.messages.set(message.messageId, message);
    this.#seq = Math.max(this.#seq, message.seq);
  }

  /** Messages of a chat, oldest first (create time, then creation order). */
  messagesOf(chatId: string): StoredMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.chatId === chatId && !m.upperMessageId)
      .sort((a, b) => a.createTime - b.createTime || a.seq - b.seq);
  }

  /** Messages of a thread, oldest first. */
  messagesOfThread(threadId: string): StoredMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.threadId === threadId && !m.upperMessageId)
      .sort((a, b) => a.createTime - b.createTime || a.seq - b.seq);
  }

  /** The messages forwarded in a forward, nested ones included, depth first in order. */
  forwardedIn(forwardId: string): StoredMessage[] {
    const out: StoredMessage[] = [];
    const children = [...this.messages.values()]
      .filter((m) => m.upperMessageId === forwardId)
      .sort((a, b) => a.seq - b.seq);
    for (const child of children) out.push(child, ...this.forwardedIn(child.messageId));
    return out;
  }

  /** The chat-level message a forwarded one arrived in (the message itself when it is one). */
  outermost(message: StoredMessage): StoredMessage {
    let m = message;
    for (let up = m.upperMessageId; up !== undefined; up = m.upperMessageId) {
      const next = this.messages.get(up);
      if (!next) break;
      m = next;
    }
    return m;
  }

  /** Reactions of a message in the order they were added. */
  reactionsOf(messageId: string): Reaction[] {
    return [...this.reactions.values()].filter((r) => r.messageId === messageId);
  }

  /** The display name of a sender. */
  senderName(sender: Sender): string {
    if (sender.type === "app") return this.apps.get(sender.id)?.botName ?? sender.id;
    return this.users.get(sender.id)?.name ?? sender.id;
  }
}
