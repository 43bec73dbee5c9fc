/**
 * The loopback guard of a listening emulator: every request must name the
 * host:port the emulator listens on (`127.0.0.1:<port>` or
 * `localhost:<port>`) in `Host`, and a request that carries an `Origin` must
 * come from that same origin. A web page elsewhere can then neither post to
 * the control plane (its `Origin` is foreign) nor read it through a
 * rebound DNS name (its `Host` is foreign). The node-sdk and the bridge send
 * `Host` = the base URL's host and no `Origin`, so they pass.
 * @module
 */

/** The hosts a listening emulator answers to. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

function refuse(why: string): Response {
  return new Response(JSON.stringify({ error: why }), {
    status: 403,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * A 403 response for a request that is not same-origin on the loopback
 * host, or undefined when it may be served.
 *
 * @example
 * ```ts
 * import { loopbackGuard } from "./same_origin.ts";
 * import assert from "node:assert/strict";
 * const ok = new Request("http://127.0.0.1:8787/__emu/api/state");
 * assert.equal(loopbackGuard(ok, 8787), undefined);
 * const rebound = new Request("http://attacker.example:8787/__emu/api/state");
 * assert.equal(loopbackGuard(rebound, 8787)?.status, 403);
 * ```
 */
export function loopbackGuard(
  req: Request,
  port: number,
  scheme: "http" | "https" = "http",
): Response | undefined {
  const host = (req.headers.get("host") ?? new URL(req.url).host).toLowerCase();
  if (!loopbackHosts(port).includes(host)) {
    return refuse(`Expected the Host header to be 127.0.0.1:${port} or localhost:${port}`);
  }
  const origin = req.headers.get("origin");
  if (origin !== null && origin.toLowerCase() !== `${scheme}://${host}`) {
    return refuse(`Expected the Origin header to be ${scheme}://${host} when present`);
  }
  if (req.headers.get("sec-fetch-site") === "cross-site") {
    return refuse("Expected a same-origin request but found a cross-site one");
  }
  return undefined;
}
