import assert from "node:assert/strict";
import { renderMarkdown } from "./markdown.ts";
import { contextFor } from "./types.ts";

const ctx = contextFor({
  app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
  users: [{ open_id: "ou_alice", name: "Alice" }],
  chats: [],
});

const cases: { name: string; md: string; want: string }[] = [
  {
    name: "renders a GFM table with its column alignment",
    md: "| a | b | c |\n|:--|:-:|--:|\n| 1 | **2** | `3` |",
    want: '<div class="table-wrap"><table><thead><tr><th style="text-align:left">a</th>' +
      '<th style="text-align:center">b</th><th style="text-align:right">c</th></tr></thead>' +
      '<tbody><tr><td style="text-align:left">1</td><td style="text-align:center">' +
      '<strong>2</strong></td><td style="text-align:right"><code>3</code></td></tr></tbody>' +
      "</table></div>",
  },
  {
    name: "nests lists three deep, ordered inside unordered",
    md: "- one\n  - two\n    1. three\n    2. four\n- five",
    want: "<ul><li>one<ul><li>two<ol><li>three</li><li>four</li></ol></li></ul></li>" +
      "<li>five</li></ul>",
  },
  {
    name: "keeps the start number of an ordered list",
    md: "3. three\n4. four",
    want: '<ol start="3"><li>three</li><li>four</li></ol>',
  },
  {
    name: "keeps paragraphs inside the items of a loose list",
    md: "- a\n\n- b",
    want: "<ul><li><p>a</p></li><li><p>b</p></li></ul>",
  },
  {
    name: "shows a fenced code block with its language, escaped",
    md: "```python\nif a < b and c > d:\n    print('&')\n```",
    want: '<div class="code-block"><div class="code-lang">python</div><pre><code>' +
      "if a &lt; b and c &gt; d:\n    print(&#39;&amp;&#39;)</code></pre></div>",
  },
  {
    name: "keeps a ~~~ fence with a c++ info string",
    md: "~~~c++\nint x;\n~~~",
    want:
      '<div class="code-block"><div class="code-lang">c++</div><pre><code>int x;</code></pre></div>',
  },
  {
    name: "escapes a raw <script> block instead of injecting it",
    md: "<script>alert(1)</script>",
    want: "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
  },
  {
    name: "escapes inline HTML with event handlers",
    md: 'x <img src=x onerror="alert(1)"> y',
    want: "<p>x &lt;img src=x onerror=&quot;alert(1)&quot;&gt; y</p>",
  },
  {
    name: "renders headings, quotes, rules and inline styles",
    md: "# H1\n### H3\n> **b** *i* ~~s~~ `c`\n\n---",
    want: "<h1>H1</h1><h3>H3</h3><blockquote><p><strong>b</strong> <em>i</em> <del>s</del> " +
      "<code>c</code></p></blockquote><hr>",
  },
  {
    name: "turns single newlines into line breaks, as Feishu does",
    md: "📋 ACTIVITIES\n──────────\n• public response",
    want: "<p>📋 ACTIVITIES<br>──────────<br>• public response</p>",
  },
  {
    name: "links http(s) and mailto, and drops javascript: links to their text",
    md: "[ok](https://a.example/x) [mail](mailto:a@b.c) [bad](javascript:alert(1)) www.b.example",
    want: '<p><a href="https://a.example/x" target="_blank" rel="noopener noreferrer">ok</a> ' +
      '<a href="mailto:a@b.c" target="_blank" rel="noopener noreferrer">mail</a> bad ' +
      '<a href="http://www.b.example" target="_blank" rel="noopener noreferrer">www.b.example</a></p>',
  },
  {
    name: "resolves reference links through their definitions",
    md: "[docs][d]\n\n[d]: https://open.feishu.cn/",
    want:
      '<p><a href="https://open.feishu.cn/" target="_blank" rel="noopener noreferrer">docs</a></p>',
  },
  {
    name: "shows an image key as an uploaded image and an external image as a link",
    md: "![chart](img_v3_1) ![ext](https://x.example/a.png)",
    want: '<p><img class="md-img" src="/__emu/api/resource/img_v3_1" alt="chart"> ' +
      '<a href="https://x.example/a.png" target="_blank" rel="noopener noreferrer">🖼 ext</a></p>',
  },
  {
    name: "renders <at> tags as mentions, named by the tag or by lookup",
    md:
      '<at id="ou_alice"></at> <at user_id="ou_bot">Bot</at> <at id=all></at> <at id="ou_x"></at>',
    want: '<p><span class="mention">@Alice</span> <span class="mention">@Bot</span> ' +
      '<span class="mention">@All</span> <span class="mention">@ou_x</span></p>',
  },
  {
    name: "colours <font> text from a fixed palette and ignores unknown colours",
    md: "<font color='red'>**hot**</font> <font color=\"url(x)\">plain</font>",
    want: '<p><span class="font-red"><strong>hot</strong></span> plain</p>',
  },
  {
    name: "shows Feishu emoji codes as glyphs and leaves unknown codes alone",
    md: ":DONE: :NotAnEmoji:",
    want: '<p><span class="emoji" title="DONE">✅</span> :NotAnEmoji:</p>',
  },
  {
    name: "shows character references as plain characters, never as a mention, link or style",
    md: "&lt;at id=all&gt;&lt;/at&gt; &#91;x&#93;(u) !&#91;i&#93;(img&#95;v3&#95;1) " +
      "&#42;&#42;b&#42;&#42; &lt;font color=red&gt;r&lt;/font&gt; &#96;c&#96; a &#124; b &amp;lt;",
    want: "<p>&lt;at id=all&gt;&lt;/at&gt; [x](u) ![i](img_v3_1) **b** " +
      "&lt;font color=red&gt;r&lt;/font&gt; `c` a | b &amp;lt;</p>",
  },
  {
    name: "shows escaped line-start markers as text: no heading, list, quote or code block",
    md: "&#35; h\n&#45; i\n1&#46; o\n&gt; q\n&#160;&#160;&#160;&#160;code",
    want: "<p># h<br>- i<br>1. o<br>&gt; q<br>\u00a0\u00a0\u00a0\u00a0code</p>",
  },
  {
    name: "renders task list items as disabled checkboxes",
    md: "- [x] done\n- [ ] todo",
    want: '<ul><li class="task"><input type="checkbox" disabled checked> done</li>' +
      '<li class="task"><input type="checkbox" disabled> todo</li></ul>',
  },
];

for (const c of cases) {
  Deno.test(`renderMarkdown() ${c.name}`, () => {
    assert.equal(renderMarkdown(c.md, { ctx }), c.want);
  });
}

Deno.test("renderMarkdown() keeps soft line breaks as spaces when breaks is false", () => {
  assert.equal(renderMarkdown("a\nb", { breaks: false }), "<p>a\nb</p>");
});

Deno.test("renderMarkdown() renders the Task Card frame line by line", () => {
  const frame = [
    "📋 ACTIVITIES",
    "──────────",
    "• public response",
    "• bash.run: build (0s, ???) · 12:00:00 UTC+00",
    "",
    "Don't reply to this Task Card. Use /taskcard on|off to toggle; /taskcard N sets normal rows (1-10, current: 1).",
    "agent · active · session · calls 2",
    "Last Updated: 02:30:00 UTC+08",
  ].join("\n");
  const html = renderMarkdown(frame);
  assert.equal(html.match(/<p>/g)?.length, 2);
  assert.equal(html.match(/<br>/g)?.length, 5);
  assert.ok(html.includes("<br>• bash.run: build (0s, ???) · 12:00:00 UTC+00</p>"));
  assert.ok(!html.includes("<table"), "a | in the footer is not a table");
});
