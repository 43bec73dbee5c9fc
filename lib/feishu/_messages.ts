/**
 * The message calls of {@link createFeishuApi}: send, reply, update, patch,
 * delete, get and list.
 * @module
 */

import { enveloped, nonEmpty } from "./_envelope.ts";
import { pathSegment } from "./_path.ts";
import type { lark } from "./_sdk.ts";
import type { FeishuApi, FeishuMessage, ReceiveIdType } from "./api.ts";

/** The SDK's `im.v1` namespace. */
export type ImV1 = lark.Client["im"]["v1"];

type MessageCalls = Pick<
  FeishuApi,
  | "createMessage"
  | "replyMessage"
  | "updateMessage"
  | "patchMessage"
  | "deleteMessage"
  | "getMessage"
  | "listMessages"
>;

function toMessage(raw: Record<string, unknown> | undefined | null): FeishuMessage {
  const r = raw ?? {};
  const body = r.body as { content?: unknown } | undefined;
  const ct = Number(r.create_time);
  return {
    messageId: String(r.message_id ?? ""),
    chatId: String(r.chat_id ?? ""),
    threadId: nonEmpty(r.thread_id),
    rootId: nonEmpty(r.root_id),
    parentId: nonEmpty(r.parent_id),
    upperMessageId: nonEmpty(r.upper_message_id),
    msgType: String(r.msg_type ?? ""),
    createTime: Number.isFinite(ct) && ct > 0 ? ct : null,
    content: typeof body?.content === "string" ? body.content : null,
    deleted: r.deleted === true,
    sender: (r.sender as Record<string, unknown>) ?? null,
    raw: r,
  };
}

/** The envelope's `data` as one message. */
const dataMessage = (res: { data?: unknown }) => toMessage(res.data as Record<string, unknown>);

/** Builds the message calls on one account's `im.v1`. */
export function messageCalls(im: ImV1): MessageCalls {
  return {
    createMessage: (req) =>
      enveloped("send", () =>
        im.message.create({
          params: { receive_id_type: req.receiveIdType as ReceiveIdType },
          data: {
            receive_id: req.receiveId,
            msg_type: req.msgType,
            content: req.content,
            uuid: req.uuid,
          },
        }), dataMessage),

    replyMessage: (req) =>
      enveloped("reply", () =>
        im.message.reply({
          path: { message_id: pathSegment("message_id", req.messageId) },
          data: {
            msg_type: req.msgType,
            content: req.content,
            reply_in_thread: req.replyInThread,
            uuid: req.uuid,
          },
        }), dataMessage),

    updateMessage: (req) =>
      enveloped("update_message", () =>
        im.message.update({
          path: { message_id: pathSegment("message_id", req.messageId) },
          data: { msg_type: req.msgType, content: req.content },
        })),

    patchMessage: (req) =>
      enveloped("update_card", () =>
        im.message.patch({
          path: { message_id: pathSegment("message_id", req.messageId) },
          data: { content: req.content },
        })),

    deleteMessage: (messageId) =>
      enveloped("delete_message", () =>
        im.message.delete({
          path: { message_id: pathSegment("message_id", messageId) },
        })),

    getMessage: (messageId) =>
      enveloped("get_message", () =>
        im.message.get({
          path: { message_id: pathSegment("message_id", messageId) },
        }), (res) => {
        const items = (res.data as { items?: unknown } | undefined)?.items;
        return Array.isArray(items)
          ? items.map((i) => toMessage(i as Record<string, unknown>))
          : [];
      }),

    listMessages: (req) =>
      enveloped("list_messages", () =>
        im.message.list({
          params: {
            container_id_type: req.containerIdType,
            container_id: req.containerId,
            start_time: req.startTimeMs === undefined
              ? undefined
              : String(Math.floor(req.startTimeMs / 1000)),
            end_time: req.endTimeMs === undefined
              ? undefined
              : String(Math.ceil(req.endTimeMs / 1000)),
            sort_type: req.order === "desc" ? "ByCreateTimeDesc" : "ByCreateTimeAsc",
            page_size: req.pageSize ?? 50,
            page_token: req.pageToken,
          },
        }), (res) => {
        const d = (res.data ?? {}) as {
          items?: Record<string, unknown>[];
          has_more?: boolean;
          page_token?: string;
        };
        return {
          items: (d.items ?? []).map(toMessage),
          hasMore: d.has_more === true,
          pageToken: d.page_token || null,
        };
      }),
  };
}
