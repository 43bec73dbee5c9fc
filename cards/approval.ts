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
import { fill, type Messages, TABLES } from "./i18n/mod.ts";

/** The approval card's texts in one language. */
export type ApprovalTexts = Messages["approval"];

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
  /** The card's language (default English). */
  texts?: ApprovalTexts;
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
  const t = view.texts ?? TABLES.en.approval;
  const tool = cut(view.toolName.trim() || t.a_tool, APPROVAL_TOOL_CHARS);
  const { verdict } = view;
  const state = verdict
    ? verdict.behavior === "allow"
      ? { title: t.allowed, template: "green" }
      : { title: t.denied, template: "red" }
    : { title: t.request, template: "orange" };
  const elements: Record<string, unknown>[] = [
    plain(fill(t.tool, { tool })),
  ];
  const description = view.description.trim();
  if (description) elements.push(plain(cut(description, APPROVAL_DESCRIPTION_CHARS)));
  const preview = view.inputPreview.trim();
  if (preview) {
    elements.push({ tag: "markdown", content: `**${t.input}**` });
    elements.push(plain(cut(preview, APPROVAL_PREVIEW_CHARS)));
  }
  elements.push({ tag: "hr" });
  if (verdict) {
    const what = verdict.behavior === "allow" ? t.allowed : t.denied;
    const by = cut(verdict.by, 100);
    elements.push(plain(fill(t.verdict, { what, by, time: clock(verdict.atMs, view.timeZone) })));
  } else {
    elements.push({ tag: "markdown", content: fill(t.hint, { id: view.requestId }) });
    elements.push(button(t.allow, "primary", view.allowValue));
    elements.push(button(t.deny, "danger", view.denyValue));
  }
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: {
      title: { tag: "plain_text", content: `${state.title} · ${tool}` },
      subtitle: { tag: "plain_text", content: fill(t.subtitle, { id: view.requestId }) },
      template: state.template,
    },
    body: { elements },
  };
}
