/**
 * One message's body by `msg_type`: text (mentions as @names, links),
 * post, interactive card, and tiles for image, file, audio, video, sticker,
 * shared chat and shared user. Unknown types show their type and raw JSON,
 * escaped. Also the one-line preview reply quotes use.
 * @module
 */

import { escapeHtml, escapeLines, isObj, link, type Obj, resourceUrl, str } from "./_html.ts";
import { mentionChip } from "./_md_html.ts";
import { cardPreview, renderCard } from "./card.ts";
import { mentionName, postPreview, renderPost } from "./post.ts";
import type { PageMessage, RenderContext } from "./types.ts";

const TEXT_TOKENS =
  /(@_user_\d+|@_all)|<at\s+(?:user_id|open_id|id)\s*=\s*["']?([^"'>\s]+)["']?\s*>([^<]*)<\/at>|(https?:\/\/[^\s<>"']+)/g;

/**
 * Renders a text message: escaped, newlines kept, `@_user_N` placeholders and
 * `<at>` tags as mention chips, URLs as links.
 *
 * @example
 * ```ts
 * import { renderText } from "./message.ts";
 * import { contextFor } from "./types.ts";
 * const ctx = contextFor(undefined, [{ key: "@_user_1", id: "ou_b", name: "EmuBot" }]);
 * const html = renderText("@_user_1 <b>hi</b>", ctx);
 * if (html !== '<span class="mention">@EmuBot</span> &lt;b&gt;hi&lt;/b&gt;') throw new Error(html);
 * ```
 */
export function renderText(text: string, ctx: RenderContext): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(TEXT_TOKENS)) {
    out += escapeLines(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) {
      const known = m[1] === "@_all" || ctx.mentions.some((x) => x.key === m[1]);
      out += known ? mentionChip(mentionName(m[1], ctx)) : escapeHtml(m[1]);
    } else if (m[2]) out += mentionChip(mentionName(m[2], ctx, (m[3] ?? "").trim()));
    else out += link(m[4] ?? "", escapeHtml(m[4] ?? ""));
  }
  return out + escapeLines(text.slice(last));
}

function seconds(ms: unknown): string {
  return typeof ms === "number" && ms > 0 ? `${Math.max(1, Math.round(ms / 1000))}s` : "";
}

function fileTile(c: Obj, icon: string, kind: string): string {
  const name = str(c.file_name, kind);
  const url = escapeHtml(resourceUrl(str(c.file_key)));
  return `<a class="tile tile-file" href="${url}" download="${escapeHtml(name)}">` +
    `<span class="tile-icon">${icon}</span><span class="tile-text"><span class="tile-name">${
      escapeHtml(name)
    }</span><span class="tile-sub">${kind}</span></span></a>`;
}

function tile(icon: string, name: string, sub: string): string {
  return `<div class="tile"><span class="tile-icon">${icon}</span><span class="tile-text">` +
    `<span class="tile-name">${escapeHtml(name)}</span><span class="tile-sub">${
      escapeHtml(sub)
    }</span></span></div>`;
}

/**
 * Renders the body of a message (not its sender, time or reactions).
 *
 * @example
 * ```ts
 * import { renderBody } from "./message.ts";
 * import { contextFor } from "./types.ts";
 * const html = renderBody({ msg_type: "image", content: { image_key: "img_1" } }, contextFor(undefined));
 * if (!html.includes('src="/__emu/api/resource/img_1"')) throw new Error(html);
 * ```
 */
export function renderBody(
  msg: Pick<PageMessage, "msg_type" | "content">,
  ctx: RenderContext,
): string {
  const c: Obj = isObj(msg.content) ? msg.content : {};
  switch (msg.msg_type) {
    case "text":
      return `<div class="text">${renderText(str(c.text), ctx)}</div>`;
    case "post":
      return renderPost(c, ctx);
    case "interactive":
      return renderCard(c, ctx);
    case "image": {
      const url = escapeHtml(resourceUrl(str(c.image_key)));
      return `<a class="msg-img" href="${url}" target="_blank"><img src="${url}" alt="image"></a>`;
    }
    case "file":
      return fileTile(c, "📄", "File");
    case "audio":
      return `<div class="tile tile-audio"><span class="tile-icon">🎤</span>` +
        `<span class="tile-text"><span class="tile-name">Voice message</span>` +
        `<span class="tile-sub">${seconds(c.duration)}</span></span>` +
        `<audio controls preload="none" src="${
          escapeHtml(resourceUrl(str(c.file_key)))
        }"></audio></div>`;
    case "media": {
      const cover = escapeHtml(resourceUrl(str(c.image_key)));
      const file = escapeHtml(resourceUrl(str(c.file_key)));
      const name = escapeHtml(str(c.file_name, "video"));
      return `<a class="tile tile-video" href="${file}" target="_blank">` +
        `<img src="${cover}" alt="video cover"><span class="play">▶</span>` +
        `<span class="tile-sub">${name} ${seconds(c.duration)}</span></a>`;
    }
    case "sticker":
      return `<img class="sticker" src="${
        escapeHtml(resourceUrl(str(c.file_key)))
      }" alt="sticker">`;
    case "share_chat": {
      const id = str(c.chat_id);
      return tile("💬", ctx.chatName(id) || id, "Shared group");
    }
    case "share_user": {
      const id = str(c.user_id);
      return tile("👤", ctx.nameOf(id) ?? id, "Shared contact");
    }
    default:
      return `${tile("❔", `[${msg.msg_type}]`, "Not rendered by the emulator")}` +
        `<pre class="raw">${escapeHtml(JSON.stringify(msg.content, null, 2))}</pre>`;
  }
}

const LABELS: Record<string, string> = {
  image: "[Image]",
  audio: "[Voice]",
  media: "[Video]",
  sticker: "[Sticker]",
};

/**
 * A message as one line of plain text (reply quotes, thread heads).
 *
 * @example
 * ```ts
 * import { messagePreview } from "./message.ts";
 * import { contextFor } from "./types.ts";
 * const ctx = contextFor(undefined, [{ key: "@_user_1", id: "ou_b", name: "EmuBot" }]);
 * const p = messagePreview({ msg_type: "text", content: { text: "@_user_1 hi\nthere" }, deleted: false }, ctx);
 * if (p !== "@EmuBot hi there") throw new Error(p);
 * ```
 */
export function messagePreview(
  msg: Pick<PageMessage, "msg_type" | "content" | "deleted">,
  ctx: RenderContext,
): string {
  if (msg.deleted) return "This message was recalled";
  const c: Obj = isObj(msg.content) ? msg.content : {};
  let text: string;
  switch (msg.msg_type) {
    case "text":
      text = str(c.text).replace(
        /@_user_\d+|@_all/g,
        (key) => `@${mentionName(key, ctx)}`,
      );
      break;
    case "post":
      text = postPreview(c, ctx);
      break;
    case "interactive":
      text = `[Card] ${cardPreview(c)}`;
      break;
    case "file":
      text = `[File] ${str(c.file_name)}`;
      break;
    case "share_chat":
      text = `[Group] ${ctx.chatName(str(c.chat_id)) ?? str(c.chat_id)}`;
      break;
    case "share_user":
      text = `[Contact] ${ctx.nameOf(str(c.user_id)) ?? str(c.user_id)}`;
      break;
    default:
      text = LABELS[msg.msg_type] ?? `[${msg.msg_type}]`;
  }
  return text.replace(/\s+/g, " ").trim();
}
