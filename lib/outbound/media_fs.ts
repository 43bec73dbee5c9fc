/**
 * The filesystem facts outbound media validation needs, behind a two-method
 * seam so the validation itself stays pure and testable.
 * @module
 */

/** What `stat` reports about a path. */
export interface MediaStat {
  isFile: boolean;
  size: number;
  /** Whether the file can be opened for reading by this process. */
  readable: boolean;
}

/** Resolves symlinks and describes files; both reject when the path does not exist. */
export interface MediaFs {
  realPath(path: string): Promise<string>;
  stat(path: string): Promise<MediaStat>;
}

/**
 * Whether a file opens for reading. A denial (by the OS or by Deno's
 * permissions) means "not readable"; any other error propagates.
 */
export async function canOpenForReading(path: string): Promise<boolean> {
  try {
    const file = await Deno.open(path, { read: true });
    file.close();
    return true;
  } catch (err) {
    if (
      err instanceof Deno.errors.PermissionDenied || err instanceof Deno.errors.NotCapable ||
      err instanceof Deno.errors.NotFound
    ) return false;
    throw err;
  }
}

/**
 * The real filesystem, through Deno.
 *
 * @example
 * ```ts
 * import { denoMediaFs } from "./media_fs.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "hi");
 * const st = await denoMediaFs.stat(`${dir}/a.txt`);
 * if (!st.isFile || st.size !== 2 || !st.readable) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export const denoMediaFs: MediaFs = {
  realPath: (path) => Deno.realPath(path),
  async stat(path) {
    const info = await Deno.stat(path);
    return {
      isFile: info.isFile,
      size: info.size,
      readable: info.isFile ? await canOpenForReading(path) : false,
    };
  },
};
