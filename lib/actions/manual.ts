/**
 * `manual`: the embedded agent manual (`reference/manual.md`), verbatim.
 * Works in degraded mode too.
 * @module
 */

import manualText from "../../reference/manual.md" with { type: "text" };

/** The manual split into frontmatter fields and body. */
export interface ManualDoc {
  metadata: Record<string, string>;
  body: string;
  /** The whole file as shipped. */
  text: string;
}

/**
 * Splits a markdown file with a simple `key: value` YAML frontmatter.
 *
 * @example
 * ```ts
 * import { splitFrontmatter } from "./manual.ts";
 * const d = splitFrontmatter("---\nname: x\nversion: 1\n---\n# Body\n");
 * if (d.metadata.name !== "x" || d.body !== "# Body\n") throw new Error();
 * ```
 */
export function splitFrontmatter(text: string): ManualDoc {
  const m = text.match(/^---\n([\s\S]*?)\n---\n?/);
  if (!m) return { metadata: {}, body: text, text };
  const metadata: Record<string, string> = {};
  let key: string | null = null;
  for (const line of m[1]!.split("\n")) {
    const kv = line.match(/^([A-Za-z_][\w-]*):\s*(.*)$/);
    if (kv) {
      key = kv[1]!;
      metadata[key] = kv[2]!.replace(/^["']|["']$/g, "").replace(/^\|$/, "");
    } else if (key && /^\s+\S/.test(line)) {
      metadata[key] = (metadata[key] ? metadata[key] + " " : "") + line.trim();
    }
  }
  return { metadata, body: text.slice(m[0].length), text };
}

/** The shipped manual. */
export const MANUAL: ManualDoc = splitFrontmatter(manualText);

/** The manual as an MCP resource (always available: the text is embedded). */
export const MANUAL_URI = "feishu://manual";

/**
 * Where the manual can be opened: the file in a source checkout, else (a
 * bundle or binary, where only the embedded copy exists) its resource URI.
 */
export function manualPath(): string {
  return cachedPath ??= locateManual();
}

let cachedPath: string | undefined;

function locateManual(): string {
  const path = new URL("../../reference/manual.md", import.meta.url).pathname;
  try {
    return Deno.statSync(path).isFile ? path : MANUAL_URI;
  } catch {
    return MANUAL_URI; // not a source checkout (or not readable): point at the resource
  }
}

/** The `manual` action result. */
export function manualResult(): Record<string, unknown> {
  return {
    status: "ok",
    action: "manual",
    skill: "feishu-mcp-manual",
    metadata: MANUAL.metadata,
    path: manualPath(),
    manual: MANUAL.body,
  };
}
