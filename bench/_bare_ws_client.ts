/**
 * The inbound baseline: a bare node-sdk `WSClient` whose handlers only ACK,
 * nothing else (the limit any bridge on this SDK can reach): a message gets
 * an empty ACK, a card click (`card.action.trigger` in a `type=event` frame,
 * the only kind the SDK handles) a toast at once. Run as its own
 * process, like our server: `deno run --allow-net=127.0.0.1 --allow-env
 * --allow-read bench/_bare_ws_client.ts <base url> <app_id> <app_secret>`;
 * it stops when stdin closes.
 * @module
 */

import * as lark from "@larksuiteoapi/node-sdk";

const [url, appId, appSecret] = Deno.args;
/** The same toast our server answers a click with. */
const TOAST = { type: "info", content: "Sent to the agent." };
const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };
const ws = new lark.WSClient({ appId: appId!, appSecret: appSecret!, domain: url!, logger: quiet });
const dispatcher = new lark.EventDispatcher({ logger: quiet }).register({
  "im.message.receive_v1": () => Promise.resolve(),
  "card.action.trigger": () => Promise.resolve({ toast: TOAST }),
});
void ws.start({ eventDispatcher: dispatcher });
for await (const _ of Deno.stdin.readable) {
  // read until EOF
}
ws.close({ force: true });
Deno.exit(0);
