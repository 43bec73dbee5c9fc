/**
 * Whether every interactive element of an agent's schema-2.0 card can do
 * something when used, checked before any I/O. Feishu accepts a button with
 * no action and shows it, but a click then does nothing and nobody hears of
 * it; a form without a submit button can never send its fields. Such a card
 * is refused with `INVALID_ARGUMENT` naming the element's path as the agent
 * wrote it and what to add.
 *
 * The rules:
 * - a `button` acts when it has a `value` (legacy), a `callback` behaviour
 *   with a `value`, an `open_url` behaviour with a `default_url`, or, inside
 *   a `form`, `form_action_type` `submit` or `reset`;
 * - the other interactive elements are fields inside a `form`; outside one
 *   they need a `callback` behaviour or a `value` (`overflow` and
 *   `interactive_container` may open a link instead, and an `overflow` whose
 *   every option has a `value` or a `url` acts too);
 * - a `form` needs a button with `form_action_type: "submit"` inside it;
 * - a `disabled: true` element cannot be used, so it needs nothing.
 *
 * The walk follows the card's containers (`header`, `body`, every
 * `elements` and `columns` list: column sets, collapsible panels, forms,
 * interactive containers) and never enters payloads (`value`, `behaviors`).
 * Cards are depth-checked first (`./_depth.ts`); the walk stops at that
 * budget regardless.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import { MAX_BODY_DEPTH } from "./_depth.ts";

/** One element that cannot act: where it is, its tag, and what to add. */
export interface CardProblem {
  path: string;
  tag: string;
  fix: string;
}

/** Interactive elements other than `button`: fields inside a form, callbacks outside one. */
export const INTERACTIVE_TAGS: ReadonlySet<string> = new Set([
  "select_static",
  "multi_select_static",
  "select_person",
  "multi_select_person",
  "date_picker",
  "picker_time",
  "picker_datetime",
  "checker",
  "input",
  "overflow",
  "select_img",
  "interactive_container",
]);

/** Interactive elements that may open a link instead of calling back. */
const LINKABLE_TAGS: ReadonlySet<string> = new Set(["overflow", "interactive_container"]);

/** Keys whose lists hold child elements. */
const CHILD_KEYS = ["elements", "columns"] as const;

/** How many problems one message names. */
const SHOWN = 3;

const CALLBACK = 'behaviors: [{type: "callback", value: {...}}]';
const OPEN_URL = '[{type: "open_url", default_url: "https://..."}]';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function nonEmptyString(v: unknown): boolean {
  return typeof v === "string" && v !== "";
}

/** Whether `el.behaviors` holds a callback with a value, or (when `links`) a link. */
function hasBehaviour(el: Json, links: boolean): boolean {
  if (!Array.isArray(el.behaviors)) return false;
  return el.behaviors.some((b) =>
    isObject(b) && (
      (b.type === "callback" && present(b.value)) ||
      (links && b.type === "open_url" && nonEmptyString(b.default_url))
    )
  );
}

/** An `overflow` whose options each carry a value or a link. */
function optionsAct(el: Json): boolean {
  const options = el.options;
  return Array.isArray(options) && options.length > 0 &&
    options.every((o) =>
      isObject(o) && (present(o.value) || nonEmptyString(o.url) || isObject(o.multi_url))
    );
}

/** The open form an element sits in, if any. */
interface FormScope {
  submit: boolean;
}

/** What to add to a button that does nothing, by where it is. */
function buttonFix(el: Json, form: FormScope | undefined): string | undefined {
  if (el.disabled === true || present(el.value) || hasBehaviour(el, true)) return undefined;
  const action = el.form_action_type;
  if (form !== undefined) {
    if (action === "submit" || action === "reset") return undefined;
    return `add form_action_type: "submit" (or "reset"), ${CALLBACK} or a value`;
  }
  const link = `${CALLBACK} (or behaviors: ${OPEN_URL} for a link) or a value`;
  return action === undefined
    ? `add ${link}`
    : `form_action_type works only inside a form; add ${link}`;
}

/** What to add to another interactive element outside a form. */
function fieldFix(tag: string, el: Json): string | undefined {
  if (el.disabled === true || present(el.value)) return undefined;
  const links = LINKABLE_TAGS.has(tag);
  if (hasBehaviour(el, links)) return undefined;
  if (tag === "overflow") {
    if (optionsAct(el)) return undefined;
    return `give every option a value or a url, or add ${CALLBACK}`;
  }
  const link = links ? ` (or behaviors: ${OPEN_URL} for a link)` : "";
  return `add ${CALLBACK}${link} or a value, or put it inside a form`;
}

class Walk {
  readonly problems: CardProblem[] = [];

  /** The lists of child elements under `node`, each element with its path. */
  children(node: Json, path: string, form: FormScope | undefined, depth: number): void {
    for (const key of CHILD_KEYS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      list.forEach((child, i) => this.element(child, `${path}.${key}[${i}]`, form, depth + 1));
    }
  }

  element(el: unknown, path: string, form: FormScope | undefined, depth: number): void {
    // Each level of elements is at least two JSON levels (a list and an object).
    if (!isObject(el) || depth * 2 > MAX_BODY_DEPTH) return;
    const tag = typeof el.tag === "string" ? el.tag : "";
    if (tag === "form") {
      const scope: FormScope = { submit: false };
      this.children(el, path, scope, depth);
      if (!scope.submit) {
        this.problems.push({
          path,
          tag,
          fix: 'add a button with form_action_type: "submit" inside it, ' +
            "or its fields can never be sent",
        });
      }
      return;
    }
    let fix: string | undefined;
    if (tag === "button") {
      if (form !== undefined && el.form_action_type === "submit") form.submit = true;
      fix = buttonFix(el, form);
    } else if (INTERACTIVE_TAGS.has(tag) && form === undefined) {
      fix = fieldFix(tag, el);
    }
    if (fix !== undefined) this.problems.push({ path, tag, fix });
    this.children(el, path, form, depth);
  }
}

/**
 * Every element of `card` that cannot act, in document order (header first),
 * each named by its path under `path`.
 *
 * @example A button without an action, in a column
 * ```ts
 * import { cardProblems } from "./card_check.ts";
 * const card = { schema: "2.0", body: { elements: [{ tag: "column_set", columns: [{ tag: "column", elements: [{ tag: "button" }] }] }] } };
 * const [p] = cardProblems(card);
 * if (p?.path !== "content.card.body.elements[0].columns[0].elements[0]" || p.tag !== "button") throw new Error();
 * ```
 */
export function cardProblems(card: unknown, path = "content.card"): CardProblem[] {
  const walk = new Walk();
  if (!isObject(card)) return walk.problems;
  for (const key of ["header", "body"] as const) {
    const part = card[key];
    if (isObject(part)) walk.children(part, `${path}.${key}`, undefined, 1);
  }
  return walk.problems;
}

/**
 * Throws `INVALID_ARGUMENT` when some interactive element of `card` cannot
 * act: one line naming the first such element's tag, path and fix, then the
 * next few by tag and path.
 *
 * @example
 * ```ts
 * import { assertCardActions } from "./card_check.ts";
 * assertCardActions({ schema: "2.0", body: { elements: [{ tag: "button", behaviors: [{ type: "callback", value: { ok: 1 } }] }] } });
 * let message = "";
 * try {
 *   assertCardActions({ schema: "2.0", body: { elements: [{ tag: "button" }] } });
 * } catch (err) {
 *   message = (err as Error).message;
 * }
 * if (!message.includes("a button at content.card.body.elements[0]")) throw new Error(message);
 * ```
 */
export function assertCardActions(card: unknown, path = "content.card"): void {
  const problems = cardProblems(card, path);
  const [first, ...rest] = problems;
  if (first === undefined) return;
  let message = "Expected every interactive element of the card to act when used but found " +
    `${article(first.tag)} ${first.tag} at ${first.path} that cannot; ${first.fix}`;
  if (rest.length > 0) {
    const named = rest.slice(0, SHOWN).map((p) => `${p.tag} at ${p.path}`);
    if (rest.length > SHOWN) named.push(`${rest.length - SHOWN} more`);
    message += ` (also: ${named.join(", ")})`;
  }
  throw new BridgeError("INVALID_ARGUMENT", message);
}

function article(tag: string): string {
  return /^[aeiou]/.test(tag) ? "an" : "a";
}
