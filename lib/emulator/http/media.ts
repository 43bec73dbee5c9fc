/**
 * Media: image and file uploads (multipart parsed from the raw bytes; empty
 * or too big → 234001), downloads of the app's own uploads, and downloads of
 * a message's resources (`?type=image|file`; a key that is not in the
 * message → the configurable 234003-style code; cards → 234043; a forward's
 * media by the forward's id, a forwarded message's own id → 234043).
 * @module
 */

import type { Core } from "../core.ts";
import { storeUpload } from "../ops.ts";
import type { MultipartPart } from "../types.ts";
import type { StoredMessage, Upload } from "../world.ts";
import { ApiError, ok } from "./_envelope.ts";
import { requireBotIn } from "./messages.ts";
import { partText } from "./multipart.ts";
import type { Route } from "./router.ts";

const FILE_TYPES = new Set(["opus", "mp4", "pdf", "doc", "xls", "ppt", "stream"]);

/**
 * Guesses a content type from magic bytes.
 *
 * @example
 * ```ts
 * import { sniffContentType } from "./media.ts";
 * const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
 * if (sniffContentType(png, "application/octet-stream") !== "image/png") throw new Error();
 * ```
 */
export function sniffContentType(bytes: Uint8Array, fallback: string): string {
  const b = (i: number) => bytes[i];
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47) return "image/png";
  if (b(0) === 0xff && b(1) === 0xd8) return "image/jpeg";
  if (b(0) === 0x47 && b(1) === 0x49 && b(2) === 0x46) return "image/gif";
  if (b(0) === 0x52 && b(1) === 0x49 && b(8) === 0x57 && b(9) === 0x45) return "image/webp";
  if (b(0) === 0x4f && b(1) === 0x67 && b(2) === 0x67 && b(3) === 0x53) return "audio/ogg";
  if (b(0) === 0x25 && b(1) === 0x50 && b(2) === 0x44 && b(3) === 0x46) return "application/pdf";
  return fallback;
}

function bad(msg: string): ApiError {
  return new ApiError(234001, `Invalid request param. ${msg}`);
}

function filePart(parts: MultipartPart[] | undefined, name: string, limit: number): Uint8Array {
  if (!parts) throw bad("Expected a multipart/form-data body");
  const part = parts.find((p) => p.name === name);
  if (!part) throw bad(`Expected a part named ${name} but found none`);
  if (part.data.length === 0) throw bad(`The ${name} is empty`);
  if (part.data.length > limit) {
    throw bad(`The ${name} is ${part.data.length} bytes, more than the limit of ${limit}`);
  }
  return part.data;
}

/** A bytes response with Feishu's download headers. */
export function download(upload: Upload): Response {
  const name = upload.fileName ?? `${upload.key}${upload.kind === "image" ? "" : ".bin"}`;
  return new Response(upload.bytes.slice(), {
    headers: {
      "content-type": upload.contentType,
      "content-disposition": `attachment; filename="${encodeURIComponent(name)}"`,
      "content-length": String(upload.bytes.length),
    },
  });
}

/** The message that carries `key`: `m` itself, or the forwarded message inside it. */
function carrierOf(core: Core, m: StoredMessage, key: string): StoredMessage {
  if (m.msgType !== "merge_forward") return m;
  return core.world.forwardedIn(m.messageId).find((x) =>
    x.msgType !== "merge_forward" && x.resources.includes(key)
  ) ?? m;
}

function notFound(core: Core, key: string): ApiError {
  return new ApiError(core.settings.resourceNotFoundCode, `The resource ${key} is not found`);
}

/** Routes of this area. */
export const mediaRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/open-apis/im/v1/images",
    handle: ({ core, app, parts }) => {
      const type = parts ? partText(parts, "image_type") : undefined;
      if (type !== "message" && type !== "avatar") {
        throw bad(`image_type must be message or avatar but found ${type}`);
      }
      const bytes = filePart(parts, "image", core.settings.limits.imageBytes);
      const upload = storeUpload(core, {
        kind: "image",
        bytes,
        contentType: sniffContentType(bytes, "application/octet-stream"),
        appId: app.appId,
      });
      return ok({ image_key: upload.key });
    },
  },
  {
    method: "POST",
    pattern: "/open-apis/im/v1/files",
    handle: ({ core, app, parts }) => {
      const fileType = parts ? partText(parts, "file_type") : undefined;
      if (!fileType || !FILE_TYPES.has(fileType)) {
        throw bad(`file_type must be one of ${[...FILE_TYPES].join(", ")} but found ${fileType}`);
      }
      const fileName = parts ? partText(parts, "file_name") : undefined;
      if (!fileName) throw bad("file_name is required");
      const durationText = parts ? partText(parts, "duration") : undefined;
      const duration = durationText === undefined ? undefined : Number(durationText);
      if (duration !== undefined && !Number.isInteger(duration)) {
        throw bad(`duration must be an integer of milliseconds but found ${durationText}`);
      }
      const bytes = filePart(parts, "file", core.settings.limits.fileBytes);
      const upload = storeUpload(core, {
        kind: "file",
        bytes,
        fileType,
        fileName,
        duration,
        contentType: sniffContentType(bytes, "application/octet-stream"),
        appId: app.appId,
      });
      return ok({ file_key: upload.key });
    },
  },
  ...(["image", "file"] as const).map((kind): Route => ({
    method: "GET",
    pattern: `/open-apis/im/v1/${kind}s/:key`,
    handle: ({ core, app, params }) => {
      const upload = core.world.uploads.get(params.key ?? "");
      if (!upload || upload.kind !== kind || upload.appId !== app.appId) {
        throw notFound(core, params.key ?? "");
      }
      return download(upload);
    },
  })),
  {
    method: "GET",
    pattern: "/open-apis/im/v1/messages/:message_id/resources/:file_key",
    handle: ({ core, app, params, query }) => {
      const type = query.get("type");
      if (type !== "image" && type !== "file") {
        throw bad(`type must be image or file but found ${type}`);
      }
      const key = params.file_key ?? "";
      const m = core.world.messages.get(params.message_id ?? "");
      if (!m) throw notFound(core, key);
      const chat = core.world.chats.get(m.chatId);
      if (chat) requireBotIn(chat, app);
      // A forwarded message's media is fetched by the forward's id, never its own.
      if (m.msgType === "interactive" || m.upperMessageId) {
        throw new ApiError(
          234043,
          `Downloading resources of ${
            m.upperMessageId ? "forwarded" : m.msgType
          } messages is not supported`,
        );
      }
      const upload = core.world.uploads.get(key);
      if (!m.resources.includes(key) || !upload) throw notFound(core, key);
      // Stickers are fetched as images, whatever their key looks like.
      const kind = carrierOf(core, m, key).msgType === "sticker" ? "image" : upload.kind;
      if (kind !== type) throw bad(`The resource ${key} is a ${kind}, not a ${type}`);
      return download(upload);
    },
  },
];
