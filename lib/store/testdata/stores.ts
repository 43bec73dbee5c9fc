/**
 * Stores for tests: a fresh one in a temporary workdir, and one as an older
 * version left it (for migration tests). Test-only.
 * @module
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { stateDir, systemClock } from "../../core/mod.ts";
import { MIGRATIONS } from "../migrations.ts";
import { openStore, type Store } from "../mod.ts";

/** Runs `fn` on a fresh store in a temporary workdir, then closes and removes both. */
export async function withStore(
  fn: (store: Store, dir: string) => Promise<void> | void,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const store = openStore(dir, systemClock);
  try {
    await fn(store, dir);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Writes `<dir>/feishu/store.db` as the version before migration number
 * `index` (in `MIGRATIONS`) left it, and returns the open connection.
 */
export async function storeBefore(dir: string, index: number): Promise<DatabaseSync> {
  await Deno.mkdir(stateDir(dir), { recursive: true });
  const old = new DatabaseSync(join(stateDir(dir), "store.db"));
  old.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  old.prepare("INSERT INTO meta (key, value) VALUES ('app', 'feishu-mcp'), ('schema_version', ?)")
    .run(String(MIGRATIONS[index - 1]!.version));
  for (const m of MIGRATIONS.slice(0, index)) old.exec(m.sql);
  return old;
}
