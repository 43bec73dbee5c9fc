import assert from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
import { checkOutboundTextCap } from "./caps.ts";

Deno.test("checkOutboundTextCap() lets text up to the cap through and counts code points, not UTF-16 units", () => {
  checkOutboundTextCap({ text: "😀".repeat(5) }, 5);
  checkOutboundTextCap({ content: { type: "image", caption: "abc" } }, 3);
  checkOutboundTextCap(
    { content: { type: "card", card: { schema: "2.0", x: "long".repeat(9) } } },
    3,
  );
});

Deno.test("checkOutboundTextCap() refuses text, markdown or a caption past the cap with FORMAT_ERROR naming it", () => {
  for (
    const input of [
      { text: "x".repeat(6) },
      { content: { type: "text", text: "x".repeat(6) } },
      { content: { type: "markdown", markdown: "x".repeat(6) } },
      { content: { type: "video", caption: "x".repeat(6) } },
    ]
  ) {
    assert.throws(() => checkOutboundTextCap(input, 5), (e: unknown) => {
      assert.ok(e instanceof BridgeError);
      assert.equal(e.code, "FORMAT_ERROR");
      assert.equal(e.retryable, false);
      assert.match(
        e.message,
        /at most 5 code points .*limits\.outbound_text_code_points.* found 6/,
      );
      assert.match(e.message, /as a file/);
      return true;
    });
  }
});
