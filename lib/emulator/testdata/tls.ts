/**
 * The emulator's TEST-ONLY TLS material (see `tls/README.md`): a server
 * certificate for 127.0.0.1 / localhost and the throwaway CA that signed it,
 * plus the environment that makes a Deno subprocess trust that CA.
 * @module
 */

import { fileURLToPath as fromFileUrl } from "node:url";
import type { EmulatorTls } from "../emulator.ts";

/** Absolute path of the test CA certificate (PEM). */
export const TEST_CA_PATH = fromFileUrl(new URL("./tls/ca.pem", import.meta.url));

/** The listener's certificate and key, for `startEmulator({ tls })`. */
export function testTls(): EmulatorTls {
  return {
    cert: Deno.readTextFileSync(fromFileUrl(new URL("./tls/server.pem", import.meta.url))),
    key: Deno.readTextFileSync(fromFileUrl(new URL("./tls/server.key", import.meta.url))),
  };
}

/**
 * Environment for a subprocess that must trust the test CA: `node:https`
 * (the node-sdk's axios and WebSocket) reads `NODE_EXTRA_CA_CERTS`, Deno's
 * own `fetch` reads `DENO_CERT`.
 */
export function trustTestCa(): Record<string, string> {
  return { NODE_EXTRA_CA_CERTS: TEST_CA_PATH, DENO_CERT: TEST_CA_PATH };
}
