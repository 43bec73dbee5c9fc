/// <reference lib="dom" />
/**
 * Card interactivity on the page. A button opens its link (`data-url`)
 * and/or calls back with its value (`data-value`); a form's submit button
 * sends the form's fields by name as `form_value`, its reset button restores
 * them; outside a form a menu calls back when an option is chosen (`option`)
 * and an input when Enter is pressed (`input_value`). Every callback is a
 * real `card.action.trigger` through `/__emu/api/click`; its toast, or the
 * error code of a failed click, pops up.
 * @module
 */

import { type ClickAnswer, clickCard, type ClickInput } from "./api.ts";
import { showToast } from "./toast.ts";

/** What the card handlers need from the page. */
export interface CardPage {
  /** The open_id the page acts as. */
  viewer(): string;
  /** Refetches the open chat. */
  refresh(): Promise<void>;
}

type Field = HTMLInputElement | HTMLSelectElement;

function ownerOf(el: Element): string | undefined {
  return el.closest<HTMLElement>("[data-message-id]")?.dataset.messageId;
}

function valueOf(el: HTMLElement): unknown {
  return el.dataset.value === undefined ? {} : JSON.parse(el.dataset.value);
}

function fieldsOf(form: Element): Field[] {
  return [...form.querySelectorAll<Field>("input[data-name], select[data-name]")];
}

function showAnswer(r: ClickAnswer): void {
  if (r.error_code !== undefined) {
    showToast({
      type: "error",
      content: `${r.error_msg ?? "The click failed"} (code: ${r.error_code})`,
    });
  } else if (r.toast) showToast(r.toast);
}

/** Sends one callback with `el` marked pending, shows the outcome, refreshes the chat. */
async function send(
  page: CardPage,
  el: HTMLButtonElement | Field,
  action: Omit<ClickInput, "user_id" | "message_id">,
): Promise<void> {
  const messageId = ownerOf(el);
  if (!messageId) return;
  el.disabled = true;
  el.classList.add("pending");
  try {
    showAnswer(await clickCard({ user_id: page.viewer(), message_id: messageId, ...action }));
  } catch (e) {
    showToast({ type: "error", content: e instanceof Error ? e.message : String(e) });
  } finally {
    el.disabled = false;
    el.classList.remove("pending");
  }
  await page.refresh();
}

function reset(form: Element): void {
  for (const f of fieldsOf(form)) {
    if (f instanceof HTMLInputElement) f.value = f.defaultValue;
    else {
      const chosen = [...f.options].findIndex((o) => o.defaultSelected);
      f.selectedIndex = Math.max(0, chosen);
    }
  }
}

/** Handles a click on a card button (`.card-btn`). */
export async function onCardButton(page: CardPage, button: HTMLButtonElement): Promise<void> {
  const url = button.dataset.url;
  if (url) globalThis.open(url, "_blank", "noopener,noreferrer");
  const form = button.closest(".card-form");
  if (form && button.dataset.formAction === "reset") return reset(form);
  if (button.dataset.value === undefined) return;
  const formValue = form && button.dataset.formAction === "submit"
    ? Object.fromEntries(fieldsOf(form).map((f) => [f.dataset.name ?? "", f.value]))
    : undefined;
  await send(page, button, {
    value: valueOf(button),
    tag: button.dataset.tag,
    name: button.dataset.name,
    ...(formValue ? { form_value: formValue } : {}),
  });
}

/** Wires menus and inputs that call back on their own (those outside a form). */
export function setupCardFields(timeline: HTMLElement, page: CardPage): void {
  timeline.addEventListener("change", (e) => {
    const select = e.target;
    if (!(select instanceof HTMLSelectElement) || !select.classList.contains("card-select")) return;
    if (select.closest(".card-form") || select.value === "") return;
    void send(page, select, {
      value: valueOf(select),
      tag: select.dataset.tag,
      name: select.dataset.name,
      option: select.value,
    });
  });
  timeline.addEventListener("keydown", (e) => {
    const input = e.target;
    if (!(input instanceof HTMLInputElement) || !input.classList.contains("card-input-box")) return;
    if (e.key !== "Enter" || input.closest(".card-form")) return;
    void send(page, input, {
      value: valueOf(input),
      tag: input.dataset.tag,
      name: input.dataset.name,
      input_value: input.value,
    });
  });
}
