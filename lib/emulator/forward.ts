/**
 * Scripted forwards: a user forwards a chat history to the bot. Feishu sends
 * one `merge_forward` message whose content is only a placeholder; the
 * forwarded messages (a forward may hold forwards) are stored beside it,
 * each naming its container in `upper_message_id`, seen only by reading the
 * forward (`GET /open-apis/im/v1/messages/:message_id`), never in the chat.
 * @module
 */

import type { Core } from "./core.ts";
import type { EventEnv } from "./events.ts";
import { ID_PREFIX } from "./ids.ts";
import {
  compose,
  contentString,
  type Inbound,
  type UserMessageInput,
  userSends,
} from "./inbound.ts";
import type { Sender, StoredMessage } from "./world.ts";

/** The content Feishu gives every forward: the messages themselves must be read. */
export const FORWARD_PLACEHOLDER = { content: "Merged and Forwarded Message" };

/** One forwarded message: who first sent it, when, and one content field (or a forward). */
export interface ForwardedMessageInput extends
  Omit<
    UserMessageInput,
    "user" | "chat" | "app" | "mentions" | "replyTo" | "inThread" | "push" | "messageId"
  > {
  /** Its original sender: a user (any id of theirs), an app id or a bot's open_id. */
  user: string;
  /** Milliseconds since the epoch (default: the emulator clock's now). */
  createTime?: number;
  /** This message is itself a forward of these. */
  forward?: ForwardedMessageInput[];
}

/** What `userForwards` takes. */
export interface ForwardInput
  extends
    Pick<UserMessageInput, "user" | "chat" | "app" | "mentions" | "replyTo" | "inThread" | "push"> {
  /** The forwarded messages, oldest first. */
  messages: ForwardedMessageInput[];
}

function fail(msg: string): never {
  throw new Error(msg);
}

/** The sender of a forwarded message, by any id of a user or a bot. */
function senderOf(core: Core, id: string): Sender {
  const user = core.world.findUser(id);
  if (user) return { type: "user", id: user.openId };
  for (const app of core.world.apps.values()) {
    if (app.appId === id || app.botOpenId === id) return { type: "app", id: app.appId };
  }
  return fail(`Expected a known user, app id or bot open_id to forward from but found ${id}`);
}

/** Stores `messages` under `upper`; returns the resource keys they and their forwards carry. */
function storeForwarded(
  core: Core,
  upper: StoredMessage,
  messages: readonly ForwardedMessageInput[],
): string[] {
  const keys: string[] = [];
  for (const input of messages) {
    const { forward, createTime, user, ...fields } = input;
    const composed = forward
      ? { msgType: "merge_forward", content: FORWARD_PLACEHOLDER, resources: [] }
      : compose(core, fields);
    const at = createTime ?? core.clock.now();
    const stored = core.world.addMessage({
      messageId: core.ids.next(ID_PREFIX.message),
      chatId: upper.chatId,
      sender: senderOf(core, user),
      msgType: composed.msgType,
      content: contentString(composed),
      createTime: at,
      updateTime: at,
      deleted: false,
      updated: false,
      editCount: 0,
      resources: composed.resources,
      mentions: [],
      upperMessageId: upper.messageId,
    });
    keys.push(...composed.resources);
    if (forward) {
      const inner = storeForwarded(core, stored, forward);
      stored.resources = inner;
      keys.push(...inner);
    }
  }
  return keys;
}

/**
 * A user forwards messages to a chat the bot is in: the forward and the
 * messages in it are stored, and `im.message.receive_v1` is pushed for the
 * forward alone. The forward lists every key its messages carry, so their
 * media download by the forward's id.
 */
export function userForwards(env: EventEnv, input: ForwardInput): Inbound {
  const { messages, ...rest } = input;
  if (messages.length === 0) fail("Expected at least one message to forward but found none");
  return userSends(
    env,
    { ...rest, raw: { msgType: "merge_forward", content: FORWARD_PLACEHOLDER } },
    (forward) => void (forward.resources = storeForwarded(env.core, forward, messages)),
  );
}
