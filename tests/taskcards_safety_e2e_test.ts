/**
 * End to end, what the Task Card lets out of the agent's events log: the
 * real server over stdio against the emulator. Every secret shape written
 * into any field a card shows (diary text, tool reasoning, action, name)
 * and the configured `app_secret` never reach any card body Feishu
 * received; mentions and links arrive as escaped plain text (the emulator's
 * own card renderer draws them as text); a row nested 3000 levels deep does
 * not freeze the card; the card speaks the agent's language, names the
 * agent, and shows times in the agent's time zone.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import type { StoredMessage } from "../lib/emulator/world.ts";
import { renderMarkdown } from "../lib/emulator/web/render/markdown.ts";
import { agentDir, start } from "./_taskcards.ts";

type Rec = Record<string, unknown>;

/** Assembled at run time so that no token-shaped literal sits in the repository. */
const alnum = (n: number) => "Q7w8E9r0T1y2".repeat(Math.ceil(n / 12)).slice(0, n);
const awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiC" + alnum(11);
const basic = btoa("admin:Sup3rS3cretPw");

/** Each secret as written into the events log, and the part of it that must never show. */
const SECRETS: readonly (readonly [string, string])[] = [
  ["configured app secret", D.appSecret],
  ["GitHub token", `ghp_${alnum(36)}`],
  ["exported GitHub token", `export GITHUB_TOKEN=ghp_${alnum(30)}Zz9Yy8`],
  ["OpenAI project key", `sk-proj-${alnum(48)}`],
  ["Anthropic key", `sk-ant-api03-${alnum(60)}`],
  ["Slack token", `xoxb-1234567890-${alnum(24)}`],
  ["Feishu tenant token", `t-g1044${alnum(30)}`],
  ["Feishu user token", `u-${alnum(32)}`],
  ["AWS access key id", "AKIA" + "IOSFODNN7EXAMPLE"],
  ["AWS secret key", `aws_secret_access_key=${awsSecret}`],
  ["URL password", "https://deploy:Pa55w0rdXyz9@git.example.com/r.git"],
  ["Basic credentials", `Authorization: Basic ${basic}`],
  ["Bearer token", `Bearer ${alnum(40)}`],
  ["Slack webhook", `https://hooks.slack.com/services/T0ABC1234/B0DEF5678/${alnum(24)}`],
  ["secret flag", "--secret fl4gV4lueXyz"],
  ["token flag", "--token=t0kV4lueXyz"],
  ["password pair", "password=hunter2hunter2xyz"],
  [
    "PEM block",
    `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${alnum(60)}\n-----END RSA PRIVATE KEY-----`,
  ],
];

/** What must never appear in a card (the value, not the key or prefix that names it). */
const NEEDLES: readonly string[] = [
  D.appSecret,
  `ghp_${alnum(36)}`,
  `${alnum(30)}Zz9Yy8`,
  `sk-proj-${alnum(48)}`,
  `sk-ant-api03-${alnum(60)}`,
  `xoxb-1234567890-${alnum(24)}`,
  `g1044${alnum(30)}`,
  alnum(32),
  "IOSFODNN7EXAMPLE",
  awsSecret,
  "Pa55w0rdXyz9",
  basic,
  alnum(40),
  `T0ABC1234/B0DEF5678/${alnum(24)}`,
  "fl4gV4lueXyz",
  "t0kV4lueXyz",
  "hunter2hunter2xyz",
  `MIIEpAIBAAKCAQEA${alnum(60)}`,
];

async function appendLines(workdir: string, ...lines: string[]): Promise<void> {
  await Deno.writeTextFile(join(workdir, "logs", "events.jsonl"), lines.join("\n") + "\n", {
    append: true,
  });
}

const row = (r: Rec) => JSON.stringify({ agent_name: "scribe", ts: Date.now() / 1000, ...r });
const diary = (text: string, round = "call-1") => row({ type: "diary", text, api_call_id: round });

function cardOf(m: StoredMessage): { title: string; content: string } | null {
  if (m.sender.type !== "app" || m.msgType !== "interactive") return null;
  try {
    const card = JSON.parse(m.content);
    return {
      title: String(card.header?.title?.content),
      content: String(card.body.elements[0].content),
    };
  } catch {
    return null;
  }
}

/** Waits for the chat's one live card with `title` whose markdown satisfies `test`. */
function cardShowing(
  emu: Emulator,
  title: string,
  test: (content: string) => boolean,
): Promise<{ title: string; content: string }> {
  return emu.waitFor(() => {
    const live = emu.messages(D.aliceP2p).filter((m) => !m.deleted && cardOf(m)?.title === title);
    const card = live.length === 1 ? cardOf(live[0]!) : null;
    return card && test(card.content) ? card : undefined;
  }, { description: `a "${title}" card showing the expected frame` });
}

/** Every message body Feishu received from the bridge (sends, replies and edits). */
function sentBodies(emu: Emulator): string[] {
  return emu.requests()
    .filter((r) =>
      (r.method === "POST" || r.method === "PATCH" || r.method === "PUT") &&
      r.path.startsWith("/open-apis/im/v1/messages")
    )
    .map((r) => JSON.stringify(r.body ?? null));
}

Deno.test("no secret written to the events log reaches any card Feishu received, in any field", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "deploy it" });
    await cardShowing(emu, "scribe Task Card", (c) => c.startsWith("📋"));
    const all = SECRETS.map(([, s]) => s).join(" ");
    const lines = [diary(`deploying now with ${all}`, "r1")];
    // Every secret once in each field a tool row shows, one call per secret.
    SECRETS.forEach(([what, secret], i) => {
      lines.push(row({
        type: "tool_call",
        api_call_id: "r1",
        tool_call_id: `c${i}`,
        tool_name: secret,
        tool_args: { action: secret, _reasoning: `${what}: ${secret}` },
      }));
    });
    lines.push(diary("all secrets written", "r1"));
    await appendLines(workdir, ...lines);
    const shown = await cardShowing(
      emu,
      "scribe Task Card",
      (c) => c.includes("all secrets written"),
    );
    assert.ok(shown.content.includes("deploying now with"), "the rows really are on the card");
    assert.ok(shown.content.includes("REDACTED:"), "secrets are replaced by readable placeholders");
    const bodies = sentBodies(emu);
    assert.ok(bodies.length >= 2);
    for (const body of bodies) {
      for (const needle of NEEDLES) {
        assert.ok(!body.includes(needle), `${needle} reached Feishu: ${body.slice(0, 300)}`);
      }
    }
  } finally {
    await bridge.close();
  }
});

Deno.test("a mention and a link from the events log arrive as escaped plain text", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
    await cardShowing(emu, "scribe Task Card", (c) => c.startsWith("📋"));
    await appendLines(
      workdir,
      diary("ping <at id=all></at> and [click](https://evil.example/x) ![i](img_v3_1) **loud**"),
    );
    const card = await cardShowing(emu, "scribe Task Card", (c) => c.includes("ping"));
    assert.ok(card.content.includes("ping &lt;at id=all&gt;&lt;/at&gt; and &#91;click&#93;"));
    assert.ok(!/<at\b/i.test(card.content) && !card.content.includes("[click]"));
    // The emulator's card renderer (as the web page draws it) shows it all as text.
    const html = renderMarkdown(card.content);
    assert.ok(!html.includes('class="mention"'), html);
    assert.ok(!html.includes(">click</a>") && !html.includes("<img") && !html.includes("<strong>"));
    assert.ok(
      html.includes("ping &lt;at id=all&gt;&lt;/at&gt; and [click](") && html.includes("**loud**"),
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("a row nested 3000 levels deep does not freeze the card: later rows still show", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "go" });
    await cardShowing(emu, "scribe Task Card", (c) => c.startsWith("📋"));
    const deep = "[".repeat(3000) + "]".repeat(3000);
    const nested = '{"a":'.repeat(3000) + "1" + "}".repeat(3000);
    await appendLines(
      workdir,
      diary("before the deep rows", "r1"),
      `{"type":"notification_block_injected","_meta":{"agent_meta":{"agent_state":` +
        `{"token_usage":{"session":{"api_calls":${deep},"context_usage":0.25}}}}}}`,
      `{"type":"diary","api_call_id":"r1","text":"nested","extra":${nested}}`,
      `{"type":"tool_call","api_call_id":"r1","tool_name":"bash","tool_args":${nested}}`,
    );
    await cardShowing(emu, "scribe Task Card", (c) => c.includes("before the deep rows"));
    await appendLines(workdir, diary("after the deep rows", "r2"));
    const card = await cardShowing(
      emu,
      "scribe Task Card",
      (c) => c.includes("after the deep rows"),
    );
    assert.ok(card.content.includes("ctx · 25%"), "the sane telemetry of the deep row is kept");
  } finally {
    await bridge.close();
  }
});

Deno.test("the card names the agent, speaks its language and shows times in its time zone", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir({ nickname: "书记", language: "zh", time_zone: "Asia/Shanghai" });
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "你好" });
    await appendLines(
      workdir,
      row({
        type: "tool_call",
        api_call_id: "r1",
        tool_name: "bash",
        tool_call_id: "c1",
        tool_args: {},
      }),
    );
    const card = await cardShowing(emu, "书记 任务卡片", (c) => c.includes("bash"));
    const lines = card.content.split("\n");
    assert.equal(lines[0], "📋 动态");
    assert.match(lines[2]!, /^• bash: +\(0s, 进行中\) · \d\d:\d\d:\d\d$/);
    assert.match(lines.at(-1)!, /^最后更新：\d\d:\d\d:\d\d \(Asia\/Shanghai\)$/);
    assert.ok(card.content.includes("请勿回复此任务卡片"));
    // A new name and language show on the next poll, on the same card.
    await Deno.writeTextFile(
      join(workdir, ".agent.json"),
      JSON.stringify({ agent_name: "scribe", language: "wen", timezone: "Europe/Paris" }),
    );
    const wen = await cardShowing(emu, "scribe 任务之牒", (c) => c.startsWith("📋 行迹"));
    assert.match(wen.content.split("\n").at(-1)!, /^更于：\d\d:\d\d:\d\d \(Europe\/Paris\)$/);
  } finally {
    await bridge.close();
  }
});
