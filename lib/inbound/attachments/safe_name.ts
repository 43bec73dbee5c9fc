/**
 * Safe local file names for downloaded attachments: never a path,
 * never a reserved character, always a usable suffix, bounded length, and
 * unique within one message.
 * @module
 */

import { createHash } from "node:crypto";
import { codePointLength, isFeishuId, utf8Length } from "../../core/mod.ts";
import type { AttachmentType } from "../../store/mod.ts";

/** Longest name in code points. */
export const MAX_NAME_CHARS = 180;
/** A suffix (from the last dot) longer than this is not kept as a suffix. */
export const MAX_SUFFIX_CHARS = 16;
/** Longest name in UTF-8 bytes (common file systems stop at 255). */
export const MAX_NAME_BYTES = 255;

const DEFAULT_SUFFIX: Record<AttachmentType, string> = {
  image: ".jpg",
  audio: ".ogg",
  video: ".mp4",
  sticker: ".png",
  file: ".bin",
};

// Control characters and the characters Windows and shells treat specially.
// deno-lint-ignore no-control-regex
const UNSAFE_RUN = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;

/** Input of {@link safeFileName}. */
export interface SafeNameOptions {
  type: AttachmentType;
  /** 1-based position of the attachment in its message. */
  index: number;
  /** File name the download reported, preferred when present. */
  providerName?: string | null;
  /** File name from the message content. */
  fileName?: string | null;
}

/**
 * Chooses the local file name of one attachment: the provider's name, else the
 * content's; last path segment only; unsafe runs become `_`; trailing spaces
 * and dots go; an empty result becomes `<type>-<index>`; media types get their
 * default suffix when they have none (`file` only for the fallback name); at
 * most 180 code points (and 255 bytes), keeping a suffix of ≤ 16 characters.
 *
 * @example
 * ```ts
 * import { safeFileName } from "./safe_name.ts";
 * import assert from "node:assert/strict";
 * assert.equal(safeFileName({ type: "video", index: 1, providerName: "../../clip.mp4" }), "clip.mp4");
 * assert.equal(safeFileName({ type: "audio", index: 1, fileName: "" }), "audio-1.ogg");
 * assert.equal(safeFileName({ type: "file", index: 2 }), "file-2.bin");
 * assert.equal(safeFileName({ type: "image", index: 1, fileName: "a:b" }), "a_b.jpg");
 * ```
 */
export function safeFileName(options: SafeNameOptions): string {
  const source = options.providerName || options.fileName || "";
  const segments = source.replaceAll("\\", "/").split("/");
  let name = (segments[segments.length - 1] ?? "").replace(UNSAFE_RUN, "_");
  name = name.trim().replace(/[ .]+$/, "");
  const suffix = DEFAULT_SUFFIX[options.type];
  if (name === "" || name === "." || name === "..") {
    name = `${options.type}-${options.index}${suffix}`;
  } else if (options.type !== "file" && suffixOf(name) === "") {
    name += suffix;
  }
  return capName(name);
}

/**
 * The folder name of one message's attachments: its Feishu message id when it
 * is spelled like one (letters, digits, `_`, `-`), else `unsafe.` and 32 hex
 * digits of its SHA-256, so an id such as `../../..` or `a/b` stays one
 * folder inside `attachments/`. The `.` keeps a mapped name apart from every
 * real id.
 *
 * @example
 * ```ts
 * import { safeFolderName } from "./safe_name.ts";
 * import assert from "node:assert/strict";
 * assert.equal(safeFolderName("om_emu_0001"), "om_emu_0001");
 * assert.match(safeFolderName("../../.."), /^unsafe\.[0-9a-f]{32}$/);
 * assert.equal(safeFolderName("a/b"), safeFolderName("a/b"));
 * assert.notEqual(safeFolderName("a/b"), safeFolderName("a\\b"));
 * ```
 */
export function safeFolderName(messageId: string): string {
  if (isFeishuId(messageId)) return messageId;
  return `unsafe.${createHash("sha256").update(messageId).digest("hex").slice(0, 32)}`;
}

/**
 * Makes `name` unique against `taken` by adding `-2`, `-3`, … before the
 * suffix, and records the result in `taken`.
 *
 * @example
 * ```ts
 * import { uniqueName } from "./safe_name.ts";
 * import assert from "node:assert/strict";
 * const taken = new Set<string>();
 * assert.deepEqual(
 *   ["a.txt", "a.txt", "a.txt"].map((n) => uniqueName(n, taken)),
 *   ["a.txt", "a-2.txt", "a-3.txt"],
 * );
 * ```
 */
export function uniqueName(name: string, taken: Set<string>): string {
  const suffix = suffixOf(name);
  const stem = name.slice(0, name.length - suffix.length);
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = fitName(stem, `-${n}${suffix}`);
  taken.add(candidate);
  return candidate;
}

/** The suffix from the last dot (not a leading dot), if ≤ 16 characters. */
function suffixOf(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "";
  const suffix = name.slice(dot);
  return codePointLength(suffix) <= MAX_SUFFIX_CHARS ? suffix : "";
}

/** Cuts a name to both caps, keeping its suffix. */
function capName(name: string): string {
  const suffix = suffixOf(name);
  return fitName(name.slice(0, name.length - suffix.length), suffix);
}

/** `stem + tail`, the stem cut (never the tail) until both caps hold. */
function fitName(stem: string, tail: string): string {
  const cps = Array.from(stem);
  let keep = Math.min(cps.length, MAX_NAME_CHARS - codePointLength(tail));
  while (keep > 0 && utf8Length(cps.slice(0, keep).join("") + tail) > MAX_NAME_BYTES) keep--;
  return cps.slice(0, Math.max(0, keep)).join("") + tail;
}
