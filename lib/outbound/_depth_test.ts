import assert from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
import { assertBodyDepth, jsonDepth, MAX_BODY_DEPTH } from "./_depth.ts";

function nested(levels: number): unknown {
  let v: unknown = { tag: "text", text: "x" };
  for (let i = 1; i < levels; i++) v = i % 2 === 0 ? { elements: v } : [v];
  return v;
}

Deno.test("jsonDepth measures objects and arrays without recursion, also a hundred thousand levels deep", () => {
  assert.equal(jsonDepth(null), 0);
  assert.equal(jsonDepth([]), 1);
  assert.equal(jsonDepth(nested(10)), 10);
  assert.equal(jsonDepth(nested(100_000)), 100_000);
  assert.equal(jsonDepth(nested(100_000), 64), 65);
});

Deno.test("assertBodyDepth allows the budget and refuses one level more with a FORMAT_ERROR naming it", () => {
  assertBodyDepth("card", nested(MAX_BODY_DEPTH));
  assert.throws(
    () => assertBodyDepth("card", nested(MAX_BODY_DEPTH + 1)),
    (e: unknown) =>
      e instanceof BridgeError && e.code === "FORMAT_ERROR" &&
      e.message.includes(`card nested at most ${MAX_BODY_DEPTH} levels`),
  );
});
