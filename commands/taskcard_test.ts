import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { applyTaskcard, fileTaskcardStore, type TaskcardStore } from "./taskcard.ts";
import { cleanup, put, tempAgent } from "./testdata/agent_dir.ts";

const file = (dir: string) => join(dir, "feishu", "taskcard.json");

Deno.test("/taskcard off and /taskcard 7 update and persist the preference", async () => {
  const dir = await tempAgent();
  const store = fileTaskcardStore(dir);
  deepEqual(await applyTaskcard("/taskcard", store), {
    status: "ok",
    enabled: true,
    normalRows: 1,
  });
  deepEqual(await applyTaskcard("/taskcard@SomeBot off", store), {
    status: "ok",
    enabled: false,
    normalRows: 1,
  });
  deepEqual(await applyTaskcard("/taskcard 7", store), {
    status: "ok",
    enabled: false,
    normalRows: 7,
  });
  equal(await Deno.readTextFile(file(dir)), '{\n  "taskcard": false,\n  "normal_rows": 7\n}');
  // A new store (a restart) reads the same.
  deepEqual(await fileTaskcardStore(dir).load(), { enabled: false, normalRows: 7 });
  deepEqual(await applyTaskcard("/taskcard 05", store), {
    status: "ok",
    enabled: false,
    normalRows: 5,
  });
  deepEqual(await applyTaskcard("/taskcard ON", store), {
    status: "ok",
    enabled: true,
    normalRows: 5,
  });
  await cleanup(dir);
});

Deno.test("bad /taskcard arguments are usage errors and change nothing", async () => {
  const dir = await tempAgent();
  const store = fileTaskcardStore(dir);
  await applyTaskcard("/taskcard 3", store);
  for (
    const t of [
      "/taskcard help",
      "/taskcard 0",
      "/taskcard 11",
      "/taskcard ２",
      "/taskcard on extra",
      "/taskcard -1",
      "/taskcard 2.0",
    ]
  ) {
    deepEqual(await applyTaskcard(t, store), { status: "usage" }, t);
  }
  deepEqual(await store.load(), { enabled: true, normalRows: 3 });
  await cleanup(dir);
});

Deno.test("a failing setter gives update_failed and leaves the state alone", async () => {
  const store: TaskcardStore = {
    load: () => Promise.resolve({ enabled: true, normalRows: 2 }),
    setEnabled: () => Promise.reject(new Error("disk full")),
    setNormalRows: () => Promise.reject(new Error("disk full")),
  };
  deepEqual(await applyTaskcard("/taskcard off", store), { status: "update_failed" });
  deepEqual(await applyTaskcard("/taskcard 9", store), { status: "update_failed" });
  deepEqual(await store.load(), { enabled: true, normalRows: 2 });
  // A real write failure: feishu/ is a file.
  const dir = await tempAgent();
  await put(join(dir, "feishu"), "not a folder");
  const real = fileTaskcardStore(dir);
  deepEqual(await applyTaskcard("/taskcard 4", real), { status: "update_failed" });
  deepEqual(await real.load(), { enabled: true, normalRows: 1 });
  await cleanup(dir);
});

Deno.test("an invalid preference file falls back per field to the defaults", async () => {
  const dir = await tempAgent();
  const warnings: string[] = [];
  const store = fileTaskcardStore(dir, (m) => warnings.push(m));
  for (
    const [text, want] of [
      ["{", { enabled: true, normalRows: 1 }],
      ["[]", { enabled: true, normalRows: 1 }],
      ['{"taskcard": 0, "normal_rows": true}', { enabled: true, normalRows: 1 }],
      ['{"taskcard": false, "normal_rows": 11}', { enabled: false, normalRows: 1 }],
      ['{"taskcard": false, "normal_rows": 2.5}', { enabled: false, normalRows: 1 }],
      ['{"taskcard": false, "normal_rows": 10}', { enabled: false, normalRows: 10 }],
    ] as const
  ) {
    await put(file(dir), text);
    deepEqual(await store.load(), want, text);
  }
  equal(warnings.length, 2);
  await cleanup(dir);
});
