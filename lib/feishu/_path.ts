/**
 * One path segment of a Feishu REST URL built from an id. The node-sdk puts
 * `path` parameters into its URL templates as they are, so every id is
 * encoded here first: `/`, `?`, `#` and `%` cannot leave their segment, and a
 * `.` or `..` segment (which a URL parser collapses) is refused.
 * @module
 */

import { BridgeError } from "../core/mod.ts";

/**
 * `value` percent-encoded as one URL path segment; empty, `.` and `..` are
 * `INVALID_ARGUMENT` naming `field`.
 *
 * @example
 * ```ts
 * import { pathSegment } from "./_path.ts";
 * import assert from "node:assert/strict";
 * assert.equal(pathSegment("message_id", "om_1"), "om_1");
 * assert.equal(pathSegment("message_id", "../chats/oc_x"), "..%2Fchats%2Foc_x");
 * assert.equal(pathSegment("message_id", "om_1?x=1#y"), "om_1%3Fx%3D1%23y");
 * assert.equal(pathSegment("message_id", "%2e%2e"), "%252e%252e");
 * assert.throws(() => pathSegment("message_id", ".."), /message_id/);
 * assert.throws(() => pathSegment("message_id", ""), /message_id/);
 * ```
 */
export function pathSegment(field: string, value: string): string {
  if (value === "" || value === "." || value === "..") {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `${field} ${JSON.stringify(value)} cannot name a Feishu resource in a request path`,
    );
  }
  return encodeURIComponent(value);
}
