import assert from "node:assert/strict";
import {
  buildForwardTree,
  FORWARD_LIMITS,
  type ForwardLimits,
  type NormalisedChild,
  renderForward,
} from "./forward.ts";

interface Item {
  messageId: string;
  upperMessageId: string | null;
  from?: string;
  text?: string;
  image?: string;
  forward?: boolean;
}

const normalise = (i: Item): NormalisedChild => ({
  message_id: i.messageId,
  message_type: i.forward ? "merge_forward" : i.image ? "image" : "text",
  from_id: i.from ?? "ou_ann",
  sender_type: i.from?.startsWith("cli_") ? "app" : "user",
  date: "2026-12-02T08:00:00Z",
  text: i.forward ? "<forwarded_messages/>" : i.text ?? `<image key="${i.image}"/>`,
  content: i.forward
    ? { kind: "merge_forward", loading: false, items: [], truncated: false, error: null }
    : i.image
    ? { kind: "image", image_key: i.image }
    : { kind: "text", text: i.text ?? "" },
  descriptors: i.image ? [{ type: "image", file_key: i.image }] : [],
});

const names = new Map([["ou_ann", "Ann"], ["ou_bob", "Bob"]]);
const label = (id: string, type: string | null) => type === "app" ? `bot ${id}` : id;

function expand(items: Item[], limits: ForwardLimits = FORWARD_LIMITS) {
  return renderForward(buildForwardTree("om_root", items, normalise, limits), {
    names,
    label,
    limits,
  });
}

/** A forward nested `levels` deep, one text message at each level. */
function nested(levels: number): Item[] {
  const items: Item[] = [{ messageId: "om_root", upperMessageId: null }];
  let container = "om_root";
  for (let level = 1; level <= levels; level++) {
    items.push({ messageId: `om_t${level}`, upperMessageId: container, text: `level ${level}` });
    if (level < levels) {
      items.push({ messageId: `om_f${level}`, upperMessageId: container, forward: true });
      container = `om_f${level}`;
    }
  }
  return items;
}

Deno.test("a forward reads as a transcript in Feishu's order, with each sender and its media", () => {
  const out = expand([
    { messageId: "om_root", upperMessageId: null },
    { messageId: "om_1", upperMessageId: "om_root", text: "hello" },
    { messageId: "om_2", upperMessageId: "om_root", from: "ou_bob", image: "img_1" },
    { messageId: "om_3", upperMessageId: "om_root", from: "cli_other", text: "two\nlines" },
  ]);
  assert.equal(
    out.text,
    [
      `<forwarded_messages count="3">`,
      "[2026-12-02T08:00:00Z] Ann: hello",
      `[2026-12-02T08:00:00Z] Bob: <image key="img_1"/>`,
      "[2026-12-02T08:00:00Z] bot cli_other: two",
      "  lines",
      "</forwarded_messages>",
    ].join("\n"),
  );
  assert.deepEqual(out.content.items.map((i) => [i.message_id, i.from_name]), [
    ["om_1", "Ann"],
    ["om_2", "Bob"],
    ["om_3", null],
  ]);
  assert.equal(out.content.truncated, false);
  assert.deepEqual(out.descriptors, [{ type: "image", file_key: "img_1" }]);
});

Deno.test("a nested forward holds its own items and is indented under its sender", () => {
  const out = expand(nested(2));
  assert.equal(
    out.text,
    [
      `<forwarded_messages count="2">`,
      "[2026-12-02T08:00:00Z] Ann: level 1",
      `[2026-12-02T08:00:00Z] Ann: <forwarded_messages count="1">`,
      "  [2026-12-02T08:00:00Z] Ann: level 2",
      "  </forwarded_messages>",
      "</forwarded_messages>",
    ].join("\n"),
  );
  const inner = out.content.items[1]?.content;
  assert.equal(inner?.kind, "merge_forward");
  assert.deepEqual(
    inner?.kind === "merge_forward" && inner.items.map((i) => i.text),
    ["level 2"],
  );
});

Deno.test("forwards nested past the depth bound are summarised, never walked", () => {
  const limits = { ...FORWARD_LIMITS, depth: 2 };
  const out = expand(nested(5), limits);
  assert.match(out.text, /level 2/);
  assert.doesNotMatch(out.text, /level 3/);
  assert.match(out.text, /<forwarded_messages count="2" omitted="depth limit"\/>/);
  assert.equal(out.content.truncated, true);
  const level2 = out.content.items[1]?.content;
  assert.ok(level2?.kind === "merge_forward");
  const deepest = level2.items[1]?.content;
  assert.ok(deepest?.kind === "merge_forward");
  assert.deepEqual([deepest.items, deepest.truncated], [[], true]);
});

Deno.test("the count bound keeps the first messages and says some are not shown", () => {
  const items: Item[] = [{ messageId: "om_root", upperMessageId: null }];
  for (let i = 0; i < 30; i++) {
    items.push({ messageId: `om_${i}`, upperMessageId: "om_root", image: `img_${i}` });
  }
  const out = expand(items, { ...FORWARD_LIMITS, messages: 10, attachments: 4 });
  assert.equal(out.content.items.length, 10);
  assert.equal(out.descriptors.length, 4);
  assert.equal(out.content.truncated, true);
  assert.match(out.text, /not shown/);
});

Deno.test("the size bounds cut the transcript and the items, and say so", () => {
  const items: Item[] = [{ messageId: "om_root", upperMessageId: null }];
  for (let i = 0; i < 20; i++) {
    items.push({ messageId: `om_${i}`, upperMessageId: "om_root", text: "x".repeat(500) });
  }
  const text = expand(items, { ...FORWARD_LIMITS, textChars: 1500, itemChars: 100 });
  assert.ok(text.content.items.every((i) => Array.from(i.text).length <= 100));
  assert.match(text.text, /\[transcript cut at 1500 characters\]/);
  assert.ok(Array.from(text.text).length < 1700);
  const sized = expand(items, { ...FORWARD_LIMITS, contentChars: 2500 });
  assert.ok(sized.content.items.length > 0 && sized.content.items.length < 20);
  assert.ok(JSON.stringify(sized.content.items).length <= 2500);
  assert.equal(sized.content.truncated, true);
});

Deno.test("repeated items and loops are kept once; items of other containers are ignored", () => {
  const out = expand([
    { messageId: "om_root", upperMessageId: null },
    { messageId: "om_1", upperMessageId: "om_root", text: "one" },
    { messageId: "om_1", upperMessageId: "om_root", text: "one again" },
    { messageId: "om_f", upperMessageId: "om_root", forward: true },
    { messageId: "om_root", upperMessageId: "om_f" },
    { messageId: "om_x", upperMessageId: "om_elsewhere", text: "stray" },
  ]);
  assert.deepEqual(out.content.items.map((i) => i.message_id), ["om_1", "om_f"]);
  assert.doesNotMatch(out.text, /stray|again/);
});

Deno.test("an empty forward reads as an empty transcript, not as the placeholder", () => {
  const out = expand([{ messageId: "om_root", upperMessageId: null }]);
  assert.equal(out.text, `<forwarded_messages count="0"/>`);
  assert.deepEqual(out.content.items, []);
});
