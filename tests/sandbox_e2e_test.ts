/**
 * `deno task sandbox` end to end: the README's run command starts the
 * emulator, its web page, the bridge and the demo agent; a person writing in
 * the page (through the page's own control-plane calls) gets answers from the
 * bridge — what `help` lists (the README's promise), a markdown reply, a
 * progress card updated in phases that ends done beside a final answer, a
 * card with buttons.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D } from "../lib/emulator/mod.ts";
import { HELP } from "../lib/sandbox/demo_agent.ts";
import { REPO } from "./_server.ts";
import { sandboxArgs, startSandbox } from "./_sandbox.ts";

interface PageMessage {
  message_id: string;
  parent_id?: string | null;
  msg_type: string;
  content: Record<string, unknown>;
  sender: { type: string };
  edit_count: number;
  updated: boolean;
  deleted: boolean;
}

/** Waits, on the page's live SSE feed, until `pick` finds something in the chat. */
async function waitInChat<T>(
  url: string,
  chat: string,
  pick: (ms: PageMessage[]) => T | undefined,
): Promise<T> {
  const ctl = new AbortController();
  const res = await fetch(`${url}/__emu/api/stream`, { signal: ctl.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (let i = 0; i < 10_000; i++) {
      const items = (await (await fetch(`${url}/__emu/api/chats/${chat}/messages`)).json())
        .items as PageMessage[];
      const found = pick(items);
      if (found !== undefined) return found;
      const { done } = await reader.read(); // the next change in the emulator
      if (done) break;
    }
    throw new Error("the awaited message never appeared");
  } finally {
    ctl.abort();
    await reader.cancel().catch(() => {});
  }
}

async function say(url: string, text: string): Promise<string> {
  const res = await fetch(`${url}/__emu/api/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user_id: D.alice.openId, chat_id: D.aliceP2p, text }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).message_id as string;
}

Deno.test("deno task sandbox: a DM in the page gets the demo agent's answers through the bridge", async () => {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-sandbox-" });
  const sandbox = await startSandbox(sandboxArgs(join(REPO, "main.ts"), workdir), { cwd: REPO });
  const url = sandbox.url;
  try {
    const hello = await say(url, "hello there");
    const echo = await waitInChat(
      url,
      D.aliceP2p,
      (ms) => ms.find((m) => m.sender.type === "app" && m.parent_id === hello),
    );
    assert.equal(echo.msg_type, "post");
    assert.match(JSON.stringify(echo.content), /You said/);
    assert.match(JSON.stringify(echo.content), /hello there/);

    const ask = await say(url, "card please");
    const card = await waitInChat(
      url,
      D.aliceP2p,
      (ms) => ms.find((m) => m.sender.type === "app" && m.parent_id === ask),
    );
    assert.equal(card.msg_type, "interactive");
    assert.match(JSON.stringify(card.content), /Approve/);

    // `help` lists what the README's sandbox section promises, and the README lists what it does.
    const readme = await Deno.readTextFile(join(REPO, "README.md"));
    const promise = readme.slice(readme.indexOf("`deno task sandbox` prints a URL"));
    const paragraph = promise.slice(0, promise.indexOf("\n\n"));
    const keywords = [...HELP.matchAll(/^- `(\w+)`/gm)].map((m) => m[1]!);
    assert.deepEqual(keywords, ["progress", "card", "table"]);
    for (const word of [...keywords, "/status", "/kanban", "/clear", "image", "file", "echo"]) {
      assert.ok(paragraph.includes(word), `the README's sandbox paragraph names ${word}`);
      assert.ok(HELP.includes(word), `help names ${word}`);
    }
    const askHelp = await say(url, "help");
    const help = await waitInChat(
      url,
      D.aliceP2p,
      (ms) => ms.find((m) => m.sender.type === "app" && m.parent_id === askHelp),
    );
    for (const word of keywords) {
      assert.match(JSON.stringify(help.content), new RegExp(`\`${word}\``));
    }

    const work = await say(url, "show me progress");
    const final = await waitInChat(
      url,
      D.aliceP2p,
      (ms) => ms.find((m) => m.sender.type === "app" && m.parent_id === work),
    );
    assert.match(JSON.stringify(final.content), /Done/);
    const isTaskCard = (m: PageMessage) =>
      JSON.stringify(m.content).includes("Demo Agent Task Card");
    const isProgress = (m: PageMessage) =>
      m.sender.type === "app" && m.msg_type === "interactive" && !isTaskCard(m) &&
      m.message_id !== card.message_id;
    // The progress card was updated in place through its phases; the answer finished it.
    const done = await waitInChat(url, D.aliceP2p, (ms) => {
      const progress = ms.filter(isProgress);
      assert.ok(
        progress.length <= 1,
        `one progress card: ${JSON.stringify(progress.map((m) => m.content))}`,
      );
      return progress[0] && /✅/.test(JSON.stringify(progress[0].content))
        ? progress[0]
        : undefined;
    });
    assert.equal(done.updated, true);
    const frame = JSON.stringify(done.content);
    assert.match(frame, /"template":"green"/);
    assert.match(frame, /✅ Writing the answer \(3\/3\)/);
    assert.doesNotMatch(frame, /⏳/);
    // The demo agent logs its rounds in its events log: the chat keeps one Task Card showing its last one.
    await waitInChat(url, D.aliceP2p, (ms) => {
      const cards = ms.filter((m) => isTaskCard(m) && !m.deleted);
      const last = /✓ feishu\.reply/.test(JSON.stringify(cards[0]?.content ?? ""));
      return cards.length === 1 && last ? cards[0] : undefined;
    });

    assert.equal(await sandbox.stop("SIGINT"), true);
    assert.doesNotMatch(sandbox.log(), / ERROR /);
  } finally {
    await sandbox.stop("SIGKILL");
    await Deno.remove(workdir, { recursive: true });
  }
});
