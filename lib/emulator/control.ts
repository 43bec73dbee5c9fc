/**
 * The control plane for the web chat page and the sandbox (`/__emu/api/…`),
 * plus the embedded page at `/` and `/web/<name>`. JSON in, JSON out; errors
 * are `{error}` with HTTP 400/404, and a POST whose body is not declared
 * `application/json` is refused with 415 (a cross-site form or `text/plain`
 * post cannot reach an endpoint). Documented in README.md.
 * @module
 */

import { userEntersP2p, userReacts } from "./actions.ts";
import { botSends } from "./bots.ts";
import { clickCard } from "./clicks.ts";
import { handleChatControl } from "./control_chats.ts";
import type { Core } from "./core.ts";
import { type EventEnv, pushMessageEvent } from "./events.ts";
import { DEFAULT_IDS } from "./fixtures.ts";
import { download, matchPath } from "./http/mod.ts";
import { storeUserMessage, type UserMessageInput } from "./inbound.ts";
import { type Registrations, registrationView } from "./registration.ts";
import { WEB_ASSETS } from "./web/mod.ts";
import type { CardResult, StoredMessage, Toast, World } from "./world.ts";

/** Open SSE streams, closed when the emulator closes. */
export type StreamClosers = Set<() => void>;

function reply(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** True when the request declares a JSON body (`application/json`, any parameters). */
function isJson(req: Request): boolean {
  const type = req.headers.get("content-type") ?? "";
  return type.split(";")[0]?.trim().toLowerCase() === "application/json";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The page only ever sends JSON; a body that is not JSON is treated as empty.
    return {};
  }
}

function bytesOf(b64: unknown, field: string): Uint8Array {
  if (typeof b64 !== "string") throw new Error(`Expected ${field}.base64 to be a string`);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function stateView(world: World): unknown {
  const app = world.primaryApp();
  return {
    app: { app_id: app.appId, bot_open_id: app.botOpenId, bot_name: app.botName },
    users: [...world.users.values()].map((u) => ({ open_id: u.openId, name: u.name })),
    chats: [...world.chats.values()].map((c) => ({
      chat_id: c.chatId,
      name: c.name,
      chat_mode: c.mode,
      members: [...c.members],
      bot_member: c.bots.has(app.appId),
      owner_id: c.ownerOpenId,
      dissolved: c.dissolvedAt !== undefined,
    })),
  };
}

function parseContent(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Stored content is always JSON; keep the raw text visible if it is not.
    return { text };
  }
}

/** The toast line of a click result: the ACK's toast, or an error toast naming the code. */
function resultToast(r: CardResult): Toast | undefined {
  if (r.toast) return r.toast;
  if (r.errorCode === undefined) return undefined;
  return {
    type: "error",
    content: `${r.errorMessage ?? "The click failed"} (code: ${r.errorCode})`,
  };
}

/** One message as the page sees it. */
export function pageMessage(world: World, m: StoredMessage): Record<string, unknown> {
  const last = world.cardResults.filter((r) => r.messageId === m.messageId && resultToast(r))
    .at(-1);
  const toast = last && resultToast(last);
  return {
    message_id: m.messageId,
    chat_id: m.chatId,
    thread_id: m.threadId ?? null,
    root_id: m.rootId ?? null,
    parent_id: m.parentId ?? null,
    msg_type: m.msgType,
    content: parseContent(m.content),
    sender: { type: m.sender.type, id: m.sender.id, name: world.senderName(m.sender) },
    create_time: m.createTime,
    update_time: m.updateTime,
    deleted: m.deleted,
    updated: m.updated,
    edit_count: m.editCount,
    reactions: world.reactionsOf(m.messageId).map((r) => ({
      reaction_id: r.reactionId,
      emoji_type: r.emojiType,
      operator_type: r.operatorType,
      operator_id: r.operatorId,
    })),
    mentions: m.mentions.map((x) => ({
      key: x.key,
      id: x.openId,
      id_type: "open_id",
      name: x.name,
    })),
    ...(toast ? { toast } : {}),
  };
}

function send(env: EventEnv, b: Record<string, unknown>): Response {
  const input: UserMessageInput = {
    user: String(b.user_id ?? ""),
    chat: String(b.chat_id ?? ""),
    mentions: b.mention_bot === true ? ["bot"] : [],
    replyTo: typeof b.reply_to === "string" && b.reply_to !== "" ? b.reply_to : undefined,
    inThread: b.in_thread === true,
  };
  const image = b.image as { base64?: unknown } | undefined;
  const file = b.file as { base64?: unknown; name?: unknown } | undefined;
  if (typeof b.text === "string") input.text = b.text;
  else if (b.post) input.post = b.post as UserMessageInput["post"];
  else if (image) input.image = { bytes: bytesOf(image.base64, "image") };
  else if (file) {
    input.file = { bytes: bytesOf(file.base64, "file"), name: String(file.name ?? "file") };
  }
  const message = storeUserMessage(env.core, input);
  const app = env.core.world.primaryApp();
  const chat = env.core.world.chats.get(message.chatId);
  const sender = env.core.world.users.get(message.sender.id);
  if (!chat?.bots.has(app.appId) || !sender) {
    return reply({ message_id: message.messageId, event_id: null });
  }
  const record = pushMessageEvent(env, { app, message, sender });
  return reply({ message_id: message.messageId, event_id: record.eventId });
}

async function click(env: EventEnv, b: Record<string, unknown>): Promise<Response> {
  const c = clickCard(env, {
    user: String(b.user_id ?? ""),
    messageId: String(b.message_id ?? ""),
    action: {
      value: b.value,
      tag: typeof b.tag === "string" ? b.tag : undefined,
      name: typeof b.name === "string" ? b.name : undefined,
      form_value: isRecord(b.form_value) ? b.form_value : undefined,
      input_value: typeof b.input_value === "string" ? b.input_value : undefined,
      option: typeof b.option === "string" ? b.option : undefined,
    },
  });
  const closed = new Promise<undefined>((resolve) => {
    if (env.core.closing.aborted) resolve(undefined);
    env.core.closing.addEventListener("abort", () => resolve(undefined), { once: true });
  });
  const result = await Promise.race([c.result, closed]);
  if (!result) {
    return reply({ error: "The emulator closed before the click was answered" }, 503);
  }
  const ack = result.ackCode === undefined ? undefined : env.hub.deliveries.get(c.eventId)?.ack;
  return reply({
    event_id: result.eventId || null,
    ack: ack ? { code: ack.code, data: ack.data ?? null } : null,
    timed_out: result.timedOut,
    ...(result.toast ? { toast: result.toast } : {}),
    ...(result.errorCode !== undefined
      ? { error_code: result.errorCode, error_msg: result.errorMessage ?? "" }
      : {}),
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stream(core: Core, closers: StreamClosers): Response {
  const enc = new TextEncoder();
  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(enc.encode(": connected\n\n"));
      const off = core.feed.subscribe((change) => {
        controller.enqueue(enc.encode(`event: change\ndata: ${JSON.stringify(change)}\n\n`));
      });
      const close = () => {
        cleanup();
        controller.close();
      };
      cleanup = () => {
        off();
        closers.delete(close);
      };
      closers.add(close);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}

/** Handles `/`, `/web/…` and `/__emu/api/…`; undefined for other paths. */
export async function handleControl(
  env: EventEnv & { closers: StreamClosers; registrations: Registrations },
  req: Request,
  url: URL,
): Promise<Response | undefined> {
  const { core } = env;
  const path = url.pathname;
  if (req.method === "GET" && (path === "/" || path.startsWith("/web/"))) {
    const asset = WEB_ASSETS[path === "/" ? "index.html" : path.slice("/web/".length)];
    if (!asset) return reply({ error: `No asset at ${path}` }, 404);
    return new Response(asset.body, { headers: { "content-type": asset.type } });
  }
  if (!path.startsWith("/__emu/api/")) return undefined;
  if (req.method === "POST" && !isJson(req)) {
    return reply({ error: "Expected content-type application/json for a control-plane POST" }, 415);
  }
  const body = req.method === "POST" ? parseJson(await req.text()) as Record<string, unknown> : {};
  try {
    if (req.method === "GET" && path === "/__emu/api/state") return reply(stateView(core.world));
    if (req.method === "GET" && path === "/__emu/api/stream") return stream(core, env.closers);
    const chat = matchPath("/__emu/api/chats/:chat_id/messages", path);
    if (req.method === "GET" && chat) {
      if (!core.world.chats.has(chat.chat_id ?? "")) {
        return reply({ error: `Expected a known chat_id but found ${chat.chat_id}` }, 404);
      }
      const items = core.world.messagesOf(chat.chat_id ?? "").map((m) =>
        pageMessage(core.world, m)
      );
      return reply({ items });
    }
    const res = matchPath("/__emu/api/resource/:key", path);
    if (req.method === "GET" && res) {
      const upload = core.world.uploads.get(res.key ?? "");
      if (!upload) {
        return reply({ error: `Expected a known resource key but found ${res.key}` }, 404);
      }
      return download(upload);
    }
    if (req.method === "POST" && path === "/__emu/api/send") return send(env, body);
    if (req.method === "POST" && path === "/__emu/api/bot_send") {
      const sent = botSends(env, {
        app: String(body.app_id ?? ""),
        chat: String(body.chat_id ?? ""),
        text: String(body.text ?? ""),
        mention: Array.isArray(body.mention) ? body.mention.map(String) : [],
        replyTo: typeof body.reply_to === "string" && body.reply_to !== ""
          ? body.reply_to
          : undefined,
      });
      return reply({ message_id: sent.messageId, event_ids: sent.eventIds });
    }
    if (req.method === "POST" && path === "/__emu/api/react") {
      const r = userReacts(env, {
        user: String(body.user_id ?? ""),
        messageId: String(body.message_id ?? ""),
        emoji: String(body.emoji_type ?? ""),
        remove: body.remove === true,
      });
      return reply({ event_id: r.eventId });
    }
    if (req.method === "POST" && path === "/__emu/api/click") return await click(env, body);
    const moderated = handleChatControl(env, req.method, path, body);
    if (moderated) return moderated;
    if (req.method === "POST" && path === "/__emu/api/p2p_entered") {
      const r = userEntersP2p(env, { user: String(body.user_id ?? "") });
      return reply({ chat_id: r.chatId, event_id: r.eventId });
    }
    const regs = env.registrations;
    if (req.method === "GET" && path === "/__emu/api/registrations") {
      return reply({ items: regs.all.map((r) => registrationView(regs.find(r.deviceCode))) });
    }
    const scan = matchPath("/__emu/api/registrations/:verb", path);
    if (req.method === "POST" && scan) {
      const code = typeof body.code === "string" && body.code !== "" ? body.code : undefined;
      if (scan.verb === "approve") {
        // Whoever the page is acting as; Alice when nobody is named.
        const user = typeof body.user_id === "string" && body.user_id !== ""
          ? body.user_id
          : DEFAULT_IDS.alice.openId;
        const brand = body.tenant_brand === "lark" ? "lark" : undefined;
        return reply(registrationView(regs.approve({ code, user, brand })));
      }
      if (scan.verb === "deny") return reply(registrationView(regs.deny(code)));
      if (scan.verb === "expire") return reply(registrationView(regs.expire(code)));
    }
    return reply({ error: `No control endpoint ${req.method} ${path}` }, 404);
  } catch (error) {
    return reply({ error: error instanceof Error ? error.message : String(error) }, 400);
  }
}
