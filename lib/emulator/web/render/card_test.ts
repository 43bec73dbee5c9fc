import assert from "node:assert/strict";
import { cardPreview, renderCard } from "./card.ts";
import { contextFor } from "./types.ts";

const ctx = contextFor({
  app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
  users: [{ open_id: "ou_alice", name: "Alice" }],
  chats: [],
});

const TASK_CARD = {
  schema: "2.0",
  config: { update_multi: true },
  header: { title: { tag: "plain_text", content: "LingTai Task Card" }, template: "blue" },
  body: {
    elements: [{
      tag: "markdown",
      content: "📋 ACTIVITIES\n──────────\n• public response\n\nLast Updated: 02:30:00 UTC+08",
    }],
  },
};

Deno.test("renderCard() draws the Task Card: blue header, one markdown element with line breaks", () => {
  assert.equal(
    renderCard(TASK_CARD, ctx),
    '<div class="card"><div class="card-header tpl-blue"><div class="card-title">' +
      'LingTai Task Card</div></div><div class="card-body"><div class="card-md">' +
      "<p>📋 ACTIVITIES<br>──────────<br>• public response</p><p>Last Updated: 02:30:00 UTC+08</p>" +
      "</div></div></div>",
  );
});

Deno.test("renderCard() draws the progress card with its ⏳ phase", () => {
  const html = renderCard({
    schema: "2.0",
    config: { update_multi: true },
    header: { title: { tag: "plain_text", content: "LingTai" }, template: "blue" },
    body: { elements: [{ tag: "markdown", content: "⏳ Reading the logs" }] },
  }, ctx);
  assert.ok(html.includes('<div class="card-title">LingTai</div>'));
  assert.ok(html.includes('<div class="card-md"><p>⏳ Reading the logs</p></div>'));
});

Deno.test("renderCard() gives a control card's buttons their callback value", () => {
  const value = { lingtai_control: { version: 1, command: "status", argument: "" } };
  const html = renderCard({
    schema: "2.0",
    header: { title: { tag: "plain_text", content: "LingTai · help" }, template: "blue" },
    body: {
      elements: [
        { tag: "markdown", content: "**Available**\n- `/status` — show status" },
        { tag: "button", text: { tag: "plain_text", content: "Status" }, type: "default", value },
      ],
    },
  }, ctx);
  assert.ok(html.includes("<strong>Available</strong>"));
  assert.ok(html.includes("<li><code>/status</code> — show status</li>"));
  assert.ok(
    html.includes(
      '<button type="button" class="card-btn btn-default" data-value="' +
        "{&quot;lingtai_control&quot;:{&quot;version&quot;:1,&quot;command&quot;:&quot;status&quot;," +
        '&quot;argument&quot;:&quot;&quot;}}" data-tag="button">Status</button>',
    ),
    html,
  );
});

const buttons: { name: string; el: Record<string, unknown>; want: string }[] = [
  {
    name: "a primary button with a callback behaviour",
    el: {
      tag: "button",
      type: "primary",
      name: "ok",
      text: { tag: "plain_text", content: "OK" },
      behaviors: [{ type: "callback", value: { a: 1 } }],
    },
    want: '<button type="button" class="card-btn btn-primary" data-value="{&quot;a&quot;:1}"' +
      ' data-name="ok" data-tag="button">OK</button>',
  },
  {
    name: "a danger button without value (an empty callback)",
    el: { tag: "button", type: "danger", text: { tag: "plain_text", content: "Stop" } },
    want:
      '<button type="button" class="card-btn btn-danger" data-value="{}" data-tag="button">Stop</button>',
  },
  {
    name: "a link button (open_url only, no callback)",
    el: {
      tag: "button",
      text: { tag: "plain_text", content: "Docs" },
      behaviors: [{ type: "open_url", default_url: "https://open.feishu.cn/" }],
    },
    want: '<button type="button" class="card-btn btn-default" data-url="https://open.feishu.cn/"' +
      ' data-tag="button">Docs</button>',
  },
  {
    name: "a button whose URL is not http(s) (dropped) and whose type is unknown",
    el: { tag: "button", type: 'x"y', url: "javascript:1", text: "<b>" },
    want:
      '<button type="button" class="card-btn btn-default" data-value="{}" data-tag="button">&lt;b&gt;</button>',
  },
];

for (const b of buttons) {
  Deno.test(`renderCard() renders ${b.name}`, () => {
    const html = renderCard({ schema: "2.0", body: { elements: [b.el] } }, ctx);
    assert.equal(
      html,
      `<div class="card"><div class="card-body"><div class="card-action">${b.want}</div></div></div>`,
    );
  });
}

Deno.test("renderCard() renders a v1 card: div with lark_md and fields, note, action group, hr", () => {
  const html = renderCard({
    config: { wide_screen_mode: true },
    header: { title: { tag: "plain_text", content: "Build" }, template: "red" },
    elements: [
      {
        tag: "div",
        text: { tag: "lark_md", content: "**failed** on <at id=ou_alice></at>" },
        fields: [
          { is_short: true, text: { tag: "lark_md", content: "**Branch**\nmain" } },
          { is_short: false, text: { tag: "plain_text", content: "<raw>" } },
        ],
      },
      { tag: "hr" },
      { tag: "note", elements: [{ tag: "plain_text", content: "from CI" }] },
      {
        tag: "action",
        actions: [
          { tag: "button", text: { tag: "plain_text", content: "Retry" }, value: { r: 1 } },
          { tag: "select_static", options: [] },
          { tag: "date_picker" },
        ],
      },
    ],
  }, ctx);
  assert.ok(html.includes('<div class="card-header tpl-red"><div class="card-title">Build</div>'));
  assert.ok(html.includes('<strong>failed</strong> on <span class="mention">@Alice</span>'));
  assert.ok(html.includes('<div class="card-field short"><div class="card-md"><p><strong>Branch'));
  assert.ok(html.includes('<div class="card-field">&lt;raw&gt;</div>'));
  assert.ok(html.includes('<hr class="card-hr">'));
  assert.ok(html.includes('<div class="card-note"><span>from CI</span></div>'));
  assert.ok(html.includes(">Retry</button>"));
  assert.ok(html.includes('<select class="card-select" data-tag="select_static" data-value="{}">'));
  assert.ok(html.includes('<div class="card-unsupported">[date_picker]</div>'));
});

/** The schema 2.0 elements the product's cards use, with every kind of interactive part. */
const APPROVAL_CARD = {
  schema: "2.0",
  header: {
    title: { tag: "plain_text", content: "Deploy?" },
    subtitle: { tag: "plain_text", content: "prod" },
    template: "orange",
  },
  body: {
    elements: [
      { tag: "markdown", content: "Ship **v2**" },
      { tag: "div", text: { tag: "plain_text", content: "plain" } },
      { tag: "hr" },
      { tag: "note", elements: [{ tag: "plain_text", content: "a note" }] },
      {
        tag: "column_set",
        columns: [{
          tag: "column",
          elements: [{
            tag: "button",
            name: "yes",
            text: { tag: "plain_text", content: "Yes" },
            behaviors: [{ type: "callback", value: { pick: "yes" } }],
          }],
        }, {
          tag: "column",
          elements: [{
            tag: "button",
            text: { tag: "plain_text", content: "Off" },
            value: { pick: "off" },
            disabled: true,
          }],
        }],
      },
      {
        tag: "collapsible_panel",
        header: { title: { tag: "plain_text", content: "Why" } },
        elements: [{ tag: "markdown", content: "because" }],
      },
      {
        tag: "form",
        name: "f",
        elements: [
          {
            tag: "input",
            name: "reason",
            label: { tag: "plain_text", content: "Reason" },
            placeholder: { tag: "plain_text", content: "Say why" },
          },
          {
            tag: "select_static",
            name: "env",
            placeholder: { tag: "plain_text", content: "Where" },
            initial_option: "stg",
            options: [
              { text: { tag: "plain_text", content: "Staging" }, value: "stg" },
              { text: { tag: "plain_text", content: "Prod" }, value: "prod" },
            ],
          },
          {
            tag: "button",
            name: "send",
            text: { tag: "plain_text", content: "Send" },
            form_action_type: "submit",
            behaviors: [{ type: "callback", value: { form: "f" } }],
          },
          {
            tag: "button",
            text: { tag: "plain_text", content: "Clear" },
            form_action_type: "reset",
          },
        ],
      },
      {
        tag: "select_static",
        name: "quick",
        behaviors: [{ type: "callback", value: { menu: 1 } }],
        options: [{ text: { tag: "plain_text", content: "One" }, value: "1" }],
      },
    ],
  },
};

Deno.test("renderCard() draws a form with an input, a menu and submit/reset buttons; fields carry their names", () => {
  const html = renderCard(APPROVAL_CARD, ctx);
  assert.ok(html.includes('<div class="card-form" data-form="f">'), html);
  assert.ok(
    html.includes(
      '<div class="card-input"><span class="card-label">Reason</span>' +
        '<input type="text" class="card-input-box" placeholder="Say why" data-name="reason"' +
        ' data-tag="input"></div>',
    ),
    html,
  );
  assert.ok(
    html.includes(
      '<select class="card-select" data-name="env" data-tag="select_static">' +
        '<option value="">Where</option><option value="stg" selected>Staging</option>' +
        '<option value="prod">Prod</option></select>',
    ),
    html,
  );
  assert.ok(
    html.includes(
      'data-value="{&quot;form&quot;:&quot;f&quot;}" data-name="send" data-tag="button"' +
        ' data-form-action="submit">Send</button>',
    ),
    html,
  );
  assert.ok(html.includes('data-tag="button" data-form-action="reset">Clear</button>'), html);
  // A menu outside a form calls back by itself, so it carries its callback value.
  assert.ok(
    html.includes(
      '<select class="card-select" data-name="quick" data-tag="select_static"' +
        ' data-value="{&quot;menu&quot;:1}">',
    ),
    html,
  );
});

Deno.test("renderCard() draws every schema 2.0 element of a product card, buttons inside columns included", () => {
  const html = renderCard(APPROVAL_CARD, ctx);
  assert.ok(html.includes('<div class="card-header tpl-orange"><div class="card-title">Deploy?'));
  assert.ok(html.includes('<div class="card-subtitle">prod</div>'));
  assert.ok(html.includes("<p>Ship <strong>v2</strong></p>"));
  assert.ok(html.includes('<div class="card-div"><div class="card-text">plain</div></div>'));
  assert.ok(html.includes('<hr class="card-hr">'));
  assert.ok(html.includes('<div class="card-note"><span>a note</span></div>'));
  assert.ok(
    html.includes(
      '<div class="card-column" style="flex:1 1 0"><div class="card-action"><button type="button"' +
        ' class="card-btn btn-default" data-value="{&quot;pick&quot;:&quot;yes&quot;}"' +
        ' data-name="yes" data-tag="button">Yes</button></div></div>',
    ),
    html,
  );
  assert.ok(
    html.includes('data-value="{&quot;pick&quot;:&quot;off&quot;}" data-tag="button" disabled>'),
    html,
  );
  assert.ok(html.includes('<details class="card-panel"><summary>Why</summary>'));
  assert.ok(!html.includes("card-unsupported"), html);
});

Deno.test("renderCard() picks a v1 card's i18n elements and header", () => {
  const html = renderCard({
    i18n_header: { zh_cn: { title: { tag: "plain_text", content: "标题" } } },
    i18n_elements: { zh_cn: [{ tag: "markdown", content: "你好" }] },
  }, ctx);
  assert.ok(html.includes('<div class="card-title">标题</div>'));
  assert.ok(html.includes("<p>你好</p>"));
});

Deno.test("renderCard() lays out columns, images, collapsible panels and tables", () => {
  const html = renderCard({
    schema: "2.0",
    header: {
      title: { tag: "plain_text", content: "T" },
      subtitle: { tag: "plain_text", content: "sub" },
      template: "nope",
      text_tag_list: [{
        tag: "text_tag",
        text: { tag: "plain_text", content: "new" },
        color: "green",
      }],
    },
    body: {
      elements: [
        {
          tag: "column_set",
          columns: [
            {
              tag: "column",
              width: "weighted",
              weight: 2,
              elements: [{ tag: "markdown", content: "L" }],
            },
            {
              tag: "column",
              width: "auto",
              elements: [{ tag: "img", img_key: "img_1", alt: { content: "pic" } }],
            },
          ],
        },
        {
          tag: "collapsible_panel",
          expanded: false,
          header: { title: { tag: "markdown", content: "More" } },
          elements: [{ tag: "markdown", content: "hidden" }],
        },
        {
          tag: "table",
          columns: [{ name: "k", display_name: "Key" }],
          rows: [{ k: "**v**" }],
        },
        { tag: "chart" },
      ],
    },
  }, ctx);
  assert.ok(html.includes('<div class="card-header tpl-default">'));
  assert.ok(html.includes('<span class="text-tag tpl-green">new</span>'));
  assert.ok(html.includes('<div class="card-subtitle">sub</div>'));
  assert.ok(html.includes('<div class="card-column" style="flex:2 1 0">'));
  assert.ok(html.includes('<div class="card-column" style="flex:0 0 auto">'));
  assert.ok(html.includes('<img src="/__emu/api/resource/img_1" alt="pic">'));
  assert.ok(html.includes('<details class="card-panel"><summary>More</summary>'));
  assert.ok(html.includes("<th>Key</th>"));
  assert.ok(html.includes("<td><p><strong>v</strong></p></td>"));
  assert.ok(html.includes('<div class="card-unsupported">[chart]</div>'));
});

Deno.test("renderCard() shows template and card-entity references as placeholders", () => {
  assert.ok(
    renderCard({ type: "template", data: { template_id: "ctp_1" } }, ctx)
      .includes("[Template card ctp_1]"),
  );
  assert.ok(
    renderCard({ type: "card", data: { card_id: "7x" } }, ctx).includes("[Card entity 7x]"),
  );
  assert.ok(renderCard("nope", ctx).includes("[not a card]"));
});

Deno.test("renderCard() stops at a deeply nested card instead of recursing forever", () => {
  let el: Record<string, unknown> = { tag: "markdown", content: "deep" };
  for (let i = 0; i < 40; i++) el = { tag: "column_set", columns: [{ elements: [el] }] };
  const html = renderCard({ schema: "2.0", body: { elements: [el] } }, ctx);
  assert.ok(html.includes("[too deep]"));
  assert.ok(!html.includes("deep</p>"));
});

Deno.test("cardPreview() uses the header title, else the first text", () => {
  assert.equal(cardPreview(TASK_CARD), "LingTai Task Card");
  assert.equal(
    cardPreview({ elements: [{ tag: "div", text: { tag: "plain_text", content: "a\nb" } }] }),
    "a b",
  );
  assert.equal(cardPreview(null), "");
});
