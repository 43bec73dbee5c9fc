import assert from "node:assert/strict";
import { extractBotMention } from "./compose.ts";

const cases: [string, { text: string; bot: boolean }][] = [
  ["@EmuBot hello", { text: "hello", bot: true }],
  ["hello @bot", { text: "hello", bot: true }],
  ["hi @emubot there", { text: "hi  there", bot: true }],
  ["@EmuBot", { text: "", bot: true }],
  ["no mention", { text: "no mention", bot: false }],
  ["mail a@EmuBot.example", { text: "mail a@EmuBot.example", bot: false }],
  ["@EmuBotty hi", { text: "@EmuBotty hi", bot: false }],
];

for (const [input, want] of cases) {
  Deno.test(`extractBotMention() reads ${JSON.stringify(input)}`, () => {
    assert.deepEqual(extractBotMention(input, "EmuBot"), want);
  });
}

Deno.test("extractBotMention() treats regex characters in the bot name literally", () => {
  assert.deepEqual(extractBotMention("@a.b+ go", "a.b+"), { text: "go", bot: true });
  assert.deepEqual(extractBotMention("@axb go", "a.b"), { text: "@axb go", bot: false });
});
