/**
 * The fingerprint of what `_app_bundle.js` is built from: every non-test
 * source of `client/` and `render/` and the pinned versions of the markdown
 * packages. `build.ts` writes it into the bundle's header and
 * `bundle_test.ts` checks it, so a stale bundle fails CI.
 * @module
 */

import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** This folder on disk. */
export const WEB_DIR: string = dirname(fileURLToPath(import.meta.url));

/** The generated bundle. */
export const BUNDLE_PATH: string = join(WEB_DIR, "_app_bundle.js");

/** The header line that carries the fingerprint. */
export const HASH_PREFIX = "// source-hash: ";

const SOURCE_DIRS = ["client", "render"];
const PACKAGES = ["mdast-util-from-markdown", "mdast-util-gfm", "micromark-extension-gfm"];

async function sources(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for await (const e of Deno.readDir(join(WEB_DIR, dir))) {
      if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        files.push(join(WEB_DIR, dir, e.name));
      }
    }
  }
  return files.sort();
}

/** The hex SHA-256 over the sources and the pinned package versions. */
export async function sourceHash(): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(join(WEB_DIR, "../../../deno.json"))) as {
    imports?: Record<string, string>;
  };
  let text = PACKAGES.map((p) => `${p}=${config.imports?.[p] ?? "?"}\n`).join("");
  for (const file of await sources()) {
    text += `${relative(WEB_DIR, file)}\0${await Deno.readTextFile(file)}\0`;
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The fingerprint recorded in a bundle's header, or undefined.
 *
 * @example
 * ```ts
 * import { recordedHash } from "./_source_hash.ts";
 * if (recordedHash("// x\n// source-hash: ab12\ncode") !== "ab12") throw new Error();
 * if (recordedHash("code") !== undefined) throw new Error();
 * ```
 */
export function recordedHash(bundle: string): string | undefined {
  const line = bundle.split("\n", 6).find((l) => l.startsWith(HASH_PREFIX));
  return line?.slice(HASH_PREFIX.length).trim();
}
