import assert from "node:assert/strict";
import { convertInteractive } from "./converters/interactive.ts";

const pt = (content: string) => ({ tag: "plain_text", content });
const cardText = (elements: unknown[]) =>
  convertInteractive({ schema: "2.0", body: { elements } }).text;

Deno.test("convertInteractive() shows a select's placeholder and its option texts", () => {
  const text = cardText([{
    tag: "select_static",
    placeholder: pt("Choose a region"),
    options: [{ text: pt("North"), value: "n" }, { text: pt("South"), value: "s" }],
  }]);
  assert.equal(text, "[select: Choose a region — options: North, South]");
});

Deno.test("convertInteractive() shows options given as bare strings", () => {
  assert.equal(
    cardText([{ tag: "select_static", placeholder: "Pick", options: ["A", "B"] }]),
    "[select: Pick — options: A, B]",
  );
});

Deno.test("convertInteractive() names the selected option of a select by its text, never its value", () => {
  const text = cardText([{
    tag: "multi_select_static",
    placeholder: pt("Tags"),
    options: [{ text: pt("Bug"), value: "v_bug" }, { text: pt("Docs"), value: "v_docs" }],
    initial_options: ["v_docs"],
  }]);
  assert.equal(text, "[multi-select: Tags — options: Bug, Docs — selected: Docs]");
  assert.doesNotMatch(text, /v_docs/);
});

Deno.test("convertInteractive() shows a person select's placeholder, not the people's ids", () => {
  const text = cardText([
    { tag: "select_person", placeholder: pt("Assignee"), options: [{ value: "ou_1" }] },
    { tag: "multi_select_person", placeholder: pt("Reviewers") },
  ]);
  assert.equal(text, "[select person: Assignee]\n[multi-select person: Reviewers]");
});

Deno.test("convertInteractive() shows date and time pickers with their placeholder and initial value", () => {
  const text = cardText([
    { tag: "date_picker", placeholder: pt("Due date"), initial_date: "2026-08-03" },
    { tag: "picker_time", placeholder: pt("Start"), initial_time: "09:30" },
    { tag: "picker_datetime", placeholder: pt("When") },
    { tag: "date_picker" },
  ]);
  assert.equal(
    text,
    "[date picker: Due date — initial: 2026-08-03]\n[time picker: Start — initial: 09:30]\n" +
      "[datetime picker: When]\n[date picker]",
  );
});

Deno.test("convertInteractive() reads i18n texts of elements, placeholders and options", () => {
  const i18n = (zh: string, en: string) => ({
    tag: "plain_text",
    content: "",
    i18n_content: { en_us: en, zh_cn: zh },
  });
  const text = convertInteractive({
    schema: "2.0",
    header: { title: i18n("部署", "Deploy") },
    body: {
      elements: [
        { tag: "markdown", content: "", i18n_content: { en_us: "Ready?" } },
        {
          tag: "select_static",
          placeholder: i18n("环境", "Env"),
          options: [{ text: i18n("生产", "Prod"), value: "p" }],
        },
      ],
    },
  }).text;
  assert.equal(text, "部署\nReady?\n[select: 环境 — options: 生产]");
});

Deno.test("convertInteractive() reads one locale of a v1 card's i18n header and elements", () => {
  const text = convertInteractive({
    config: {},
    i18n_header: {
      en_us: { title: { tag: "plain_text", content: "Hello" } },
      zh_cn: { title: { tag: "plain_text", content: "你好" } },
    },
    i18n_elements: {
      en_us: [{ tag: "div", text: { tag: "lark_md", content: "body" } }],
      zh_cn: [{ tag: "div", text: { tag: "lark_md", content: "正文" } }],
    },
  }).text;
  assert.equal(text, "你好\n正文");
});

Deno.test("convertInteractive() keeps the simplified receive-event card readable with a select", () => {
  const text = convertInteractive({
    title: "Survey",
    elements: [[{ tag: "text", text: "Where?" }], [{
      tag: "select_static",
      placeholder: "Region",
      options: ["EU", "US"],
    }]],
  }).text;
  assert.equal(text, "Survey\nWhere?\n[select: Region — options: EU, US]");
});
