import assert from "node:assert/strict";
import { systemClock, type WorkerKind, workerName } from "../core/mod.ts";
import { openStore, type SearchJob } from "../store/mod.ts";

// The entry module unbundled: the dispatch on the worker's name and the
// registration of each kind, without building a bundle (tests/bundle_test.ts
// runs the built one).
const ENTRY = new URL("./entry.ts", import.meta.url);

/** Starts the entry as a worker of `kind` and collects what it posts. */
function startEntry(kind: WorkerKind): { worker: Worker; next(): Promise<unknown> } {
  const worker = new Worker(ENTRY, { type: "module", name: workerName(kind) });
  const inbox: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  worker.onmessage = (e) => {
    const w = waiting.shift();
    if (w) w(e.data);
    else inbox.push(e.data);
  };
  return {
    worker,
    next: () => inbox.length ? Promise.resolve(inbox.shift()) : new Promise((r) => waiting.push(r)),
  };
}

Deno.test("the bundle entry, started as a search worker, answers a job posted as soon as it is started", async () => {
  const workdir = await Deno.makeTempDir();
  const store = openStore(workdir, systemClock);
  store.close();
  const { worker, next } = startEntry("search");
  try {
    const job: SearchJob = {
      id: 7,
      dbPath: store.path,
      account: "main",
      chatId: null,
      pattern: "x",
      flags: "i",
      cap: 5,
    };
    worker.postMessage(job);
    assert.deepEqual(await next(), { ready: true });
    assert.deepEqual(await next(), { id: 7, type: "started" });
    assert.deepEqual(await next(), { id: 7, type: "done", total: 0 });
  } finally {
    worker.terminate();
    await Deno.remove(workdir, { recursive: true });
  }
});

Deno.test("the bundle entry, started as a decode worker, decodes Ogg Opus", async () => {
  const voice = await Deno.readFile(
    new URL("../../tests/fixtures/voice_hello.ogg", import.meta.url),
  );
  const { worker, next } = startEntry("decode");
  try {
    assert.deepEqual(await next(), { ready: true });
    worker.postMessage({ id: 1, audio: voice.buffer }, [voice.buffer]);
    const answer = await next() as { id: number; ok: boolean; durationSeconds: number };
    assert.deepEqual([answer.id, answer.ok, answer.durationSeconds], [1, true, 1.71]);
  } finally {
    worker.terminate();
  }
});
