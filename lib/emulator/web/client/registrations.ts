/// <reference lib="dom" />
/**
 * "Scanning" a registration QR code: the codes `deno task setup` (or any
 * node-sdk `registerApp`) opened and nobody answered yet, each with Approve
 * and Deny as the user the page acts as. Approving creates the app; the
 * waiting `setup` then writes its config.
 * @module
 */

import { escapeHtml } from "../render/mod.ts";
import { answerRegistration, fetchRegistrations } from "./api.ts";
import { showToast } from "./toast.ts";

/** Redraws the panel with the pending registrations (hidden when there are none). */
export async function renderRegistrations(panel: HTMLElement, viewerName: string): Promise<void> {
  const pending = (await fetchRegistrations()).filter((r) => r.status === "pending");
  // The link from the QR code names its code: show that one first.
  const wanted = new URLSearchParams(location.search).get("register");
  pending.sort((a, b) => Number(b.user_code === wanted) - Number(a.user_code === wanted));
  panel.hidden = pending.length === 0;
  panel.innerHTML = pending.map((r) =>
    `<div class="registration" data-code="${escapeHtml(r.user_code)}">` +
    `<div class="registration-title">App registration ${escapeHtml(r.user_code)}</div>` +
    `<div class="registration-sub">Scan as ${escapeHtml(viewerName)}:</div>` +
    `<button type="button" class="primary" data-verb="approve">Approve</button> ` +
    `<button type="button" data-verb="deny">Deny</button></div>`
  ).join("");
}

/** Wires the panel's buttons; `viewer` is the open_id the page acts as. */
export function setupRegistrations(panel: HTMLElement, viewer: () => string): void {
  panel.addEventListener("click", async (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>("button[data-verb]");
    const code = button?.closest<HTMLElement>("[data-code]")?.dataset.code;
    if (!button || !code) return;
    button.disabled = true;
    try {
      const verb = button.dataset.verb === "approve" ? "approve" : "deny";
      const r = await answerRegistration(verb, { code, user_id: viewer() });
      showToast({
        type: "success",
        content: verb === "approve" ? `Approved: app ${r.app_id} created` : "Denied",
      });
    } catch (err) {
      button.disabled = false;
      showToast({ type: "error", content: err instanceof Error ? err.message : String(err) });
    }
  });
}
