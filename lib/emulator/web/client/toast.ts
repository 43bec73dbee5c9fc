/// <reference lib="dom" />
/**
 * The floating toast, as Feishu shows a card callback's answer.
 * @module
 */

import type { PageToast } from "../render/mod.ts";
import { byId } from "./dom.ts";

let hideTimer: ReturnType<typeof setTimeout> | undefined;

/** Shows a toast for a few seconds (success, info, warning or error). */
export function showToast(toast: PageToast): void {
  const box = byId("toast");
  const type = ["success", "info", "warning", "error"].includes(toast.type ?? "")
    ? toast.type
    : "info";
  box.className = `toast toast-${type}`;
  box.textContent = toast.content ?? toast.i18n?.en_us ?? toast.i18n?.zh_cn ??
    Object.values(toast.i18n ?? {})[0] ?? "";
  box.hidden = false;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => (box.hidden = true), 3500);
}
