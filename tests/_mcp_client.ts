/**
 * Test-side MCP client shim (kept out of the product's import graph; the
 * client pulls in cross-spawn, which reads the environment at import), and
 * the protocol eras a test client can speak.
 * @module
 */

import { Client } from "@modelcontextprotocol/client";

export { Client };
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/**
 * How a test client opens the connection: `modern` pins revision 2026-07-28
 * (`server/discover`, per-request envelopes: what LingTai's kernel speaks),
 * `legacy` is the `initialize` handshake, `auto` probes and falls back.
 */
export type TestEra = "modern" | "legacy" | "auto";

/** The revision a `modern` client pins. */
export const MODERN_REVISION = "2026-07-28";

/** A client of the given era. */
export function eraClient(name: string, era: TestEra): Client {
  const mode = era === "modern" ? { pin: MODERN_REVISION } : era;
  return new Client({ name, version: "1.0.0" }, { versionNegotiation: { mode } });
}

/**
 * The era tests use when they do not name one: `FEISHU_MCP_TEST_ERA`, else
 * `modern` (the primary client's).
 */
export function defaultEra(): TestEra {
  const named = Deno.env.get("FEISHU_MCP_TEST_ERA");
  return named === "legacy" || named === "auto" ? named : "modern";
}

/**
 * Subscribes to a resource's `resources/updated` the way the client's era
 * does it: `subscriptions/listen` on 2026-07-28, `resources/subscribe` before.
 */
export async function subscribeResource(client: Client, uri: string): Promise<() => Promise<void>> {
  if (client.getNegotiatedProtocolVersion() === MODERN_REVISION) {
    const sub = await client.listen({ resourceSubscriptions: [uri] });
    return () => sub.close();
  }
  await client.subscribeResource({ uri });
  return async () => {
    await client.unsubscribeResource({ uri });
  };
}
