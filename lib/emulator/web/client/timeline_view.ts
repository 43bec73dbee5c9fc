/// <reference lib="dom" />
/**
 * Puts rendered timeline entries into the page, reusing the DOM node of
 * every entry whose HTML did not change (so open panels and media players
 * survive a refresh), and keeps the view pinned to the bottom when it was.
 * @module
 */

import { fromHtml } from "./dom.ts";

const cache = new Map<string, { html: string; el: Element }>();

/** Replaces the timeline's entries (`[id, html]`, in order). */
export function patchTimeline(
  container: HTMLElement,
  entries: [string, string][],
  o: { forceBottom: boolean; empty: string },
): void {
  const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 48;
  const seen = new Set<string>();
  const nodes = entries.map(([id, html]) => {
    seen.add(id);
    const hit = cache.get(id);
    if (hit && hit.html === html) return hit.el;
    const el = fromHtml(html);
    cache.set(id, { html, el });
    return el;
  });
  for (const id of [...cache.keys()]) if (!seen.has(id)) cache.delete(id);
  if (nodes.length === 0) {
    const empty = document.createElement("div");
    empty.className = "empty";
    empty.textContent = o.empty;
    nodes.push(empty);
  }
  container.replaceChildren(...nodes);
  if (o.forceBottom || atBottom) container.scrollTop = container.scrollHeight;
}

/** Forgets cached entries (on a chat switch). */
export function resetTimeline(): void {
  cache.clear();
}
