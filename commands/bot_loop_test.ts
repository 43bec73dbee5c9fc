import assert from "node:assert/strict";
import { messagesFor } from "../cards/mod.ts";
import { botLoopCard } from "./bot_loop.ts";

const view = { chatId: "oc_team", chatName: "Team", max: 10, windowSeconds: 600 };

Deno.test("botLoopCard() names the chat and the cap in the agent's language", () => {
  const en = JSON.stringify(botLoopCard(messagesFor("en"), view));
  assert.match(en, /Bot loop guard/);
  assert.match(en, /Team \(`oc_team`\)/);
  assert.match(en, /at most 10 wake the Agent in 10 minutes/);
  const zh = JSON.stringify(botLoopCard(messagesFor("zh"), view));
  assert.match(zh, /机器人循环保护/);
  assert.match(zh, /10 分钟内最多唤醒 Agent 10 次/);
  assert.match(JSON.stringify(botLoopCard(messagesFor("wen"), view)), /唤机至多 10 次/);
});

Deno.test("botLoopCard() shows an unnamed chat by its id, and nothing that is not an id", () => {
  const unnamed = JSON.stringify(botLoopCard(messagesFor("en"), { ...view, chatName: null }));
  assert.match(unnamed, /in \*\*`oc_team`\*\*/);
  const odd = JSON.stringify(
    botLoopCard(messagesFor("en"), { ...view, chatId: "../x", chatName: "" }),
  );
  assert.match(odd, /in \*\*\?\*\*/);
  const half = JSON.stringify(botLoopCard(messagesFor("en"), { ...view, windowSeconds: 90 }));
  assert.match(half, /in 1.5 minutes/);
});
