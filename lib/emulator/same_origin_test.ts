import assert from "node:assert/strict";
import { loopbackGuard } from "./same_origin.ts";

function req(headers: Record<string, string>, method = "GET"): Request {
  const r = new Request("http://127.0.0.1:8787/__emu/api/send", { method, headers });
  return r;
}

Deno.test("loopbackGuard() serves the loopback host:port it listens on, with or without its own Origin", () => {
  for (const host of ["127.0.0.1:8787", "localhost:8787", "LOCALHOST:8787"]) {
    assert.equal(loopbackGuard(req({ host }), 8787), undefined, host);
    assert.equal(loopbackGuard(req({ host, origin: `http://${host}` }, "POST"), 8787), undefined);
    assert.equal(loopbackGuard(req({ host, "sec-fetch-site": "same-origin" }), 8787), undefined);
  }
});

Deno.test("loopbackGuard() refuses a foreign Host: a rebound name, another port, a bare address", () => {
  for (const host of ["attacker.example:8787", "127.0.0.1:9999", "127.0.0.1", "0.0.0.0:8787"]) {
    assert.equal(loopbackGuard(req({ host }), 8787)?.status, 403, host);
  }
});

Deno.test("loopbackGuard() refuses a foreign, null or mismatched Origin and a cross-site fetch", async () => {
  const host = "127.0.0.1:8787";
  for (
    const origin of [
      "http://attacker.example",
      "null",
      "http://localhost:8787",
      "https://127.0.0.1:8787",
    ]
  ) {
    const res = loopbackGuard(req({ host, origin }, "POST"), 8787);
    assert.equal(res?.status, 403, origin);
    assert.match((await res!.json()).error, /Origin/);
  }
  assert.equal(loopbackGuard(req({ host, "sec-fetch-site": "cross-site" }), 8787)?.status, 403);
});
