import assert from "node:assert/strict";
import { currentWorkerKind, serveWorker, spawnWorker, startWorkersFrom } from "./worker.ts";

const WHOAMI = new URL("../../tests/fixtures/whoami_worker.ts", import.meta.url);

function firstMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve) => {
    worker.onmessage = (e) => {
      worker.terminate();
      resolve(e.data);
    };
  });
}

Deno.test("spawnWorker() starts a worker's source module, named after its kind", async () => {
  const answer = await firstMessage(spawnWorker("search", { source: WHOAMI }));
  assert.deepEqual(answer, {
    url: WHOAMI.href,
    name: "feishu-mcp:search",
    kind: "search",
    served: false,
  });
});

Deno.test("spawnWorker() starts the bundle's own module once the bundle says so", async () => {
  const self = new URL(`${WHOAMI.href}?as-bundle`);
  startWorkersFrom(self);
  try {
    const answer = await firstMessage(
      spawnWorker("decode", { source: new URL("./missing_worker.ts", import.meta.url) }),
    );
    assert.deepEqual(answer, {
      url: self.href,
      name: "feishu-mcp:decode",
      kind: "decode",
      served: true,
    });
  } finally {
    startWorkersFrom(null);
  }
});

Deno.test("serveWorker() does nothing on the main thread", () => {
  assert.equal(currentWorkerKind(), null);
  serveWorker("search", () => assert.fail("served on the main thread"));
});
