/**
 * Normalisation of media content (image, file, audio, video). The content's
 * shape was settled by the tool's zod schema; what is checked here is what the
 * schema does not say about a source: neither a path nor a key may be a URL,
 * and a path must be absolute, free of control characters, inside
 * `media_roots` after resolving symlinks, not one of the server's own files
 * (its config, its state folder, anything under a `.secrets` folder), and a
 * regular file with a single name. The file is opened once: the checks that
 * matter are made on the open handle, and the bytes to upload are read from
 * that same handle, so a path swapped for a symlink meanwhile cannot change
 * what is sent. A `key` source is used verbatim and is never treated as a path.
 * @module
 */

import { isAbsolute, relative } from "node:path";
import { BridgeError } from "../core/mod.ts";
import type { MediaContent, MediaSource } from "../mcp/family/mod.ts";
import type { MediaFs, MediaHandle, MediaStat } from "./media_fs.ts";
import { mediaFileName, mediaPreview, mediaSummary } from "./preview.ts";
import type { MediaUpload, NormalisedContent } from "./types.ts";
import { mediaSizeProblem } from "./upload.ts";

const UPLOAD_TYPE = { image: "image", file: "stream", audio: "opus", video: "mp4" } as const;

function invalid(message: string): BridgeError {
  return new BridgeError("INVALID_ARGUMENT", message);
}

/**
 * The server's own files, refused as content even inside `media_roots`
 * (compared on real paths, so a symlink to one is refused too).
 */
export interface OwnFiles {
  /**
   * The state folder (`<workdir>/feishu/`): the store, the journal, the lock
   * and everything else in it, except the attachments downloaded from chats
   * (`<state>/<account>/attachments/…`), which may be sent on.
   */
  stateDir: string;
  /** The config file, when the server was started with one. */
  configPath?: string | null;
}

/** Filesystem access, the allowed roots and the server's own files, needed only for path sources. */
export interface MediaContext {
  mediaRoots?: readonly string[];
  fs?: MediaFs;
  ownFiles?: OwnFiles;
}

/** Checks the source of one media content value, reads a path source, and plans its upload. */
export async function normaliseMedia(
  content: MediaContent,
  context: MediaContext,
): Promise<NormalisedContent> {
  const { type, source } = content;
  checkSource(source);
  const caption = "caption" in content ? content.caption : undefined;
  const fileName = "file_name" in content ? content.file_name : undefined;
  const captioned = caption !== undefined && caption.trim() !== "";
  const name = mediaFileName(source, fileName);
  const read = source.type === "path"
    ? await readPath(source.path, context, { fileType: UPLOAD_TYPE[type], fileName: name! })
    : undefined;
  const result: NormalisedContent = {
    type,
    recordContent: structuredClone(content),
    previewText: mediaPreview({ type, source, caption, fileName }),
    messageType: captioned && (type === "image" || type === "video") ? "post" : type,
    media: { type, source: { ...source } },
    mediaSummary: mediaSummary({ type, source, fileName, size: read?.bytes.length }),
  };
  if (captioned) result.media!.caption = caption;
  if (read !== undefined) {
    result.media!.upload = {
      path: read.realPath,
      bytes: read.bytes,
      fileName: name!,
      fileType: UPLOAD_TYPE[type],
    };
  }
  return result;
}

/** The first control character (C0, DEL or C1) in `text`, as its index and code point. */
function controlCharacter(text: string): { index: number; code: number } | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return { index: i, code };
  }
  return undefined;
}

function checkSource(source: MediaSource): void {
  const raw = source.type === "path" ? source.path : source.key;
  const control = source.type === "path" ? controlCharacter(raw) : undefined;
  if (control !== undefined) {
    const hex = control.code.toString(16).toUpperCase().padStart(4, "0");
    throw invalid(
      `content.source.path must not contain control characters but found U+${hex} ` +
        `at position ${control.index}`,
    );
  }
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

/** Whether an error says the path is missing or may not be read (the named fallbacks). */
function missingOrDenied(err: unknown): boolean {
  return err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied;
}

/** Resolves a path, or undefined when it does not resolve (the named fallback). */
async function realPathOrUndefined(fs: MediaFs, path: string): Promise<string | undefined> {
  try {
    return await fs.realPath(path);
  } catch (err) {
    if (missingOrDenied(err)) return undefined;
    throw err;
  }
}

/** Describes a path, or undefined when it does not exist or may not be read. */
async function statOrUndefined(fs: MediaFs, path: string): Promise<MediaStat | undefined> {
  try {
    return await fs.stat(path);
  } catch (err) {
    if (missingOrDenied(err)) return undefined;
    throw err;
  }
}

/** A path's real path for comparing it with the checked one; the path itself when it does not resolve. */
async function comparable(fs: MediaFs, path: string): Promise<string> {
  try {
    return await fs.realPath(path);
  } catch (err) {
    if (missingOrDenied(err) || err instanceof Deno.errors.NotCapable) return path;
    throw err;
  }
}

function outsideRoots(mediaRoots: readonly string[], found: string): BridgeError {
  return invalid(
    `Expected content.source.path to be inside media_roots (${mediaRoots.join(", ")}) ` +
      `but found ${found}`,
  );
}

function ownFile(what: string, real: string): BridgeError {
  return invalid(
    "Expected content.source.path to name a media file but found one of the server's own " +
      `files (${what}), which is never sent: ${real}`,
  );
}

function changed(real: string): BridgeError {
  return invalid(
    `content.source.path changed while it was being checked (${real}); ` +
      "send it again once it stays the same",
  );
}

/** What each file directly in the state folder is, by its name's start. */
const STATE_FILES: readonly [prefix: string, what: string][] = [
  ["store.db", "the store"],
  ["queue.kv", "the journal"],
  ["server.lock", "the lock file"],
];

/** Refuses the server's own files: anything under `.secrets`, the config, the state folder. */
async function refuseOwnFiles(
  fs: MediaFs,
  given: string,
  real: string,
  own: OwnFiles | undefined,
): Promise<void> {
  if ([...given.split("/"), ...real.split("/")].includes(".secrets")) {
    throw ownFile("a file under .secrets/", real);
  }
  if (own === undefined) return;
  if (own.configPath && real === await comparable(fs, own.configPath)) {
    throw ownFile("the config file", real);
  }
  const state = await comparable(fs, own.stateDir);
  if (!inside(state, real)) return;
  const parts = relative(state, real).split("/");
  // `<state>/<account>/attachments/<message>/<file>`: a file downloaded from a chat.
  if (parts.length >= 4 && parts[1] === "attachments") return;
  const named = parts.length === 1 ? STATE_FILES.find(([p]) => parts[0]!.startsWith(p)) : undefined;
  throw ownFile(named?.[1] ?? "a file in the state folder", real);
}

/** Opens a file for reading, or undefined when it is missing or the OS denies it. */
async function openOrUndefined(fs: MediaFs, path: string): Promise<MediaHandle | undefined> {
  try {
    return await fs.open(path);
  } catch (err) {
    if (missingOrDenied(err)) return undefined;
    throw err;
  }
}

/**
 * Reads exactly `size` bytes from an open file; a file that turns out
 * shorter or longer changed while it was read.
 */
async function readExactly(
  file: MediaHandle,
  size: number,
  real: string,
  fileName: string,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let at = 0;
  let more: number | null;
  try {
    while (at < size) {
      const n = await file.read(bytes.subarray(at));
      if (n === null) break;
      at += n;
    }
    more = at === size ? await file.read(new Uint8Array(1)) : null;
  } catch (err) {
    throw new BridgeError(
      "UPLOAD_FAILED",
      `Could not read ${fileName} for upload: ${err instanceof Error ? err.message : err}`,
      { cause: err, context: { operation: "upload" } },
    );
  }
  if (at !== size || more !== null) throw changed(real);
  return bytes;
}

/**
 * Checks a path source and reads it. The path is resolved and checked
 * against `media_roots` and the server's own files; then its real path is
 * opened once, and on that handle: a regular file, still the file the real
 * path names (same device and inode, real path unchanged), one name only (a
 * hard link can lead outside the roots), and within Feishu's size limit.
 * The bytes come from the same handle, which is closed on every path.
 */
async function readPath(
  path: string,
  context: MediaContext,
  upload: Pick<MediaUpload, "fileType" | "fileName">,
): Promise<{ realPath: string; bytes: Uint8Array }> {
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
  await refuseOwnFiles(fs, path, real, context.ownFiles);
  try {
    return await readChecked(fs, real, upload);
  } catch (err) {
    // The real path was inside the roots a moment ago; leading outside them now, it was swapped.
    if (err instanceof Deno.errors.NotCapable) throw changed(real);
    throw err;
  }
}

/**
 * Opens a checked real path once and reads it, with the remaining checks
 * made on the open handle.
 */
async function readChecked(
  fs: MediaFs,
  real: string,
  upload: Pick<MediaUpload, "fileType" | "fileName">,
): Promise<{ realPath: string; bytes: Uint8Array }> {
  const unreadable = invalid("content.source.path must name a readable file");
  // Only a regular file is opened: opening a FIFO would wait for a writer.
  if (!(await statOrUndefined(fs, real))?.isFile) throw unreadable;
  const file = await openOrUndefined(fs, real);
  if (file === undefined) throw unreadable;
  try {
    const st = await file.stat();
    if (!st.isFile) throw unreadable;
    const now = await realPathOrUndefined(fs, real);
    const named = now === real ? await statOrUndefined(fs, real) : undefined;
    if (named === undefined || st.ino < 0 || named.dev !== st.dev || named.ino !== st.ino) {
      throw changed(real);
    }
    if (st.nlink !== 1) {
      throw invalid(
        `Expected content.source.path to name a file with one name but found ${st.nlink} ` +
          `hard links to ${real}; a hard link can lead outside media_roots, so send a copy`,
      );
    }
    const problem = mediaSizeProblem(upload.fileType, upload.fileName, st.size);
    if (problem !== undefined) throw problem;
    return { realPath: real, bytes: await readExactly(file, st.size, real, upload.fileName) };
  } finally {
    file.close();
  }
}
