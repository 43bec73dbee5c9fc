/**
 * Durable file writes: temp file in the same folder, fsync, rename. A reader
 * sees the old file or the new one, never half of it.
 * @module
 */

import { dirname, join } from "node:path";

/**
 * Writes `data` to `path` atomically, creating the parent folder; with
 * `mode`, the file has exactly those permission bits.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.json`, "{}");
 * if (await Deno.readTextFile(`${dir}/a.json`) !== "{}") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { tmpSuffix?: string; mode?: number } = {},
): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  const base = path.slice(dir.length + 1);
  const tmp = join(
    dir,
    options.tmpSuffix ? `${base}${options.tmpSuffix}` : `.${base}.${crypto.randomUUID()}.tmp`,
  );
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  // The mode is set on the temp file, so the renamed file never exists with looser rights.
  const file = await Deno.open(tmp, {
    write: true,
    create: true,
    truncate: true,
    mode: options.mode,
  });
  if (options.mode !== undefined) await Deno.chmod(tmp, options.mode); // past the umask
  try {
    let off = 0;
    while (off < bytes.length) off += await file.write(bytes.subarray(off));
    await file.sync();
  } finally {
    file.close();
  }
  try {
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}
