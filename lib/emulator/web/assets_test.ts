import assert from "node:assert/strict";
import { createEmulator } from "../emulator.ts";
import { recordedHash, sourceHash } from "./_source_hash.ts";
import { WEB_ASSETS } from "./assets.ts";

Deno.test("WEB_ASSETS: the emulator serves the page at / and its script and styles under /web/", async () => {
  await using emu = createEmulator();
  const get = (path: string) => emu.handle(new Request(`http://emu${path}`));
  const page = await get("/");
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await page.text();
  const refs = [...html.matchAll(/(?:src|href)="\/web\/([^"]+)"/g)].map((m) => m[1] ?? "");
  assert.deepEqual(refs.sort(), ["app.js", "style.css"]);
  for (const name of refs) {
    const res = await get(`/web/${name}`);
    assert.equal(res.status, 200, name);
    assert.equal(await res.text(), WEB_ASSETS[name ?? ""]?.body);
  }
  assert.match(WEB_ASSETS["app.js"]?.type ?? "", /^text\/javascript/);
  assert.match(WEB_ASSETS["style.css"]?.body ?? "", /\.card-btn/);
  assert.equal((await get("/web/nope.js")).status, 404);
});

Deno.test("WEB_ASSETS: app.js was built from the current client/ and render/ sources", async () => {
  const recorded = recordedHash(WEB_ASSETS["app.js"]?.body ?? "");
  assert.equal(
    recorded,
    await sourceHash(),
    "The page bundle is stale: run `deno run --allow-read --allow-write --allow-run lib/emulator/web/build.ts`",
  );
});
