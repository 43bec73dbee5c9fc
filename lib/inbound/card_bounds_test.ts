import assert from "node:assert/strict";
import {
  boundCardEnvelope,
  CLICK_VALUE_MAX_BYTES,
  CLICK_VALUE_MAX_DEPTH,
  clickPlaceholder,
  overBounds,
} from "./card_bounds.ts";

/** An object nested exactly `n` levels deep. */
function nested(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

Deno.test("overBounds() keeps a value at the bounds and names the one it is over", () => {
  assert.equal(overBounds(nested(CLICK_VALUE_MAX_DEPTH)), null);
  assert.equal(overBounds(nested(CLICK_VALUE_MAX_DEPTH + 1)), "depth");
  // A JSON string is measured as what it parses to.
  assert.equal(overBounds(JSON.stringify(nested(CLICK_VALUE_MAX_DEPTH))), null);
  assert.equal(overBounds(JSON.stringify(nested(CLICK_VALUE_MAX_DEPTH + 1))), "depth");
  // {"t":"…"} is 8 bytes around the text.
  assert.equal(overBounds({ t: "x".repeat(CLICK_VALUE_MAX_BYTES - 8) }), null);
  assert.equal(overBounds({ t: "x".repeat(CLICK_VALUE_MAX_BYTES - 7) }), "size");
  assert.equal(overBounds("é".repeat(CLICK_VALUE_MAX_BYTES / 2)), null);
  assert.equal(overBounds("é".repeat(CLICK_VALUE_MAX_BYTES / 2 + 1)), "size");
  for (const scalar of [null, undefined, true, 3, "plain"]) assert.equal(overBounds(scalar), null);
});

Deno.test("boundCardEnvelope() replaces only the members over the bounds and keeps the click", () => {
  const deep = "[".repeat(3_000) + "]".repeat(3_000); // 6000 bytes, 3000 levels
  const env = {
    header: { event_id: "ev_1", event_type: "card.action.trigger" },
    event: {
      operator: { open_id: "ou_a" },
      action: {
        tag: "button",
        value: deep,
        form_value: { note: "x".repeat(10_000) },
        option: "a",
      },
      context: { open_message_id: "om_1", open_chat_id: "oc_1" },
    },
  };
  const out = boundCardEnvelope(env) as typeof env & {
    event: { action: Record<string, unknown> };
  };
  assert.deepEqual(out.event.action, {
    tag: "button",
    value: clickPlaceholder("depth"),
    form_value: clickPlaceholder("size"),
    option: "a",
  });
  assert.deepEqual(out.header, env.header);
  assert.deepEqual(out.event.context, env.event.context);
  assert.equal(env.event.action.value, deep, "the received envelope is not changed");
  const fine = { event: { action: { tag: "button", value: { ok: 1 } } } };
  assert.equal(boundCardEnvelope(fine), fine);
  assert.equal(boundCardEnvelope({ event: null } as never).event, null);
});
