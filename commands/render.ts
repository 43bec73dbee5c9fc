/**
 * The control card of each local command, built from what the command read
 * or did. Untrusted text (file contents, names) is escaped so it shows as
 * plain text; documents and the briefing are cut at 8000 code points with a
 * notice; every body and label is redacted (the server's redactor) before
 * it goes out. The header names the agent when its name is known.
 * @module
 */

import type { Messages } from "../cards/mod.ts";
import { button, card, type CardView } from "./card.ts";
import type { KanbanData } from "./data.ts";
import type { BriefResult, SystemResult } from "./docs.ts";
import { kanbanBody, LAYERS, statusBody } from "./kanban.ts";
import type { LocalCommand } from "./names.ts";
import { CATALOG } from "./parse.ts";
import { cutCodePoints, safe } from "./read.ts";
import type { SignalResult } from "./signals.ts";
import type { TaskcardResult } from "./taskcard.ts";
import { pairedLines } from "./pairing.ts";
import type { BridgeHealth, PersonView } from "./types.ts";

/** Code points shown of one document or of the briefing. */
export const CONTENT_LIMIT = 8000;

type Card = Record<string, unknown>;

export type { CardView };

function capped(m: Messages, text: string, cutBefore = false): string {
  // Cut the text, then escape it: a cut never splits a character reference.
  const { text: shown, cut } = cutCodePoints(text, CONTENT_LIMIT);
  return cut || cutBefore ? `${safe(shown)}\n\n_${m.text.truncated}_` : safe(shown);
}

/** `/help`: the catalog and a button for every other command. */
export function helpCard(m: CardView): Card {
  const lines = [...CATALOG.default, ...CATALOG.hidden].map((c) =>
    `- \`/${c}\` — ${m.describe[c]}`
  );
  const others: LocalCommand[] = [
    "status",
    "kanban",
    "system",
    "brief",
    "taskcard",
    "refresh",
    "sleep",
    "clear",
  ];
  return card(
    m,
    "help",
    [`**${m.text.available}**`, ...lines].join("\n"),
    others.map((c) => button(m, c)),
  );
}

function healthLines(h: BridgeHealth): string[] {
  const lines = ["", "**Bridge**"];
  for (const a of h.accounts.slice(0, 20)) {
    const last = a.last_event_at ?? "never";
    lines.push(`- ${safe(a.alias)}: ${safe(a.connection)} · last event ${safe(last)}`);
  }
  if (h.accounts.length === 0) lines.push("- no accounts");
  lines.push(`Queue: ${h.queue_depth} · Dead letters: ${h.dead_letters}`);
  for (const r of (h.dead_letter_reasons ?? []).slice(0, 3)) {
    lines.push(`- ${r.count} × ${safe(cutCodePoints(r.error, 200).text)}`);
  }
  const extra = [
    h.dedupe_keys === undefined ? null : `Dedupe keys: ${h.dedupe_keys}`,
    h.typing_pending === undefined ? null : `Typing pending: ${h.typing_pending}`,
    h.gone_chats ? `Chats gone: ${h.gone_chats}` : null,
  ].filter((x) => x !== null);
  if (extra.length) lines.push(extra.join(" · "));
  if (h.quota) {
    const q = h.quota;
    const of = q.monthly_calls === null ? "" : ` of ${q.monthly_calls}`;
    lines.push(`API calls ${q.month}: ${q.used}${of}${q.saving ? " · saving calls" : ""}`);
    if (q.warning) lines.push(`**⚠ ${safe(q.warning)}**`);
  }
  return lines;
}

/** `/status`: the agent summary, the bridge's health when known, and who is paired. */
export function statusCard(
  m: CardView,
  d: KanbanData | null,
  health?: BridgeHealth,
  paired?: readonly PersonView[],
): Card {
  const body = d ? statusBody(d, m) : m.text.unavailable;
  const extra = [
    ...(health ? healthLines(health) : []),
    ...(paired ? pairedLines(m, paired) : []),
  ].join("\n");
  return card(m, "status", body + (extra ? `\n${extra}` : ""), [
    button(m, "kanban"),
    button(m, "help"),
  ]);
}

/** `/kanban [1-7|all]`: the overview or layers, with a button per layer. */
export function kanbanCard(m: CardView, d: KanbanData | null, argument: string): Card {
  const buttons = LAYERS.map((key, i) =>
    button(m, "kanban", String(i + 1), `${i + 1} · ${m.text[key]}`)
  );
  buttons.push(button(m, "kanban", "all", m.text.all), button(m, "help"));
  return card(m, "kanban", d ? kanbanBody(argument, d, m) : m.text.unavailable, buttons);
}

/**
 * `/system [query]`: the listing with a button per listed document, or the
 * matching documents. Document buttons are labelled with the document name
 * (clearer than one generic label repeated).
 */
export function systemCard(m: CardView, r: SystemResult, argument: string): Card {
  const help = button(m, "help");
  if (
    r.status === "agent_dir_missing" || r.status === "directory_missing" || r.status === "empty"
  ) {
    return card(m, "system", m.text.no_system, [help]);
  }
  if (r.status === "no_match") {
    return card(m, "system", m.text.no_system, [button(m, "system"), help]);
  }
  if (!argument.trim()) {
    const lines = r.docs.map((doc) => `- ${safe(doc.name)} (${doc.size} B)`);
    if (r.total > r.docs.length) lines.push(`- …(+${r.total - r.docs.length})`);
    return card(m, "system", [`**${m.text.choose_system}**`, ...lines].join("\n"), [
      ...r.docs.map((doc) => button(m, "system", doc.name, doc.name)),
      help,
    ]);
  }
  if (r.docs.length === 0) return card(m, "system", m.text.no_system, [button(m, "system"), help]);
  const parts = r.docs.map((doc) =>
    `**${safe(doc.name)}**\n${capped(m, doc.content ?? "", doc.cut)}`
  );
  return card(m, "system", parts.join("\n\n"), [button(m, "system"), help]);
}

/** `/brief`: the briefing, cut when long. */
export function briefCard(m: CardView, r: BriefResult): Card {
  const body = r.status === "ok" && r.text ? capped(m, r.text, r.cut) : m.text.not_found;
  return card(m, "brief", body, [button(m, "help")]);
}

/**
 * `/taskcard`: the outcome and current preference. The on/off buttons say
 * which way they switch (one repeated label would not tell them apart).
 */
export function taskcardCard(m: CardView, r: TaskcardResult): Card {
  const body = r.status === "ok"
    ? [
      r.enabled ? m.text.taskcard_on : m.text.taskcard_off,
      `**${m.text.rows}:** ${r.normalRows}`,
      "",
      m.text.usage,
    ].join("\n")
    : m.text[r.status];
  return card(m, "taskcard", body, [
    button(m, "taskcard", "on", `${m.text.taskcard} · on`),
    button(m, "taskcard", "off", `${m.text.taskcard} · off`),
    button(m, "help"),
  ]);
}

/** `/refresh`, `/sleep`, `/clear`: what the signal did. */
export function signalCard(
  m: CardView,
  command: "refresh" | "sleep" | "clear",
  r: SignalResult,
): Card {
  const body = r.status === "pending"
    ? m.text.pending
    : r.status === "sent"
    ? m.text[`${command}_sent`]
    : m.text.signal_failed;
  return card(m, command, body, [button(m, "help")]);
}

/** The argument of a `/clear` or `/sleep` button that runs it; any other asks first. */
export const CONFIRM = "confirm";
/** The argument of the button that withdraws a `/clear` or `/sleep`. */
export const CANCEL = "cancel";

/**
 * `/clear`, `/sleep` before they run: what the command will do, a confirm
 * button (the only way to run it) and a cancel button.
 */
export function confirmCard(m: CardView, command: "sleep" | "clear"): Card {
  return card(m, command, m.text[`confirm_${command}`], [
    button(m, command, CONFIRM, m.text.confirm),
    button(m, command, CANCEL, m.text.cancel),
  ]);
}

/** A withdrawn `/clear` or `/sleep`. */
export function cancelledCard(m: CardView, command: "sleep" | "clear"): Card {
  return card(m, command, m.text.cancelled, [button(m, "help")]);
}

/** An open_id as shown for copying; anything else is not shown. */
const OPEN_ID = /^ou_[A-Za-z0-9_-]{1,64}$/;

/**
 * A control command refused: someone who is not an owner (`not_owner`), or
 * nobody is named an owner (`no_owner`: the card says how to name one, with
 * the person's own open_id ready to copy).
 */
export function refusalCard(
  m: CardView,
  command: LocalCommand,
  openId: string,
  reason: "not_owner" | "no_owner",
): Card {
  const id = OPEN_ID.test(openId) ? openId : null;
  const lines = [m.text[reason]];
  if (reason === "no_owner") lines.push("", `\`"owners": ["${id ?? "ou_…"}"]\``);
  if (id) lines.push("", `**${m.text.your_open_id}:** \`${id}\``);
  return card(m, command, lines.join("\n"), [button(m, "help")]);
}

/** The card shown when a command failed unexpectedly. */
export function fallbackCard(m: CardView, command: LocalCommand): Card {
  return card(m, command, m.text.unavailable, [button(m, "help")]);
}
