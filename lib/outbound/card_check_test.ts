import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
import { assertCardActions, cardProblems, INTERACTIVE_TAGS } from "./card_check.ts";
import { MAX_BODY_DEPTH } from "./_depth.ts";

type Json = Record<string, unknown>;

const card = (...elements: unknown[]): Json => ({ schema: "2.0", body: { elements } });
const text = (content: string) => ({ tag: "plain_text", content });
const callback = (value: unknown = { pick: 1 }) => [{ type: "callback", value }];
const link = [{ type: "open_url", default_url: "https://example.com" }];
const submit = { tag: "button", text: text("Send"), form_action_type: "submit", name: "go" };
const form = (...elements: unknown[]) => ({ tag: "form", name: "f", elements });

/** The paths cardProblems() names for a card. */
const paths = (c: unknown) => cardProblems(c).map((p) => p.path);

Deno.test("cardProblems() accepts every way a button can act", () => {
  const accepted: [string, Json][] = [
    ["a legacy value", { tag: "button", value: { a: 1 } }],
    ["a legacy string value", { tag: "button", value: "x" }],
    ["a callback behaviour", { tag: "button", behaviors: callback() }],
    ["a callback with an empty object", { tag: "button", behaviors: callback({}) }],
    ["a link behaviour", { tag: "button", behaviors: link }],
    [
      "a link after something unknown",
      { tag: "button", behaviors: [{ type: "later" }, ...link] },
    ],
    ["disabled", { tag: "button", disabled: true }],
  ];
  for (const [name, button] of accepted) deepEqual(cardProblems(card(button)), [], name);
});

Deno.test("cardProblems() refuses a button that does nothing, naming what to add", () => {
  const refused: [string, Json][] = [
    ["nothing", { tag: "button", text: text("Go") }],
    ["a null value", { tag: "button", value: null }],
    ["a callback without a value", { tag: "button", behaviors: [{ type: "callback" }] }],
    ["a link without default_url", { tag: "button", behaviors: [{ type: "open_url" }] }],
    ["an empty default_url", { tag: "button", behaviors: [{ type: "open_url", default_url: "" }] }],
    ["behaviors not a list", { tag: "button", behaviors: { type: "callback", value: 1 } }],
    ["disabled false", { tag: "button", disabled: false }],
  ];
  for (const [name, button] of refused) {
    deepEqual(cardProblems(card(button)), [{
      path: "content.card.body.elements[0]",
      tag: "button",
      fix: 'add behaviors: [{type: "callback", value: {...}}] ' +
        '(or behaviors: [{type: "open_url", default_url: "https://..."}] for a link) or a value',
    }], name);
  }
  const [outside] = cardProblems(card({ tag: "button", form_action_type: "submit" }));
  ok(outside!.fix.startsWith("form_action_type works only inside a form; add behaviors"));
});

Deno.test("cardProblems() treats other interactive elements as fields in a form and callbacks outside", () => {
  for (const tag of INTERACTIVE_TAGS) {
    deepEqual(cardProblems(card(form({ tag, name: "field" }, submit))), [], `${tag} in a form`);
    deepEqual(cardProblems(card({ tag, behaviors: callback() })), [], `${tag} with a callback`);
    deepEqual(cardProblems(card({ tag, value: { k: 1 } })), [], `${tag} with a value`);
    deepEqual(cardProblems(card({ tag, disabled: true })), [], `${tag} disabled`);
    const [p, ...more] = cardProblems(card({ tag, placeholder: text("pick") }));
    deepEqual(more, [], tag);
    equal(p?.tag, tag);
    equal(p?.path, "content.card.body.elements[0]");
    ok(p?.fix.includes('behaviors: [{type: "callback", value: {...}}]'), p?.fix);
  }
  const [select] = cardProblems(card({ tag: "select_static", options: [] }));
  equal(
    select!.fix,
    'add behaviors: [{type: "callback", value: {...}}] or a value, or put it inside a form',
  );
});

Deno.test("cardProblems() lets overflow and interactive_container open a link, and nothing else", () => {
  deepEqual(cardProblems(card({ tag: "overflow", behaviors: link })), []);
  deepEqual(cardProblems(card({ tag: "interactive_container", behaviors: link })), []);
  deepEqual(paths(card({ tag: "select_static", behaviors: link })), [
    "content.card.body.elements[0]",
  ]);
  deepEqual(paths(card({ tag: "checker", behaviors: link })), ["content.card.body.elements[0]"]);
  const [box] = cardProblems(card({ tag: "interactive_container", elements: [] }));
  ok(box!.fix.includes("for a link"), box!.fix);
});

Deno.test("cardProblems() accepts an overflow whose every option has a value or a link", () => {
  const overflow = (options: unknown) => card({ tag: "overflow", options });
  deepEqual(
    cardProblems(overflow([
      { text: text("a"), value: "a" },
      { text: text("b"), url: "https://b.example" },
      { text: text("c"), multi_url: { url: "https://c.example" } },
    ])),
    [],
  );
  for (const options of [[{ text: text("a"), value: "a" }, { text: text("b") }], [], undefined]) {
    const [p] = cardProblems(overflow(options));
    equal(
      p?.fix,
      'give every option a value or a url, or add behaviors: [{type: "callback", value: {...}}]',
      JSON.stringify(options),
    );
  }
});

Deno.test("cardProblems() requires a submit button in every form", () => {
  const fields = [{ tag: "input", name: "a" }, { tag: "select_static", name: "b", options: [] }];
  deepEqual(cardProblems(card(form(...fields, submit))), []);
  // A submit button nested in a column of the form counts.
  deepEqual(
    cardProblems(card(form(...fields, {
      tag: "column_set",
      columns: [{ tag: "column", elements: [submit] }],
    }))),
    [],
  );
  const reset = { tag: "button", form_action_type: "reset", name: "r" };
  deepEqual(cardProblems(card(form(...fields, reset))), [{
    path: "content.card.body.elements[0]",
    tag: "form",
    fix: 'add a button with form_action_type: "submit" inside it, or its fields can never be sent',
  }]);
  // A callback button in a form is fine, but it does not submit the form.
  deepEqual(paths(card(form(...fields, { tag: "button", behaviors: callback() }))), [
    "content.card.body.elements[0]",
  ]);
  // A button without any action inside a form: told about form_action_type too.
  const [plain, formProblem] = cardProblems(card(form({ tag: "button", name: "x" })));
  equal(plain!.path, "content.card.body.elements[0].elements[0]");
  equal(
    plain!.fix,
    'add form_action_type: "submit" (or "reset"), behaviors: [{type: "callback", value: {...}}] or a value',
  );
  equal(formProblem!.tag, "form");
  // A submit button of one form does not count for a later one.
  deepEqual(paths(card(form(submit), form({ tag: "input", name: "a" }))), [
    "content.card.body.elements[1]",
  ]);
});

Deno.test("cardProblems() names the path through nested containers as the agent wrote it", () => {
  const c = {
    schema: "2.0",
    header: { title: text("T") },
    body: {
      elements: [
        { tag: "markdown", content: "hi" },
        { tag: "button", behaviors: callback() },
        {
          tag: "column_set",
          columns: [
            { tag: "column", elements: [{ tag: "button", behaviors: link }] },
            {
              tag: "column",
              elements: [{ tag: "markdown", content: "x" }, { tag: "button", text: text("dead") }],
            },
          ],
        },
        {
          tag: "collapsible_panel",
          header: { title: text("more") },
          elements: [{
            tag: "interactive_container",
            behaviors: callback(),
            elements: [{ tag: "select_person" }],
          }],
        },
      ],
    },
  };
  deepEqual(paths(c), [
    "content.card.body.elements[2].columns[1].elements[1]",
    "content.card.body.elements[3].elements[0].elements[0]",
  ]);
  deepEqual(
    cardProblems(c, "x").map((p) => p.path)[0],
    "x.body.elements[2].columns[1].elements[1]",
  );
});

Deno.test("cardProblems() never walks into payloads, and ignores what is not an element", () => {
  const inPayload = {
    tag: "button",
    behaviors: [{ type: "callback", value: { elements: [{ tag: "button" }] } }],
  };
  deepEqual(cardProblems(card(inPayload)), []);
  deepEqual(cardProblems(card("text", null, 3, [{ tag: "button" }], { content: "no tag" })), []);
  deepEqual(cardProblems({ schema: "2.0", body: "none" }), []);
  deepEqual(cardProblems(null), []);
  deepEqual(cardProblems(card({ tag: "picker_unknown" })), []);
});

Deno.test("cardProblems() walks the header too", () => {
  deepEqual(
    paths({ schema: "2.0", header: { elements: [{ tag: "button" }] }, body: { elements: [] } }),
    ["content.card.header.elements[0]"],
  );
});

Deno.test("cardProblems() stops at the depth budget", () => {
  // Deeper than any card that passed the depth check; the walk must not recurse without end.
  let inner: Json = { tag: "button" };
  for (let i = 0; i < MAX_BODY_DEPTH * 4; i++) {
    inner = { tag: "collapsible_panel", elements: [inner] };
  }
  deepEqual(cardProblems(card(inner)), []);
  // Within the budget, a deep button is found.
  let shallow: Json = { tag: "button" };
  for (let i = 0; i < 10; i++) shallow = { tag: "collapsible_panel", elements: [shallow] };
  equal(paths(card(shallow))[0], "content.card.body.elements[0]" + ".elements[0]".repeat(10));
});

Deno.test("assertCardActions() throws one INVALID_ARGUMENT line naming the first problem and a few more", () => {
  assertCardActions(card({ tag: "button", behaviors: callback() }));
  throws(
    () => assertCardActions(card({ tag: "markdown", content: "x" }, { tag: "button" })),
    (err: unknown) => {
      ok(err instanceof BridgeError);
      equal(err.code, "INVALID_ARGUMENT");
      equal(err.retryable, false);
      equal(
        err.message,
        "Expected every interactive element of the card to act when used but found a button at " +
          "content.card.body.elements[1] that cannot; add behaviors: " +
          '[{type: "callback", value: {...}}] (or behaviors: [{type: "open_url", default_url: ' +
          '"https://..."}] for a link) or a value',
      );
      return true;
    },
  );
  const many = card(
    { tag: "input" },
    { tag: "button" },
    { tag: "overflow" },
    { tag: "date_picker" },
    { tag: "checker" },
    { tag: "button" },
  );
  throws(() => assertCardActions(many), (err: unknown) => {
    const message = (err as Error).message;
    ok(!message.includes("\n"));
    ok(message.includes("found an input at content.card.body.elements[0] that cannot; add "));
    ok(
      message.endsWith(
        " (also: button at content.card.body.elements[1], overflow at " +
          "content.card.body.elements[2], date_picker at content.card.body.elements[3], 2 more)",
      ),
      message,
    );
    return true;
  });
});
