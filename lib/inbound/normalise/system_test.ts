import assert from "node:assert/strict";
import { convertSystem } from "./converters/system.ts";

const fill = (content: Record<string, unknown>) => convertSystem(content).text;

Deno.test("convertSystem() fills an object variable from its text", () => {
  const text = fill({
    template: "{divider_text}",
    divider_text: { text: "新会话", i18n_text: { zh_cn: "新会话", en_us: "New session" } },
  });
  assert.equal(text, "新会话");
});

Deno.test("convertSystem() fills an object variable without text from its locale text", () => {
  assert.equal(
    fill({ template: "— {divider_text} —", divider_text: { i18n_text: { en_us: "New topic" } } }),
    "— New topic —",
  );
  assert.equal(fill({ template: "{t}", t: { zh_cn: "开始", en_us: "Start" } }), "开始");
});

Deno.test("convertSystem() fills an object variable from its other visible strings, never ids", () => {
  assert.equal(
    fill({
      template: "{who} joined",
      who: { open_id: "ou_1", nickname: "Ann", avatar_url: "https://x/a.png" },
    }),
    "Ann joined",
  );
});

Deno.test("convertSystem() fills numbers and booleans as text and null as nothing", () => {
  assert.equal(
    fill({ template: "{n} new, pinned: {b}, {z}done", n: 3, b: true, z: null }),
    "3 new, pinned: true, done",
  );
});

Deno.test("convertSystem() joins the visible texts of an array variable", () => {
  assert.equal(
    fill({ template: "{list} left", list: [{ name: "Ann" }, "Bo", 7, null, { text: "" }] }),
    "Ann, Bo, 7 left",
  );
});

Deno.test("convertSystem() fills variables whose names have digits or capitals", () => {
  assert.equal(fill({ template: "{Topic2} started", Topic2: { text: "Q3" } }), "Q3 started");
});

Deno.test("convertSystem() keeps the known member variables as names", () => {
  const c = convertSystem({
    template: "{from_user} invited {to_chatters}",
    from_user: [{ name: "Ann", open_id: "ou_a" }],
    to_chatters: ["Bo", "Cy"],
  });
  assert.equal(c.text, "Ann invited Bo, Cy");
  assert.deepEqual(c.content, {
    kind: "system",
    template: "{from_user} invited {to_chatters}",
    from_user: ["Ann"],
    to_chatters: ["Bo", "Cy"],
  });
});
