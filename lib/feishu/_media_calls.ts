/**
 * The reaction and media calls of {@link createFeishuApi}: add, remove and
 * list reactions, upload an image or a file, download a message's resource.
 * @module
 */

import { Buffer } from "node:buffer";
import { attempt, enveloped, plainHeaders, presentString, readStream } from "./_envelope.ts";
import type { ImV1 } from "./_messages.ts";
import { pathSegment } from "./_path.ts";
import type { lark } from "./_sdk.ts";
import type { CallOptions, FeishuApi } from "./api.ts";
import { overCap, writeStreamCapped } from "./_stream_file.ts";

type MediaCalls = Pick<
  FeishuApi,
  | "addReaction"
  | "removeReaction"
  | "listReactions"
  | "uploadImage"
  | "uploadFile"
  | "downloadResource"
  | "downloadResourceTo"
>;

/** Builds the reaction and media calls of one account's client. */
export function mediaCalls(client: lark.Client, im: ImV1): MediaCalls {
  return {
    addReaction: (messageId, emojiType) =>
      enveloped(
        "add_reaction",
        () =>
          im.messageReaction.create({
            path: { message_id: pathSegment("message_id", messageId) },
            data: { reaction_type: { emoji_type: emojiType } },
          }),
        (res) =>
          presentString((res.data as { reaction_id?: unknown } | undefined)?.reaction_id, {
            operation: "add_reaction",
            code: 0,
            msg: "Feishu add_reaction succeeded without a reaction_id",
          }),
      ),

    removeReaction: (messageId, reactionId) =>
      enveloped("remove_reaction", () =>
        im.messageReaction.delete({
          path: {
            message_id: pathSegment("message_id", messageId),
            reaction_id: pathSegment("reaction_id", reactionId),
          },
        })),

    listReactions: (messageId, emojiType) =>
      enveloped(
        "list_reactions",
        () =>
          im.messageReaction.list({
            path: { message_id: pathSegment("message_id", messageId) },
            params: { reaction_type: emojiType, page_size: 50 },
          }),
        (res) => {
          const data = res.data as { items?: Record<string, unknown>[] } | undefined;
          const items = data?.items ?? [];
          return items.map((r) => {
            const op = (r.operator ?? {}) as Record<string, unknown>;
            const type = (r.reaction_type ?? {}) as Record<string, unknown>;
            return {
              reactionId: String(r.reaction_id ?? ""),
              emojiType: String(type.emoji_type ?? ""),
              operatorType: String(op.operator_type ?? ""),
              operatorId: String(op.operator_id ?? ""),
            };
          });
        },
      ),

    uploadImage: (bytes) =>
      attempt("upload_image", async () => {
        const data = await im.image.create({
          data: { image_type: "message", image: Buffer.from(bytes) },
        });
        return presentString((data as { image_key?: unknown } | null)?.image_key, {
          operation: "upload_image",
          msg: "upload response has no image_key",
        });
      }),

    uploadFile: (req) =>
      attempt("upload_file", async () => {
        const data = await im.file.create({
          data: {
            file_type: req.fileType,
            file_name: req.fileName,
            duration: req.durationMs,
            file: Buffer.from(req.bytes),
          },
        });
        return presentString((data as { file_key?: unknown } | null)?.file_key, {
          operation: "upload_file",
          msg: "upload response has no file_key",
        });
      }),

    downloadResource: (messageId, fileKey, type, opts = {}) =>
      attempt("download_resource", async () => {
        const res = await requestResource(client, messageId, fileKey, type, opts);
        const bytes = await readStream(res.data);
        const headers = plainHeaders(res.headers);
        return {
          bytes,
          fileName: fileNameFromDisposition(headers["content-disposition"]),
          contentType: headers["content-type"] ?? null,
        };
      }),

    downloadResourceTo: (messageId, fileKey, type, opts) =>
      attempt("download_resource", async () => {
        const res = await requestResource(client, messageId, fileKey, type, opts);
        const headers = plainHeaders(res.headers);
        const declared = Number(headers["content-length"]);
        const stream = res.data as AsyncIterable<Uint8Array> & { destroy?: () => void };
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          stream.destroy?.();
          throw overCap(opts);
        }
        const size = await writeStreamCapped(stream, opts);
        return {
          size,
          fileName: fileNameFromDisposition(headers["content-disposition"]),
          contentType: headers["content-type"] ?? null,
        };
      }),
  };
}

/** Starts a resource download; the body is a stream the caller reads. */
async function requestResource(
  client: lark.Client,
  messageId: string,
  fileKey: string,
  type: "image" | "file",
  opts: CallOptions,
): Promise<{ data: unknown; headers: unknown }> {
  // The generic request (not `im.messageResource.get`) so the download can be
  // aborted: a shutdown must not wait for a large or stalled file.
  const request = {
    method: "GET" as const,
    url: `/open-apis/im/v1/messages/${pathSegment("message_id", messageId)}/resources/${
      pathSegment("file_key", fileKey)
    }`,
    params: { type },
    responseType: "stream" as const,
    signal: opts.signal,
    // The SDK's response interceptor then returns the headers with the body.
    $return_headers: true,
  };
  return await client.request(request) as { data: unknown; headers: unknown };
}

/**
 * The file name from a `content-disposition` header, if any.
 *
 * @example
 * ```ts
 * import { fileNameFromDisposition } from "./_media_calls.ts";
 * if (fileNameFromDisposition('attachment; filename="a b.pdf"') !== "a b.pdf") throw new Error();
 * if (fileNameFromDisposition("attachment; filename*=UTF-8''%E6%96%87.txt") !== "文.txt") throw new Error();
 * if (fileNameFromDisposition('attachment; filename="..%2Fa%20b.mp4"') !== "../a b.mp4") throw new Error();
 * if (fileNameFromDisposition('attachment; filename="100%.txt"') !== "100%.txt") throw new Error();
 * ```
 */
export function fileNameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const star = header.match(/filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // malformed percent-encoding: fall back to the plain filename parameter below
    }
  }
  const plain = header.match(/filename\s*=\s*"([^"]*)"/) ?? header.match(/filename\s*=\s*([^;]+)/);
  const name = plain?.[1]?.trim();
  return name ? percentDecoded(name) : null;
}

/** A plain `filename` that carries percent-escapes (as Feishu sends non-ASCII names), decoded. */
function percentDecoded(name: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(name)) return name;
  try {
    return decodeURIComponent(name);
  } catch {
    return name; // not valid percent-encoding: the name is literal
  }
}
