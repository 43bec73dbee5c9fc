/**
 * The approval card of a tool-permission prompt relayed from the agent's
 * host (Claude Code): the tool, its description and a bounded preview of
 * its input, with Allow and Deny buttons; once answered, the same card shows
 * the verdict and who gave it, without buttons. Everything that comes from
 * the prompt or a user is shown as plain text, so it cannot format, link or
 * mention anyone (the relay redacts the prompt's texts before they get
 * here). The verdict's time is shown in the given time zone. Pure.
 * @module
 */

import { dateTime, machineTimeZone, validTimeZone } from "../lib/core/mod.ts";

/** Longest tool name shown, in code points. */
export const APPROVAL_TOOL_CHARS = 100;
/** Longest description shown, in code points. */
export const APPROVAL_DESCRIPTION_CHARS = 1000;
/** Longest input preview shown, in code points. */
export const APPROVAL_PREVIEW_CHARS = 1500;

/** What an approval card shows. */
export interface ApprovalView {
  requestId: string;
  toolName: string;
  description: string;
  inputPreview: string;
  /** The button values of Allow and Deny. */
  allowValue: Record<string, unknown>;
  denyValue: Record<string, unknown>;
  /** Set once answered. */
  verdict?: { behavior: "allow" | "deny"; by: string; atMs: number };
  /** IANA zone of the verdict's time (default: this machine's). */
  timeZone?: string;
}

function cut(s: string, max: number): string {
  const cps = Array.from(s);
  return cps.length > max ? `${cps.slice(0, max - 1).join("")}…` : s;
}

function plain(content: string): Record<string, unknown> {
  return { tag: "div", text: { tag: "plain_text", content } };
}

function button(label: string, type: string, value: Record<string, unknown>) {
  return {
    tag: "button",
    text: { tag: "plain_text", content: label },
    type,
    behaviors: [{ type: "callback", value }],
  };
}

function clock(ms: number, zone: string | undefined): string {
  const known = validTimeZone(zone) ?? machineTimeZone();
  return `${dateTime(ms, known)} (${known})`;
}

/**
 * Builds the approval card for its current state.
 *
 * @example
 * ```ts
 * import { approvalCard } from "./approval.ts";
 * import assert from "node:assert/strict";
 * const view = { requestId: "abcde", toolName: "Bash", description: "Run ls", inputPreview: "ls -la",
 *   allowValue: { v: "allow" }, denyValue: { v: "deny" } };
 * const open = JSON.stringify(approvalCard(view));
 * assert.ok(open.includes('"Allow"') && open.includes("yes abcde"));
 * const done = JSON.stringify(approvalCard({ ...view, verdict: { behavior: "deny", by: "Ann", atMs: 0 } }));
 * assert.ok(done.includes("Denied by Ann") && !done.includes('"button"'));
 * ```
 */
export function approvalCard(view: ApprovalView): Record<string, unknown> {
  const tool = cut(view.toolName.trim() || "a tool", APPROVAL_TOOL_CHARS);
  const { verdict } = view;
  const state = verdict
    ? verdict.behavior === "allow"
      ? { title: "Allowed", template: "green" }
      : { title: "Denied", template: "red" }
    : { title: "Permission request", template: "orange" };
  const elements: Record<string, unknown>[] = [
    plain(`Tool: ${tool}`),
  ];
  const description = view.description.trim();
  if (description) elements.push(plain(cut(description, APPROVAL_DESCRIPTION_CHARS)));
  const preview = view.inputPreview.trim();
  if (preview) {
    elements.push({ tag: "markdown", content: "**Input**" });
    elements.push(plain(cut(preview, APPROVAL_PREVIEW_CHARS)));
  }
  elements.push({ tag: "hr" });
  if (verdict) {
    const what = verdict.behavior === "allow" ? "Allowed" : "Denied";
    elements.push(
      plain(`${what} by ${cut(verdict.by, 100)} at ${clock(verdict.atMs, view.timeZone)}`),
    );
  } else {
    elements.push({
      tag: "markdown",
      content:
        `Allow or deny below, or reply \`yes ${view.requestId}\` or \`no ${view.requestId}\`.`,
    });
    elements.push(button("Allow", "primary", view.allowValue));
    elements.push(button("Deny", "danger", view.denyValue));
  }
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: {
      title: { tag: "plain_text", content: `${state.title} · ${tool}` },
      subtitle: { tag: "plain_text", content: `request ${view.requestId}` },
      template: state.template,
    },
    body: { elements },
  };
}
