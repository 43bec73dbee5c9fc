/**
 * The attachment descriptor list of a message: resources the
 * converters found, else a fallback read from the content JSON, de-duplicated,
 * with a `cover` image inserted after each video that has one.
 * @module
 */

import type { AttachmentDescriptor, AttachmentType } from "../../store/mod.ts";

const ATTACHMENT_TYPES: ReadonlySet<string> = new Set([
  "image",
  "file",
  "audio",
  "video",
  "sticker",
]);

/** A resource a converter found in a message (`media` means video). */
export interface ResourceRef {
  type: AttachmentType | "media";
  file_key: string;
  file_name?: string;
  duration_ms?: number;
  cover_image_key?: string;
}

/** Input of {@link buildDescriptors}. */
export interface DescriptorSource {
  /** Wire `message_type` of the message. */
  messageType: string;
  /** The parsed content JSON (used only when `resources` yields nothing). */
  content?: unknown;
}

/**
 * Builds the descriptor list: (1) keep resources of a downloadable type with
 * a key; (2) if none, read the content JSON of a media message; (3) drop
 * repeats of (type, key) and insert each video's cover image after it.
 *
 * @example Video with a cover
 * ```ts
 * import { buildDescriptors } from "./descriptors.ts";
 * import assert from "node:assert/strict";
 * const d = buildDescriptors([], {
 *   messageType: "media",
 *   content: { file_key: "v1", image_key: "img1", file_name: "clip.mp4" },
 * });
 * assert.deepEqual(d.map((x) => [x.type, x.file_key, x.role]), [
 *   ["video", "v1", undefined],
 *   ["image", "img1", "cover"],
 * ]);
 * ```
 */
export function buildDescriptors(
  resources: readonly ResourceRef[],
  source: DescriptorSource,
): AttachmentDescriptor[] {
  let list = resources.flatMap((r) => fromResource(r));
  if (list.length === 0) list = fromContent(source);
  return withCovers(dedupe(list));
}

/** Step 1: one resource → zero or one descriptor. */
function fromResource(r: ResourceRef): AttachmentDescriptor[] {
  const type = r.type === "media" ? "video" : r.type;
  if (!ATTACHMENT_TYPES.has(type) || typeof r.file_key !== "string" || r.file_key === "") {
    return [];
  }
  return [descriptor(type, r.file_key, r)];
}

/** Step 2: the content JSON of an image/file/audio/video/sticker message. */
function fromContent(source: DescriptorSource): AttachmentDescriptor[] {
  const type = source.messageType === "media" ? "video" : source.messageType;
  const c = source.content;
  if (!ATTACHMENT_TYPES.has(type) || typeof c !== "object" || c === null) return [];
  const obj = c as Record<string, unknown>;
  const key = type === "image" ? str(obj.image_key) ?? str(obj.file_key) : str(obj.file_key);
  if (!key) return [];
  return [descriptor(type as AttachmentType, key, {
    file_name: str(obj.file_name),
    duration_ms: num(obj.duration_ms) ?? num(obj.duration),
    cover_image_key: type === "video" ? str(obj.image_key) : undefined,
  })];
}

/** Step 3a: first occurrence of each (type, key) wins. */
function dedupe(list: AttachmentDescriptor[]): AttachmentDescriptor[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const id = `${d.type}\u0000${d.file_key}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Step 3b: a cover image right after its video, unless that image is listed. */
function withCovers(list: AttachmentDescriptor[]): AttachmentDescriptor[] {
  const images = new Set(list.filter((d) => d.type === "image").map((d) => d.file_key));
  const out: AttachmentDescriptor[] = [];
  for (const d of list) {
    out.push(d);
    const cover = d.cover_image_key;
    if (cover && !images.has(cover)) {
      images.add(cover);
      out.push({ type: "image", file_key: cover, role: "cover", parent_file_key: d.file_key });
    }
  }
  return out;
}

/** A descriptor with only the optional members that are set. */
function descriptor(
  type: AttachmentType,
  fileKey: string,
  extra: { file_name?: string; duration_ms?: number; cover_image_key?: string },
): AttachmentDescriptor {
  const d: AttachmentDescriptor = { type, file_key: fileKey };
  if (extra.file_name != null) d.file_name = extra.file_name;
  if (extra.duration_ms != null) d.duration_ms = extra.duration_ms;
  if (extra.cover_image_key != null) d.cover_image_key = extra.cover_image_key;
  return d;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function num(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\d+(\.\d+)?$/.test(v)) return Number(v);
  return undefined;
}
