import { deepEqual, equal, ok } from "node:assert/strict";
import { CONTROL_CARD_MAX_BYTES, controlCard } from "./control.ts";
import { DESCRIBED_COMMANDS, MESSAGE_KEYS } from "./i18n/keys.ts";
import { normalizeLanguage, TABLES } from "./i18n/mod.ts";

Deno.test("controlCard() builds the schema 2.0 envelope with callback buttons", () => {
  const value = { lingtai_control: { version: 1, command: "kanban", argument: "3" } };
  deepEqual(
    controlCard({
      title: "Kanban",
      brand: "scribe",
      body: "**x**",
      truncatedNotice: "cut",
      buttons: [{ label: "3 · Runtime", command: "kanban", argument: "3" }],
    }),
    {
      schema: "2.0",
      config: { update_multi: true },
      header: { title: { tag: "plain_text", content: "scribe · Kanban" }, template: "blue" },
      body: {
        elements: [
          { tag: "markdown", content: "**x**" },
          {
            tag: "button",
            text: { tag: "plain_text", content: "3 · Runtime" },
            type: "default",
            value,
            behaviors: [{ type: "callback", value }],
          },
        ],
      },
    },
  );
});

Deno.test("controlCard() names the agent when known, else shows the title alone", () => {
  const title = (brand?: string | null) =>
    (controlCard({ title: "Status", brand, body: "", truncatedNotice: "", buttons: [] })
      .header as { title: { content: string } }).title.content;
  equal(title("LingTai"), "LingTai · Status");
  equal(title(null), "Status");
  equal(title(undefined), "Status");
  equal(title("x".repeat(50)), `${"x".repeat(40)} · Status`);
});

Deno.test("controlCard() never cuts an escaped body inside a character reference", () => {
  const card = controlCard({
    title: "Brief",
    body: "&#91;".repeat(10_000),
    truncatedNotice: "Content was truncated.",
    buttons: [],
  });
  const body = (card.body as { elements: { content: string }[] }).elements[0]!.content;
  ok(body.endsWith("&#91;\n\n_Content was truncated._"), body.slice(-40));
});

Deno.test("controlCard() cuts an oversized body at a code point and appends the notice", () => {
  for (const unit of ["a", "汉", "😀", '"\\']) {
    const card = controlCard({
      title: "Brief",
      body: unit.repeat(40_000),
      truncatedNotice: "Content was truncated.",
      buttons: [{ label: "Controls", command: "help", argument: "" }],
    });
    const bytes = new TextEncoder().encode(JSON.stringify(card)).length;
    ok(bytes < CONTROL_CARD_MAX_BYTES, `${unit}: ${bytes}`);
    ok(bytes > CONTROL_CARD_MAX_BYTES - 100, `${unit}: uses the room (${bytes})`);
    const md = (card.body as { elements: { content: string }[] }).elements[0]!.content;
    ok(md.endsWith("\n\n_Content was truncated._"));
    ok(!md.includes("\uFFFD"));
    equal((card.body as { elements: unknown[] }).elements.length, 2);
  }
});

Deno.test("controlCard() caps button arguments at 256 code points", () => {
  const card = controlCard({
    title: "System",
    body: "",
    truncatedNotice: "",
    buttons: [{ label: "x", command: "system", argument: "😀".repeat(300) }],
  });
  const b = (card.body as { elements: { value: { lingtai_control: { argument: string } } }[] })
    .elements[1]!;
  equal(Array.from(b.value.lingtai_control.argument).length, 256);
});

Deno.test("every language table has every key, none empty", () => {
  for (const [lang, table] of Object.entries(TABLES)) {
    deepEqual(Object.keys(table.text).sort(), [...MESSAGE_KEYS].sort(), lang);
    deepEqual(Object.keys(table.describe).sort(), [...DESCRIBED_COMMANDS].sort(), lang);
    for (const [k, v] of [...Object.entries(table.text), ...Object.entries(table.describe)]) {
      ok(typeof v === "string" && v.trim() !== "", `${lang}.${k}`);
    }
  }
});

Deno.test("normalizeLanguage() maps zh/wen variants and falls back to English", () => {
  const cases: [unknown, string][] = [
    ["zh", "zh"],
    ["zh-CN", "zh"],
    ["ZH_tw", "zh"],
    ["wen", "wen"],
    ["wen-x", "wen"],
    ["WEN_classic", "wen"],
    ["fr", "en"],
    ["en", "en"],
    ["?", "en"],
    ["zhx", "en"],
    ["wenyan", "en"],
    [null, "en"],
    [42, "en"],
  ];
  for (const [input, want] of cases) equal(normalizeLanguage(input), want, String(input));
});
