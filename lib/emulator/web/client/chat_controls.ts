/// <reference lib="dom" />
/**
 * The chat header's moderation buttons (remove or add the bot, dissolve the
 * group after a confirm) and what a chat's state does to the page: the notice
 * under the header, and a composer that is off in a dissolved group. The page
 * redraws from the change stream, so a click only calls the control plane.
 * @module
 */

import {
  chatControlsHtml,
  chatNotice,
  dissolveQuestion,
  type PageChat,
  type PageState,
} from "../render/mod.ts";
import { dissolveGroup, setBotPresent } from "./api.ts";
import { byId } from "./dom.ts";
import { showToast } from "./toast.ts";

/** What the buttons need from the page. */
export interface ControlsPage {
  viewer(): string;
  chat(): PageChat | undefined;
}

let drawn: string | undefined;

/** Draws the header buttons, the notice and the composer's state for `chat`. */
export function renderChatControls(
  chat: PageChat | undefined,
  state: PageState | undefined,
  viewer: string,
): void {
  const controls = byId("chat-controls");
  const html = chat && state ? chatControlsHtml(chat, state, viewer) : "";
  // Rewritten only when it changed, so a refresh never swallows a click in flight.
  if (drawn !== html) {
    controls.innerHTML = html;
    drawn = html;
  }
  const notice = chat && state ? chatNotice(chat, state) : undefined;
  const banner = byId("banner");
  banner.hidden = !notice;
  banner.textContent = notice?.text ?? "";
  banner.dataset.kind = notice?.kind ?? "";
  const closed = notice?.canSend === false;
  const composer = byId("composer");
  composer.classList.toggle("closed", closed);
  for (
    const el of composer.querySelectorAll<HTMLTextAreaElement | HTMLButtonElement>(
      "textarea, button, input",
    )
  ) {
    el.disabled = closed;
  }
}

async function run(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (e) {
    showToast({ type: "error", content: e instanceof Error ? e.message : String(e) });
  }
}

/** Wires the header buttons. */
export function setupChatControls(page: ControlsPage): void {
  byId("chat-controls").addEventListener("click", (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>("button[data-control]");
    const chat = page.chat();
    if (!button || !chat) return;
    const operator = page.viewer();
    const control = button.dataset.control;
    if (control === "bot-remove" || control === "bot-add") {
      void run(() => setBotPresent(chat.chat_id, { present: control === "bot-add", operator }));
    } else if (control === "dissolve" && confirm(dissolveQuestion(chat))) {
      void run(() => dissolveGroup(chat.chat_id, { operator }));
    }
  });
}
