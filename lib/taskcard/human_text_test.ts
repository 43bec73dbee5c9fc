import { equal } from "node:assert/strict";
import fc from "fast-check";
import { humanText } from "./human_text.ts";

const CASES: readonly (readonly [string, string, string])[] = [
  [
    "drops the JSON value of a card action",
    'Answering Alice: [card action: button] {"demo": "approve"}',
    "Answering Alice: [card action: button]",
  ],
  ["drops an empty object", "[card action: button] {}", "[card action: button]"],
  [
    "drops JSON with brackets inside its strings",
    'got {"a": "}{", "b": [1, {"c": "]"}]} ok',
    "got ok",
  ],
  ["drops an array of objects", 'rows [{"a": 1}, {"b": 2}] done', "rows done"],
  [
    "keeps an array of plain values",
    "see [1, 2] and [card action: x]",
    "see [1, 2] and [card action: x]",
  ],
  ["keeps braces that are not JSON", "use {name} here", "use {name} here"],
  [
    "names a file tag by its file name",
    '<file key="file_v3_00ab" name="plan.pdf"/>',
    "[file: plan.pdf]",
  ],
  [
    "reads the guillemet form a notification quotes",
    "got ‹file key=file_v3_00ab name=a.pdf/› and ‹image key=img_v3_01/›",
    "got [file: a.pdf] and [image]",
  ],
  ["names media tags", '<audio key="a1" duration="1s"/> <video key="v1"/>', "[audio] [video]"],
  ["drops the closing tag of a block", "<todo>\n- buy milk\n</todo>", "[todo]\n- buy milk"],
  ["names forwarded messages", "<forwarded_messages/>", "[forwarded messages]"],
  [
    "turns image and file keys into words",
    "img_v3_02ab_c3d4 then file_v3_00x9",
    "[image] then [file]",
  ],
  [
    "turns Feishu ids into words",
    "ou_7d8a6e6df7621556 in oc_a1b2c3d4e5 replied to om_x100abc topic omt_1a2b3c4d",
    "[user] in [chat] replied to [message] topic [topic]",
  ],
  [
    "turns a compound id into one word",
    "see main:oc_emu_01:om_emu_02 and main:oc_emu_01",
    "see [message] and [chat]",
  ],
  [
    "leaves names that only look like ids",
    "on_click_handler and om_nom",
    "on_click_handler and om_nom",
  ],
  ["leaves a mention tag for the escaper", "<at id=all></at>", "<at id=all></at>"],
  [
    "leaves redaction placeholders",
    "key <REDACTED:secret> and [REDACTED]",
    "key <REDACTED:secret> and [REDACTED]",
  ],
  ["leaves plain prose untouched, spaces included", "  plain   prose ", "  plain   prose "],
];

for (const [what, input, output] of CASES) {
  Deno.test(`humanText() ${what}`, () => {
    equal(humanText(input), output);
  });
}

Deno.test("humanText() never throws, is idempotent, and stays linear on long hostile input", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (s) => {
      const once = humanText(s);
      equal(humanText(once), once);
    }),
    { numRuns: 1000 },
  );
  // A quadratic scan would take minutes on these 200 000-character inputs.
  for (
    const hostile of [
      "{".repeat(200_000),
      '{"'.repeat(100_000),
      "[".repeat(200_000),
      "<file key=a ".repeat(16_000),
      "‹a ".repeat(66_000),
      "main:oc_1".repeat(22_000),
      "ou_1".repeat(50_000),
    ]
  ) humanText(hostile);
  equal(humanText(undefined as unknown as string), "");
});
