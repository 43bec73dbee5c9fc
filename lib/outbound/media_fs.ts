/**
 * The filesystem facts outbound media validation needs, behind a small seam
 * so the validation itself stays testable: resolve a path, describe a path,
 * and open a file once so that every later check and the read itself go
 * through the same open handle.
 * @module
 */

/** What `stat` reports about a path or an open file. */
export interface MediaStat {
  isFile: boolean;
  size: number;
  /** How many names (hard links) the file has. */
  nlink: number;
  /** The device and inode that identify the file itself, whatever its name. */
  dev: number;
  ino: number;
}

/** A file opened for reading. */
export interface MediaHandle {
  /** Describes the open file (not whatever its path names now). */
  stat(): Promise<MediaStat>;
  /** Reads into `buffer`; the number of bytes read, or null at the end of the file. */
  read(buffer: Uint8Array): Promise<number | null>;
  close(): void;
}

/** Resolves symlinks, describes and opens files; each rejects when the path does not exist. */
export interface MediaFs {
  realPath(path: string): Promise<string>;
  stat(path: string): Promise<MediaStat>;
  open(path: string): Promise<MediaHandle>;
}

function describe(info: Deno.FileInfo): MediaStat {
  return {
    isFile: info.isFile,
    size: info.size,
    // Where the platform does not say, assume the worst: more than one name, no identity.
    nlink: info.nlink ?? Number.MAX_SAFE_INTEGER,
    dev: info.dev,
    ino: info.ino ?? -1,
  };
}

/**
 * The real filesystem, through Deno.
 *
 * @example
 * ```ts
 * import { denoMediaFs } from "./media_fs.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "hi");
 * const file = await denoMediaFs.open(`${dir}/a.txt`);
 * const st = await file.stat();
 * file.close();
 * if (!st.isFile || st.size !== 2 || st.nlink !== 1) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export const denoMediaFs: MediaFs = {
  realPath: (path) => Deno.realPath(path),
  stat: async (path) => describe(await Deno.stat(path)),
  async open(path) {
    const file = await Deno.open(path, { read: true });
    return {
      stat: async () => describe(await file.stat()),
      read: (buffer) => file.read(buffer),
      close: () => file.close(),
    };
  },
};
