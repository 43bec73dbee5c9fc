/**
 * Normalisation of media content (image, file, audio, video). The content's
 * shape was settled by the tool's zod schema; what is checked here is what the
 * schema does not say about a source: neither a path nor a key may be a URL,
 * and a path must be absolute, inside `media_roots` after resolving symlinks,
 * and a readable regular file. A `key` source is used verbatim and is never
 * treated as a path.
 * @module
 */

import { isAbsolute, relative } from "node:path";
import { BridgeError } from "../core/mod.ts";
import type { MediaContent, MediaSource } from "../mcp/family/mod.ts";
import type { MediaFs } from "./media_fs.ts";
import { mediaFileName, mediaPreview, mediaSummary } from "./preview.ts";
import type { NormalisedContent } from "./types.ts";

const UPLOAD_TYPE = { image: "image", file: "stream", audio: "opus", video: "mp4" } as const;

function invalid(message: string): BridgeError {
  return new BridgeError("INVALID_ARGUMENT", message);
}

/** Filesystem access and the allowed roots, needed only for path sources. */
export interface MediaContext {
  mediaRoots?: readonly string[];
  fs?: MediaFs;
}

/** Checks the source of one media content value and plans its upload. */
export async function normaliseMedia(
  content: MediaContent,
  context: MediaContext,
): Promise<NormalisedContent> {
  const { type, source } = content;
  checkSource(source);
  const caption = "caption" in content ? content.caption : undefined;
  const fileName = "file_name" in content ? content.file_name : undefined;
  const captioned = caption !== undefined && caption.trim() !== "";
  const size = source.type === "path" ? await checkPath(source.path, context) : undefined;
  const name = mediaFileName(source, fileName);
  const result: NormalisedContent = {
    type,
    recordContent: structuredClone(content),
    previewText: mediaPreview({ type, source, caption, fileName }),
    messageType: captioned && (type === "image" || type === "video") ? "post" : type,
    media: { type, source: { ...source } },
    mediaSummary: mediaSummary({ type, source, fileName, size: size?.size }),
  };
  if (captioned) result.media!.caption = caption;
  if (size !== undefined) {
    result.media!.upload = { path: size.realPath, fileName: name!, fileType: UPLOAD_TYPE[type] };
  }
  return result;
}

function checkSource(source: MediaSource): void {
  const raw = source.type === "path" ? source.path : source.key;
  if (/^https?:\/\//i.test(raw)) throw invalid("content.source does not support URLs");
  if (source.type === "path" && !isAbsolute(raw)) {
    throw invalid("content.source.path must be absolute");
  }
}

/** Whether `path` lies strictly inside `root` (both already real paths). */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && rel !== ".." && !rel.startsWith("../") && !isAbsolute(rel);
}

/** Resolves a path, or undefined when it does not resolve (the named fallback). */
async function realPathOrUndefined(fs: MediaFs, path: string): Promise<string | undefined> {
  try {
    return await fs.realPath(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw err;
  }
}

function outsideRoots(mediaRoots: readonly string[], found: string): BridgeError {
  return invalid(
    `Expected content.source.path to be inside media_roots (${mediaRoots.join(", ")}) ` +
      `but found ${found}`,
  );
}

async function checkPath(
  path: string,
  context: MediaContext,
): Promise<{ realPath: string; size: number }> {
  const { fs, mediaRoots } = context;
  if (fs === undefined || mediaRoots === undefined) {
    throw new TypeError("Expected mediaRoots and fs to check a media path but found none");
  }
  const unreadable = invalid("content.source.path must name a readable file");
  let real: string | undefined;
  try {
    real = await realPathOrUndefined(fs, path);
  } catch (err) {
    // Deno's permissions cover exactly the media roots: a path they deny is outside them.
    if (err instanceof Deno.errors.NotCapable) throw outsideRoots(mediaRoots, path);
    throw err;
  }
  if (real === undefined) throw unreadable;
  const roots: string[] = [];
  for (const root of mediaRoots) {
    const r = await realPathOrUndefined(fs, root);
    if (r !== undefined) roots.push(r);
  }
  if (!roots.some((root) => inside(root, real))) throw outsideRoots(mediaRoots, real);
  const st = await fs.stat(real);
  if (!st.isFile || !st.readable) throw unreadable;
  return { realPath: real, size: st.size };
}
