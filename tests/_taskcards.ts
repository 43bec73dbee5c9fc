/**
 * Test helpers for the Task Card end-to-end suites: an agent workdir with an
 * events log the test appends to (as the agent's kernel does), the agent's
 * runtime state, the emulator's view of the cards (live ones, and every
 * card write it was ever asked for, per chat), the store read beside the
 * running server, and the server's Task Card status.
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DEFAULT_IDS as D, type Emulator } from "../lib/emulator/mod.ts";
import type { StoredMessage } from "../lib/emulator/world.ts";
import type { TaskCardStatus } from "../lib/taskcard/mod.ts";
import { type Bridge, bridgeConfig, startBridge } from "./_inbound.ts";

/** A loose JSON object. */
export type Rec = Record<string, unknown>;
/** The card's title names the agent (its `.agent.json` name). */
const TITLE = "scribe Task Card";

/** A workdir with an (empty) agent events log, of an agent named `scribe` unless told otherwise. */
export async function agentDir(identity: Rec = { agent_name: "scribe" }): Promise<string> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-taskcards-" });
  await Deno.mkdir(join(workdir, "logs"));
  await Deno.writeTextFile(join(workdir, "logs", "events.jsonl"), "");
  await Deno.writeTextFile(join(workdir, ".agent.json"), JSON.stringify(identity));
  return workdir;
}

/** Appends events log rows the way the agent's kernel does (one JSON object per line). */
export async function appendEvents(workdir: string, ...rows: Rec[]): Promise<void> {
  const text =
    rows.map((r) => JSON.stringify({ agent_name: "scribe", ts: Date.now() / 1000, ...r }))
      .join("\n") + "\n";
  await Deno.writeTextFile(join(workdir, "logs", "events.jsonl"), text, { append: true });
}

/** Publishes the agent's runtime state (`.status.json`). */
export async function agentState(workdir: string, state: "active" | "idle"): Promise<void> {
  await Deno.writeTextFile(join(workdir, ".status.json"), JSON.stringify({ runtime: { state } }));
}

/** A public text row of a provider round. */
export const diary = (text: string, round = "call-1"): Rec => ({
  type: "diary",
  text,
  api_call_id: round,
});

/** A tool call row: its public reasoning and its (private) arguments. */
export const toolCall = (tool: string, reasoning: string, round: string, args: Rec = {}): Rec => ({
  type: "tool_call",
  tool_name: tool,
  tool_call_id: `${round}-${tool}-${reasoning.length}`,
  api_call_id: round,
  tool_args: { _reasoning: reasoning, ...args },
});

function cardText(content: unknown): string | null {
  try {
    const card = JSON.parse(String(content));
    return card.header?.title?.content === TITLE ? String(card.body.elements[0].content) : null;
  } catch {
    return null;
  }
}

/** Whether a stored message is a Task Card. */
export function isTaskCard(m: StoredMessage): boolean {
  return m.sender.type === "app" && m.msgType === "interactive" && cardText(m.content) !== null;
}

/** The frame text a Task Card shows. */
export function frameOf(m: StoredMessage): string {
  return cardText(m.content) ?? "";
}

/** The live Task Cards of a chat (or of one topic), oldest first. */
export function cards(emu: Emulator, chatId: string, threadId?: string): StoredMessage[] {
  return emu.messages(chatId).filter((m) =>
    isTaskCard(m) && !m.deleted && (threadId === undefined || m.threadId === threadId)
  );
}

/** Waits until the chat has one live card whose frame satisfies `test`. */
export function cardShowing(
  emu: Emulator,
  chatId: string,
  test: (frame: string) => boolean,
  threadId?: string,
): Promise<StoredMessage> {
  return emu.waitFor(() => {
    const live = cards(emu, chatId, threadId);
    return live.length === 1 && test(frameOf(live[0]!)) ? live[0] : undefined;
  }, { description: "a task card showing the expected frame" });
}

/** The last live message of a chat. */
export const lastOf = (emu: Emulator, chatId: string) =>
  emu.messages(chatId).filter((m) => !m.deleted).at(-1);

/** The PATCHes of one message. */
export function cardEdits(emu: Emulator, messageId: string) {
  return emu.requests({ path: `/open-apis/im/v1/messages/${messageId}` })
    .filter((r) => r.method === "PATCH");
}

/** One Task Card write the emulator was asked for. */
export interface CardWrite {
  kind: "send" | "edit" | "delete";
  chatId: string;
  /** The frame sent or edited in (empty for a delete). */
  text: string;
  seq: number;
}

/**
 * Every Task Card write the emulator was asked for (sends, replies in a
 * topic, edits, deletes), answered or not, optionally of one chat only.
 */
export function cardWrites(emu: Emulator, chatId?: string): CardWrite[] {
  const out: CardWrite[] = [];
  for (const r of emu.requests({ path: /^\/open-apis\/im\/v1\/messages/ })) {
    const [, , , , , id, sub] = r.path.split("/");
    const body = (r.body ?? {}) as Rec;
    const target = id === undefined ? undefined : emu.world.messages.get(id);
    let write: CardWrite | null = null;
    if (r.method === "POST" && id === undefined && body.msg_type === "interactive") {
      const text = cardText(body.content);
      if (text !== null) {
        write = { kind: "send", chatId: String(body.receive_id), text, seq: r.seq };
      }
    } else if (r.method === "POST" && sub === "reply" && target) {
      const text = cardText(body.content);
      if (text !== null) write = { kind: "send", chatId: target.chatId, text, seq: r.seq };
    } else if (r.method === "PATCH" && sub === undefined) {
      const text = cardText(body.content);
      const chat = target?.chatId ?? "";
      if (text !== null) write = { kind: "edit", chatId: chat, text, seq: r.seq };
    } else if (r.method === "DELETE" && sub === undefined && target && isTaskCard(target)) {
      write = { kind: "delete", chatId: target.chatId, text: "", seq: r.seq };
    }
    if (write && (chatId === undefined || write.chatId === chatId)) out.push(write);
  }
  return out;
}

/** Counts of card writes by kind. */
export function countWrites(writes: readonly CardWrite[]): Record<CardWrite["kind"], number> {
  const n = { send: 0, edit: 0, delete: 0 };
  for (const w of writes) n[w.kind]++;
  return n;
}

/** Reads rows of the running server's store (WAL: a second reader is fine). */
export function storeRows(workdir: string, sql: string): Rec[] {
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"), { readOnly: true });
  try {
    return db.prepare(sql).all().map((r) => ({ ...r }));
  } finally {
    db.close();
  }
}

/** Writes to the store beside the running server (waits out its write lock). */
export function storeWrite(workdir: string, sql: string, ...params: (string | number)[]): void {
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"));
  try {
    db.exec("PRAGMA busy_timeout = 10000");
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** The server's Task Card status. */
export async function taskStatus(bridge: Bridge): Promise<TaskCardStatus> {
  return ((await bridge.status()) as { task_cards: TaskCardStatus }).task_cards;
}

/** Starts the server on the emulator, with an optional `taskcard` config. */
export async function start(emu: Emulator, workdir: string, taskcard?: Rec): Promise<Bridge> {
  const top = taskcard ? { taskcard } : {};
  // Alice owns the agent: `/taskcard` is a control command.
  return await startBridge({
    workdir,
    config: bridgeConfig(emu.url, { top, account: { owners: [D.alice.openId] } }),
  });
}

/** Asserts the reply went out. */
export function assertSent(out: Rec): void {
  assert.equal(out.status, "sent", JSON.stringify(out));
}
