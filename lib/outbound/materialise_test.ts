import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
import { normaliseOutbound } from "./content.ts";
import type { OutboundContent } from "../mcp/family/mod.ts";
import { materialise, type MaterialiseOptions } from "./materialise.ts";
import { unclosedFences } from "./markdown/testdata/chunk_invariants.ts";
import { wrapProgressCard } from "./progress.ts";
import type { NormalisedContent, WireBody } from "./types.ts";
import { requestBytes } from "./wire.ts";

const KEY = { mediaRoots: [], fs: undefined };

async function n(content: unknown): Promise<NormalisedContent> {
  return await normaliseOutbound(
    typeof content === "string" ? { text: content } : { content: content as OutboundContent },
    KEY,
  );
}

const md = (text: string) =>
  JSON.stringify({ zh_cn: { title: "", content: [[{ tag: "md", text }]] } });

const cases: {
  name: string;
  content: unknown;
  options?: MaterialiseOptions;
  want: WireBody[];
}[] = [
  {
    name: "a short text as one text body",
    content: "hi",
    want: [{ msg_type: "text", content: '{"text":"hi"}' }],
  },
  {
    name: "a long text as text chunks cut at newlines",
    content: "one\ntwo\nthree",
    options: { limit: 7 },
    want: [
      { msg_type: "text", content: '{"text":"one\\ntwo"}' },
      { msg_type: "text", content: '{"text":"three"}' },
    ],
  },
  {
    name: "markdown as a post with one md element",
    content: { type: "markdown", markdown: "**b**" },
    want: [{ msg_type: "post", content: md("**b**") }],
  },
  {
    name: "long markdown as one post per chunk",
    content: { type: "markdown", markdown: "para one\n\npara two" },
    options: { limit: 10 },
    want: [{ msg_type: "post", content: md("para one") }, {
      msg_type: "post",
      content: md("para two"),
    }],
  },
  {
    name: "a post AST untouched, without an outer post key",
    content: {
      type: "post",
      post: { en_us: { title: "T", content: [[{ tag: "text", text: "x" }]] } },
    },
    options: { limit: 1 },
    want: [{
      msg_type: "post",
      content: '{"en_us":{"title":"T","content":[[{"tag":"text","text":"x"}]]}}',
    }],
  },
  {
    name: "a card as one interactive body",
    content: { type: "card", card: { schema: "2.0", body: { elements: [] } } },
    want: [{ msg_type: "interactive", content: '{"schema":"2.0","body":{"elements":[]}}' }],
  },
  {
    name: "an image key as an image body",
    content: { type: "image", source: { type: "key", key: "img_reply" } },
    want: [{ msg_type: "image", content: '{"image_key":"img_reply"}' }],
  },
  {
    name: "a captioned image as one post with an img row",
    content: { type: "image", source: { type: "key", key: "img_1" }, caption: "**caption**" },
    want: [{
      msg_type: "post",
      content: JSON.stringify({
        zh_cn: {
          title: "",
          content: [[{ tag: "md", text: "**caption**" }], [{ tag: "img", image_key: "img_1" }]],
        },
      }),
    }],
  },
  {
    name: "a video as a media body",
    content: { type: "video", source: { type: "key", key: "file_video" } },
    want: [{ msg_type: "media", content: '{"file_key":"file_video"}' }],
  },
  {
    name: "a captioned video as a post with a media row",
    content: {
      type: "video",
      source: { type: "key", key: "file_video" },
      caption: "video caption",
    },
    want: [{
      msg_type: "post",
      content: JSON.stringify({
        zh_cn: {
          title: "",
          content: [[{ tag: "md", text: "video caption" }], [{
            tag: "media",
            file_key: "file_video",
          }]],
        },
      }),
    }],
  },
  {
    name: "a file key as a file body",
    content: {
      type: "file",
      source: { type: "key", key: "file_provider" },
      file_name: "report.pdf",
    },
    want: [{ msg_type: "file", content: '{"file_key":"file_provider"}' }],
  },
  {
    name: "audio as an audio body",
    content: { type: "audio", source: { type: "key", key: "file_audio" } },
    want: [{ msg_type: "audio", content: '{"file_key":"file_audio"}' }],
  },
  {
    name: "share_chat",
    content: { type: "share_chat", chat_id: "oc_shared" },
    want: [{ msg_type: "share_chat", content: '{"chat_id":"oc_shared"}' }],
  },
  {
    name: "share_user",
    content: { type: "share_user", user_id: "ou_shared" },
    want: [{ msg_type: "share_user", content: '{"user_id":"ou_shared"}' }],
  },
  {
    name: "a sticker",
    content: { type: "sticker", file_key: "st_provider" },
    want: [{ msg_type: "sticker", content: '{"file_key":"st_provider"}' }],
  },
];

for (const c of cases) {
  Deno.test(`materialise() sends ${c.name}`, async () => {
    deepEqual(materialise(await n(c.content), c.options).bodies, c.want);
  });
}

Deno.test("materialise() uses the uploaded key for a path source", () => {
  const content: NormalisedContent = {
    type: "image",
    recordContent: { type: "image", source: { type: "path", path: "/r/a.png" } },
    previewText: "[image: a.png]",
    messageType: "image",
    media: { type: "image", source: { type: "path", path: "/r/a.png" } },
  };
  deepEqual(materialise(content, { mediaKey: "img_up" }).bodies, [
    { msg_type: "image", content: '{"image_key":"img_up"}' },
  ]);
  throws(() => materialise(content), TypeError);
});

Deno.test("materialise() sends a progress card as one interactive body", async () => {
  const card = wrapProgressCard(await n("phase one"), { mode: "send" });
  const [body] = materialise(card).bodies;
  equal(body?.msg_type, "interactive");
  deepEqual(JSON.parse(body!.content).body.elements[0].content, "⏳ phase one");
});

Deno.test("materialise() returns the chunker's degradations", async () => {
  const table = "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |";
  const m = materialise(await n({ type: "markdown", markdown: table }), { maxTableColumns: 2 });
  deepEqual(m.degradations.map((d) => d.kind), ["table_wide"]);
});

Deno.test("materialise() refuses a blank markdown message before any I/O", () => {
  throws(() => materialise({ ...textContent(" \n "), type: "markdown" }), {
    message: "Feishu outbound materialized an empty body",
  });
});

function textContent(text: string): NormalisedContent {
  return {
    type: "text",
    recordContent: { type: "text", text, markdown: text },
    previewText: text,
    messageType: "text",
  };
}

Deno.test("materialise() refuses a post or card over the byte limit as FORMAT_ERROR, saying by how much", async () => {
  const big = "x".repeat(40_000);
  const post = await n({
    type: "post",
    post: { zh_cn: { content: [[{ tag: "text", text: big }]] } },
  });
  const postBytes = requestBytes({
    msg_type: "post",
    content: JSON.stringify(post.recordContent.post),
  });
  throws(() => materialise(post), (err: unknown) => {
    ok(err instanceof BridgeError && err.code === "FORMAT_ERROR" && !err.retryable);
    equal(
      (err as Error).message,
      `Expected the post to be at most 30000 bytes as a Feishu request but found ${postBytes} ` +
        `(${postBytes - 30000} bytes over); make it smaller or split it into several messages`,
    );
    return true;
  });
  const card = await n({
    type: "card",
    card: { schema: "2.0", body: { elements: [{ tag: "markdown", content: big }] } },
  });
  const cardBytes = requestBytes({
    msg_type: "interactive",
    content: JSON.stringify(card.recordContent.card),
  });
  throws(() => materialise(card), (err: unknown) => {
    ok(err instanceof BridgeError && err.code === "FORMAT_ERROR");
    equal(
      (err as Error).message,
      `Expected the card to be at most 30000 bytes as a Feishu request but found ${cardBytes} ` +
        `(${cardBytes - 30000} bytes over); make it smaller or split it into several messages`,
    );
    return true;
  });
});

Deno.test("materialise() sends a card of exactly the byte limit and refuses one byte more", async () => {
  const sized = async (chars: number) =>
    await n({
      type: "card",
      card: {
        schema: "2.0",
        body: { elements: [{ tag: "markdown", content: "x".repeat(chars) }] },
      },
    });
  const base = requestBytes(materialise(await sized(0)).bodies[0]!);
  const exact = await sized(30_000 - base);
  equal(requestBytes(materialise(exact).bodies[0]!), 30_000);
  const over = await sized(30_001 - base);
  throws(() => materialise(over), /found 30001 \(1 byte over\)/);
});

Deno.test("materialise() splits chunks further until every body fits its byte limit", async () => {
  const limits = { text: 700, other: 700 };
  const text = await n("长".repeat(1000));
  const t = materialise(text, { byteLimits: limits });
  ok(t.bodies.length > 4);
  for (const b of t.bodies) ok(requestBytes(b) <= 700);
  equal(t.bodies.map((b) => JSON.parse(b.content).text).join(""), "长".repeat(1000));

  const markdown = await n({
    type: "markdown",
    markdown: "```js\n" + "let 变量 = 1;\n".repeat(200) + "```",
  });
  const m = materialise(markdown, { byteLimits: limits });
  for (const b of m.bodies) {
    ok(requestBytes(b) <= 700);
    equal(unclosedFences(JSON.parse(b.content).zh_cn.content[0][0].text), 0);
  }
});

Deno.test("materialise() keeps a long caption's media row under the last chunk", async () => {
  const content = await n({
    type: "image",
    source: { type: "key", key: "img_1" },
    caption: "para one\n\npara two",
  });
  const bodies = materialise(content, { limit: 10 }).bodies.map((b) => JSON.parse(b.content));
  deepEqual(bodies, [
    { zh_cn: { title: "", content: [[{ tag: "md", text: "para one" }]] } },
    {
      zh_cn: {
        title: "",
        content: [[{ tag: "md", text: "para two" }], [{ tag: "img", image_key: "img_1" }]],
      },
    },
  ]);
});
