/**
 * The canary's test card and the watcher that waits for its click on the
 * long connection. The card is schema 2.0 with one callback button whose
 * value carries a fresh nonce, so a click on an older canary card (or on a
 * bridge card) is never taken for this run's.
 * @module
 */

import type { Clock } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

/** The key of the button value that marks a canary click. */
export const CANARY_VALUE_KEY = "feishu_mcp_canary";

/** The toast a canary click is answered with. */
export const CANARY_TOAST = "Canary: callback received";

/**
 * The content of the test card (an `interactive` message).
 *
 * @example The button carries the nonce
 * ```ts
 * import { canaryCard } from "./_click.ts";
 * const card = JSON.parse(canaryCard("n0nce", 120));
 * const button = card.body.elements.find((e: { tag: string }) => e.tag === "button");
 * if (button.behaviors[0].value.feishu_mcp_canary !== "n0nce") throw new Error();
 * ```
 */
export function canaryCard(nonce: string, timeoutSeconds: number): string {
  return JSON.stringify({
    schema: "2.0",
    header: {
      title: { tag: "plain_text", content: "feishu-mcp canary" },
      template: "blue",
    },
    body: {
      elements: [
        {
          tag: "markdown",
          content: `Click the button within ${timeoutSeconds} s: the click must come back ` +
            "over the long connection.",
        },
        {
          tag: "button",
          text: { tag: "plain_text", content: "Click to finish the canary" },
          type: "primary",
          behaviors: [{ type: "callback", value: { [CANARY_VALUE_KEY]: nonce } }],
        },
      ],
    },
  });
}

/** What the watcher saw of the canary click. */
export interface ClickSeen {
  eventId: string | null;
  operatorOpenId: string | null;
}

/** Reads the button value, which Feishu sends as an object or a JSON string. */
function buttonValue(event: Record<string, unknown> | undefined): Record<string, unknown> | null {
  const value = (event?.action as { value?: unknown } | undefined)?.value;
  if (typeof value === "string") {
    try {
      const parsed = JSON.parse(value);
      return parsed && typeof parsed === "object" ? parsed : null;
    } catch {
      return null;
    }
  }
  return value && typeof value === "object" ? value as Record<string, unknown> : null;
}

/**
 * Takes every event of the canary's long connection: the canary's click is
 * answered with {@link CANARY_TOAST}; anything else is refused (the ACK
 * says 500), so the canary never swallows an event meant for the bridge.
 */
export class ClickWatch {
  /** The nonce this run's card carries. */
  readonly nonce: string;
  readonly #seen = Promise.withResolvers<ClickSeen>();
  /** Events that were not the canary's click. */
  refused = 0;

  constructor(nonce: string) {
    this.nonce = nonce;
  }

  /** The `onEvent` of the long connection: resolves to the ACK's data. */
  onEvent = (envelope: RawEnvelope): Promise<unknown> => {
    const isClick = envelope.header?.event_type === "card.action.trigger";
    if (!isClick || buttonValue(envelope.event)?.[CANARY_VALUE_KEY] !== this.nonce) {
      this.refused++;
      return Promise.reject(new Error("the canary answers only its own card's click"));
    }
    const operator = envelope.event?.operator as { open_id?: unknown } | undefined;
    const seen: ClickSeen = {
      eventId: typeof envelope.header?.event_id === "string" ? envelope.header.event_id : null,
      operatorOpenId: typeof operator?.open_id === "string" ? operator.open_id : null,
    };
    // Signal after a macrotask: by then the SDK has taken the toast and sent the ACK.
    setTimeout(() => this.#seen.resolve(seen), 0);
    return Promise.resolve({ toast: { type: "success", content: CANARY_TOAST } });
  };

  /** The click, or null when `ms` pass first. */
  async wait(clock: Clock, ms: number): Promise<ClickSeen | null> {
    const stop = new AbortController();
    const timeout = clock.sleep(ms, stop.signal).then(() => null, () => null);
    try {
      return await Promise.race([this.#seen.promise, timeout]);
    } finally {
      stop.abort();
    }
  }
}
