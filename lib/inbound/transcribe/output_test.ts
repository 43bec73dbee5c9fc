import assert from "node:assert/strict";
import { boundError, parseTranscriberOutput, stderrTail } from "./output.ts";

const completed: { name: string; stdout: string; want: unknown }[] = [
  {
    name: "joins plain lines with spaces and trims them",
    stdout: "\n  Hello there \n\n general  \n",
    want: { text: "Hello there general", language: null, duration: null, segments: [] },
  },
  {
    name: "turns whisper.cpp time stamps into segments",
    stdout: "[00:00:00.000 --> 00:00:01.234]  你好\n[00:00:01.234 --> 00:01:02,500]  world\n",
    want: {
      text: "你好 world",
      language: null,
      duration: null,
      segments: [{ start: 0, end: 1.23, text: "你好" }, { start: 1.23, end: 62.5, text: "world" }],
    },
  },
  {
    name: "keeps stamps as text when only some lines carry them",
    stdout: "[00:00:00.000 --> 00:00:01.000] a\nb",
    want: {
      text: "[00:00:00.000 --> 00:00:01.000] a b",
      language: null,
      duration: null,
      segments: [],
    },
  },
  {
    name: "reads a JSON object with every field",
    stdout: JSON.stringify({
      text: " hi ",
      language: "zh",
      duration: 2.3456,
      segments: [{ start: 0.004, end: 2.346, text: " hi " }],
      model: "ignored",
    }),
    want: {
      text: "hi",
      language: "zh",
      duration: 2.35,
      segments: [{ start: 0, end: 2.35, text: "hi" }],
    },
  },
  {
    name: "reads a JSON object with only text",
    stdout: '{"text":"ok"}\n',
    want: { text: "ok", language: null, duration: null, segments: [] },
  },
];
for (const c of completed) {
  Deno.test(`parseTranscriberOutput() ${c.name}`, () => {
    assert.deepEqual(parseTranscriberOutput(c.stdout), { ok: true, transcript: c.want });
  });
}

const failed: { name: string; stdout: string; error: string | RegExp }[] = [
  {
    name: "empty output",
    stdout: " \n\t\n",
    error: "Expected a transcript but the transcriber printed no text",
  },
  {
    name: "JSON with empty text",
    stdout: '{"text":"  "}',
    error: "Expected a transcript but the transcriber printed no text",
  },
  {
    name: "broken JSON",
    stdout: '{"text": "a",}',
    error: /^Expected transcriber JSON output but it does not parse: /,
  },
  {
    name: "JSON without text",
    stdout: '{"transcript":"a"}',
    error: "Expected a string text in transcriber JSON but found nothing",
  },
  {
    name: "JSON with a numeric language",
    stdout: '{"text":"a","language":5}',
    error: "Expected language to be a string but found 5",
  },
  {
    name: "JSON with a negative duration",
    stdout: '{"text":"a","duration":-1}',
    error: "Expected duration to be seconds but found -1",
  },
  {
    name: "JSON with a malformed segment",
    stdout: '{"text":"a","segments":[{"start":0,"end":1,"text":"a"},{"start":"x"}]}',
    error: "Expected segments[1] to be {start, end, text}",
  },
];
for (const c of failed) {
  Deno.test(`parseTranscriberOutput() rejects ${c.name}`, () => {
    const out = parseTranscriberOutput(c.stdout);
    assert.equal(out.ok, false);
    if (!out.ok) {
      if (typeof c.error === "string") assert.equal(out.error, c.error);
      else assert.match(out.error, c.error);
    }
  });
}

Deno.test("boundError() keeps the start and stderrTail() the end, both at 200 code points", () => {
  const long = "😀".repeat(150) + " middle " + "末".repeat(150);
  const head = boundError(long);
  const tail = stderrTail(long);
  assert.equal([...head].length, 200);
  assert.ok(head.startsWith("😀😀") && head.endsWith("…"));
  assert.equal([...tail].length, 200);
  assert.ok(tail.startsWith("…") && tail.endsWith("末末"));
  assert.equal(stderrTail("short\n  text"), "short text");
});
