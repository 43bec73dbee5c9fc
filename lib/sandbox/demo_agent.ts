/**
 * The sandbox's demo agent: an MCP client without an LLM. It spawns the
 * bridge, listens to its Claude-channel pushes and answers through the
 * `feishu` tool, so a newcomer sees the whole loop: a markdown reply, a
 * progress card it updates (the bridge finishes it), a card with buttons, attachments seen.
 * @module
 */

import type { Client } from "../mcp/client.ts";

/** One inbound push as the bridge sends it. */
export interface ChannelPush {
  content: string;
  meta: Record<string, string>;
}

/** What the agent does with the tool. */
export type ToolCall = (
  action: string,
  input: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/** Builds the tool caller over an MCP client. */
export function toolCaller(client: Client): ToolCall {
  return async (action, input) => {
    const res = await client.callTool({
      name: "feishu",
      arguments: { action, input, reasoning: "sandbox demo agent" },
    });
    return res.structuredContent as Record<string, unknown>;
  };
}

/** What `help` answers; the README's sandbox section promises the same. */
export const HELP = [
  "**I am the sandbox demo agent** (no LLM: I react to keywords).",
  "",
  "- `progress` — a progress card I update in phases, the final answer as its own message (the bridge then marks the card done)",
  "- `card` — a card with buttons: click one and I edit the card to show your choice",
  "- `table` — markdown with a table and code",
  "- send an image or a file — I tell you where the bridge stored it",
  "- anything else — I echo it back as markdown",
  "",
  "Slash commands are answered by the bridge itself, not by me: `/help` for everyone; " +
  "`/status`, `/kanban`, `/clear` and the others for the agent's owners (here Alice; " +
  "Bob, in the Team group, is told that only owners may).",
].join("\n");

/** The choice a click on the demo card carries (`{"demo": …}`), or null. */
function demoChoice(content: string): string | null {
  const json = content.slice(content.indexOf("] ") + 2);
  try {
    const value = JSON.parse(json) as { demo?: unknown };
    return typeof value.demo === "string" ? value.demo : null;
  } catch {
    return null;
  }
}

/** A click on the demo card: the card itself changes to show the choice. */
async function answerClick(push: ChannelPush, call: ToolCall): Promise<void> {
  const card = push.meta.source_message_id;
  const choice = demoChoice(push.content);
  if (!card || !choice) return;
  const who = push.meta.user ?? "someone";
  await call("edit", {
    message_id: card,
    content: {
      type: "card",
      card: {
        schema: "2.0",
        config: { update_multi: true },
        header: {
          title: { tag: "plain_text", content: choice === "approve" ? "Approved" : "Rejected" },
          template: choice === "approve" ? "green" : "red",
        },
        body: {
          elements: [{
            tag: "markdown",
            content: `**${who}** chose **${choice}**. The agent saw the click as a ` +
              "`card_action` record and edited this card in place.",
          }],
        },
      },
    },
  });
}

/** Handles one inbound message. Never throws (errors are returned as text). */
export async function answer(push: ChannelPush, call: ToolCall): Promise<void> {
  const id = push.meta.message_id;
  if (!id) return;
  if (push.meta.message_type === "card_action") return await answerClick(push, call);
  const text = push.content.trim();
  const lower = text.toLowerCase();
  const reply = (content: Record<string, unknown>) => call("reply", { message_id: id, content });

  if (push.meta.attachment_count && Number(push.meta.attachment_count) > 0) {
    const lines = [];
    for (let i = 1; i <= Number(push.meta.attachment_count); i++) {
      const kind = push.meta[`attachment_${i}_kind`] ?? "file";
      const status = push.meta[`attachment_${i}_status`] ?? "?";
      const path = push.meta[`attachment_${i}_path`];
      const size = push.meta[`attachment_${i}_size`];
      lines.push(
        `- **${kind}** ${status}${size ? `, ${size} bytes` : ""}${path ? `\n  \`${path}\`` : ""}`,
      );
    }
    await reply({ type: "markdown", markdown: `Got your attachment(s):\n\n${lines.join("\n")}` });
    return;
  }
  if (lower === "help" || lower === "/help" || lower === "?") {
    await reply({ type: "markdown", markdown: HELP });
    return;
  }
  if (lower.includes("progress")) {
    // A native progress card, as the manual asks: phases by edit, the answer as
    // its own message; the bridge gives the card its finished frame after it.
    const card = await call("send", {
      receive_id: push.meta.chat_id!,
      receive_id_type: "chat_id",
      text: "Reading your request (1/3)…",
      placeholder: true,
    });
    const cardId = card.message_id as string | undefined;
    for (const phase of ["Looking things up (2/3)…", "Writing the answer (3/3)"]) {
      await new Promise((r) => setTimeout(r, 1200));
      if (cardId) await call("edit", { message_id: cardId, text: phase });
    }
    await reply({
      type: "markdown",
      markdown:
        "**Done.** The progress card above showed the phases; this is the final answer, sent as its own message.",
    });
    return;
  }
  if (lower.includes("card")) {
    await reply({
      type: "card",
      card: {
        schema: "2.0",
        header: { title: { tag: "plain_text", content: "Pick one" }, template: "indigo" },
        body: {
          elements: [
            {
              tag: "markdown",
              content: "A **schema-2.0** card. Buttons send a real `card.action.trigger`.",
            },
            {
              tag: "button",
              text: { tag: "plain_text", content: "👍 Approve" },
              type: "primary",
              behaviors: [{ type: "callback", value: { demo: "approve" } }],
            },
            {
              tag: "button",
              text: { tag: "plain_text", content: "Reject" },
              type: "danger",
              behaviors: [{ type: "callback", value: { demo: "reject" } }],
            },
          ],
        },
      },
    });
    return;
  }
  if (lower.includes("table")) {
    await reply({
      type: "markdown",
      markdown: [
        "## A small report",
        "",
        "| metric | value |",
        "|---|---|",
        "| messages | 3 |",
        "| latency | 12 ms |",
        "",
        "```ts",
        'const greeting = "hello from the sandbox";',
        "```",
      ].join("\n"),
    });
    return;
  }
  await reply({
    type: "markdown",
    markdown: `**You said:** ${text || "(nothing)"}\n\n_Type \`help\` to see what I can show you._`,
  });
}
