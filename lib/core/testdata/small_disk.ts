/**
 * A real small disk for tests: a tmpfs of a few MiB (SQLite's WAL alone needs ~4 MiB before it cycles) mounted on a
 * fresh directory (needs root, as the test machine runs), that a test fills
 * with a filler file to make every write fail with ENOSPC / SQLITE_FULL, and
 * frees again. Where mounting is impossible, {@link smallDiskUnavailable}
 * says why, so the test is registered ignored with that reason instead of
 * passing silently.
 * @module
 */

async function run(cmd: string, args: string[]): Promise<{ ok: boolean; text: string }> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stderr).trim();
    return { ok: out.success, text };
  } catch (err) {
    return { ok: false, text: (err as Error).message };
  }
}

/** A mounted tmpfs; `await using` unmounts it (always, also when the test fails). */
export interface SmallDisk extends AsyncDisposable {
  dir: string;
  /** Writes a filler file until the disk is full (every later write fails). */
  fill(): Promise<void>;
  /** Deletes the filler file: writes work again. */
  free(): Promise<void>;
}

/**
 * Why a small disk cannot be mounted here, or null when it can (probed once
 * by mounting and unmounting a tiny tmpfs).
 */
export async function smallDiskUnavailable(): Promise<string | null> {
  if (Deno.build.os !== "linux") return "a tmpfs mount needs Linux";
  const dir = await Deno.makeTempDir({ prefix: "small-disk-probe-" });
  try {
    const mounted = await run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    if (!mounted.ok) return `cannot mount a tmpfs (needs root): ${mounted.text}`;
    await run("umount", [dir]);
    return null;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Mounts a tmpfs of `sizeKb` KiB on a fresh directory. */
export async function mountSmallDisk(sizeKb: number): Promise<SmallDisk> {
  const dir = await Deno.makeTempDir({ prefix: "small-disk-" });
  const mounted = await run("mount", ["-t", "tmpfs", "-o", `size=${sizeKb}k`, "tmpfs", dir]);
  if (!mounted.ok) {
    await Deno.remove(dir, { recursive: true });
    throw new Error(`Expected to mount a tmpfs on ${dir} but found: ${mounted.text}`);
  }
  const filler = `${dir}/filler`;
  return {
    dir,
    async fill() {
      const file = await Deno.open(filler, { write: true, create: true, append: true });
      const block = new Uint8Array(4096);
      try {
        for (;;) await file.write(block);
      } catch (err) {
        if (!(err instanceof Error) || !/No space left|os error 28/.test(err.message)) throw err;
      } finally {
        file.close();
      }
    },
    async free() {
      await Deno.remove(filler).catch(() => {});
    },
    async [Symbol.asyncDispose]() {
      // A process still holding a file keeps the mount busy: detach it lazily then.
      const done = await run("umount", [dir]);
      if (!done.ok) await run("umount", ["-l", dir]);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
