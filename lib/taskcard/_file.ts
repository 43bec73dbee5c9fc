/**
 * Bounded reads of the agent's files (events log, slot, runtime state): open,
 * read what is asked, always close; a file that cannot be opened is null.
 * @module
 */

/** Runs `fn` on `path` opened for reading; null when it cannot be opened. */
export async function withFile<T>(
  path: string,
  fn: (file: Deno.FsFile) => Promise<T>,
): Promise<T | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return null;
  }
  try {
    return await fn(file);
  } finally {
    file.close();
  }
}

/** Up to `length` bytes at `position`; fewer when the file is shorter. */
export async function readAt(
  file: Deno.FsFile,
  position: number,
  length: number,
): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  await file.seek(position, Deno.SeekMode.Start);
  let got = 0;
  while (got < length) {
    const n = await file.read(buf.subarray(got));
    if (n === null) break;
    got += n;
  }
  return buf.subarray(0, got);
}
