/**
 * The demo agent's events log: like a LingTai runtime, it logs each
 * round of its work to `<workdir>/logs/events.jsonl` (its visible text and
 * every tool call with a public reason, then the result) and publishes its
 * runtime state in `.status.json`. That is what the bridge's resident Task
 * Card shows, and what tells it a task has ended (the `DONE` reaction).
 * @module
 */

import { join } from "node:path";
import type { ToolCall } from "./demo_agent.ts";

/** Wraps the tool caller so every call is logged in the current round. */
export function eventsLoggingCaller(workdir: string, call: ToolCall): {
  /** Creates the (empty) events log, as a runtime does at start, so the first message gets a card. */
  open(): Promise<void>;
  call: ToolCall;
  /** Runs one round of work (one message answered) between `active` and `idle`. */
  round(summary: string, work: () => Promise<void>): Promise<void>;
} {
  const path = join(workdir, "logs", "events.jsonl");
  let round = 0;
  let calls = 0;
  const append = async (row: Record<string, unknown>) => {
    await Deno.mkdir(join(workdir, "logs"), { recursive: true });
    const line = JSON.stringify({ agent_name: "demo", ts: Date.now() / 1000, ...row });
    await Deno.writeTextFile(path, `${line}\n`, { append: true });
  };
  const setState = async (state: string) => {
    const file = join(workdir, ".status.json");
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(await Deno.readTextFile(file));
    } catch { /* a fresh status */ }
    const runtime = typeof data.runtime === "object" && data.runtime ? data.runtime : {};
    await Deno.writeTextFile(file, JSON.stringify({ ...data, runtime: { ...runtime, state } }));
  };
  return {
    async open() {
      await Deno.mkdir(join(workdir, "logs"), { recursive: true });
      await Deno.writeTextFile(path, "", { append: true });
    },
    async call(action, input) {
      const id = `demo-${round}-${++calls}`;
      const apiCallId = `demo-round-${round}`;
      const started = Date.now();
      await append({
        type: "tool_call",
        api_call_id: apiCallId,
        tool_name: "feishu",
        tool_call_id: id,
        tool_args: { action, _reasoning: `${action} in the chat`, input },
      });
      try {
        const out = await call(action, input);
        const status = out.status === "failed" ? "error" : "success";
        await append({
          type: "tool_result",
          tool_call_id: id,
          status,
          elapsed_ms: Date.now() - started,
        });
        return out;
      } catch (err) {
        await append({ type: "tool_result", tool_call_id: id, status: "error" });
        throw err;
      }
    },
    async round(summary, work) {
      round++;
      await setState("active");
      await append({ type: "diary", api_call_id: `demo-round-${round}`, text: summary });
      try {
        await work();
      } finally {
        await setState("idle");
      }
    },
  };
}
