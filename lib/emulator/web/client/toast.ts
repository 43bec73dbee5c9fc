/// <reference lib="dom" />
/**
 * The floating toast, as Feishu shows a card callback's answer or a failed
 * click: an icon and label naming its type, then the text.
 * @module
 */

import { type PageToast, toastParts } from "../render/mod.ts";
import { byId } from "./dom.ts";

let hideTimer: ReturnType<typeof setTimeout> | undefined;

/** Shows a toast for a few seconds (success, info, warning or error). */
export function showToast(toast: PageToast): void {
  const box = byId("toast");
  const parts = toastParts(toast);
  box.className = `toast toast-${parts.type}`;
  box.dataset.type = parts.type;
  const icon = document.createElement("span");
  icon.className = "toast-icon";
  icon.textContent = parts.icon;
  const label = document.createElement("span");
  label.className = "toast-label";
  label.textContent = parts.label;
  const text = document.createElement("span");
  text.className = "toast-text";
  text.textContent = parts.text;
  box.replaceChildren(icon, label, text);
  box.hidden = false;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => (box.hidden = true), 3500);
}
