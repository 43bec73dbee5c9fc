/**
 * The agent dashboard: a short overview and seven layers (identity, model,
 * runtime, mind, tokens, network, add-ons). Only the layer headings are
 * localized; field captions stay English. Values read from the agent's
 * files are escaped (they show as plain text, never as markup), and dates
 * are in the agent's time zone.
 * @module
 */

import { LAYER_KEYS, type MessageKey, type Messages } from "../cards/mod.ts";
import type { KanbanData } from "./data.ts";
import { fmt, fmtDuration, fmtTime, joinLimited, pct } from "./format.ts";
import { safe } from "./read.ts";

/** The layer keys in order (layer n is at index n-1). */
export const LAYERS: readonly MessageKey[] = LAYER_KEYS;

/** Whether showing `argument` needs the sibling scan. */
export function needsFleet(argument: string): boolean {
  const a = argument.trim().toLowerCase();
  return a === "5" || a === "6" || a === "all";
}

function context(d: KanbanData): string {
  return `${fmt(d.ctxTotal)}/${fmt(d.ctxWindow)} (${pct(d.ctxPct)})`;
}

function layerLines(n: number, d: KanbanData): string[] {
  const s = (v: string) => safe(v);
  switch (n) {
    case 1:
      return [
        `Agent: ${s(d.name)}`,
        `ID: ${s(Array.from(d.agentId).slice(-12).join(""))}`,
        `Born: ${s(fmtTime(d.createdAt, d.timeZone))}`,
        `Molts: ${d.molts}`,
      ];
    case 2:
      return [
        `Active: ${s(d.model)} (${s(d.provider)})`,
        ...d.presets.slice(0, 8).map((p) => `- ${s(p.model)} (${s(p.provider)})`),
      ];
    case 3:
      return [`State: ${s(d.state)}`, `Uptime: ${fmtDuration(d.uptime)}`, `Context: ${context(d)}`];
    case 4:
      return [
        `Language: ${s(d.language)}`,
        `Knowledge: ${d.knowledge} · Skills: ${d.skills} · Delegates: ${d.delegates}`,
        `Capabilities: ${s(joinLimited(d.capabilities))}`,
      ];
    case 5:
      return [
        ...(d.fleet ?? []).map((a) => `- ${s(a.name)}: ${fmt(a.tokens)} (${a.calls} calls)`),
        `Total: ${fmt(d.grandTotal)} (${d.totalCalls} calls)`,
      ];
    case 6:
      return (d.fleet ?? []).map((a) =>
        `- ${s(a.name)}: ${s(a.state)} · ${s(a.model)} · molts=${a.molts}`
      );
    default:
      return [
        ...d.addons.map((a) => `- ${a.on ? "✅" : "⬜"} ${s(a.name)}`),
        `Context limit: ${fmt(d.contextLimit)}`,
      ];
  }
}

/** One layer (1..7) with its bold heading. */
export function kanbanLayer(n: number, d: KanbanData, m: Messages): string {
  const heading = `**${n} · ${m.text[LAYERS[n - 1]!]}**`;
  return [heading, ...layerLines(n, d)].join("\n");
}

/** The dashboard body for an argument: `1`..`7`, `all` (any case), else the overview. */
export function kanbanBody(argument: string, d: KanbanData, m: Messages): string {
  const a = argument.trim().toLowerCase();
  if (/^[1-7]$/.test(a)) return kanbanLayer(Number(a), d, m);
  if (a === "all") return LAYERS.map((_, i) => kanbanLayer(i + 1, d, m)).join("\n\n");
  return [
    `**${safe(d.name)}** · ${safe(d.state)}`,
    `${safe(d.model)} (${safe(d.provider)})`,
    `Context: ${context(d)} · Uptime: ${fmtDuration(d.uptime)}`,
  ].join("\n");
}

/** The status summary (four lines). */
export function statusBody(d: KanbanData, m: Messages): string {
  return [
    `**${safe(d.name)}** · ${safe(d.state)}`,
    `**${m.text.model}:** ${safe(d.model)} (${safe(d.provider)})`,
    `**Context:** ${context(d)}`,
    `**Molts:** ${d.molts} · **Uptime:** ${fmtDuration(d.uptime)}`,
  ].join("\n");
}
