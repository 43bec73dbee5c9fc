/**
 * HTTP fault injection: a per-endpoint rule queue and the two built-in rate
 * limiters (5 QPS per chat for send/reply → 230020; app-wide N/s → HTTP 429
 * + 99991400 + `x-ogw-ratelimit-reset`). Windows run on the emulator clock.
 * @module
 */

import type { Core } from "./core.ts";
import { ApiError, matchPath } from "./http/mod.ts";
import type { FaultGate, FaultRule, RequestRecord } from "./types.ts";

/**
 * Tells whether a rule applies to a request.
 *
 * @example
 * ```ts
 * import { ruleMatches } from "./faults.ts";
 * const rule = { method: "POST", path: "/open-apis/im/v1/messages/:id/reply", respond: {} };
 * if (!ruleMatches(rule, "POST", "/open-apis/im/v1/messages/om_1/reply")) throw new Error();
 * if (ruleMatches(rule, "GET", "/open-apis/im/v1/messages/om_1/reply")) throw new Error();
 * ```
 */
export function ruleMatches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.path instanceof RegExp) return rule.path.test(path);
  return rule.path === path || matchPath(rule.path, path) !== undefined;
}

/** Sliding one-second window counters. */
class Window {
  #hits = new Map<string, number[]>();

  /** Hits of `key` within the last second before `now`. */
  recent(key: string, now: number): number[] {
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > now - 1000);
    this.#hits.set(key, hits);
    return hits;
  }

  add(key: string, now: number): void {
    this.recent(key, now).push(now);
  }

  clear(): void {
    this.#hits.clear();
  }
}

/** The fault state of one emulator. */
export class Faults implements FaultGate {
  /** Pending rules, first match wins. */
  readonly rules: FaultRule[] = [];
  readonly #core: Core;
  readonly #chat = new Window();
  readonly #app = new Window();

  /** Creates the fault state on a core. */
  constructor(core: Core) {
    this.#core = core;
  }

  /** Adds a rule at the end of the queue. */
  add(rule: FaultRule): void {
    this.rules.push({ ...rule });
  }

  /** Removes every rule. */
  clear(): void {
    this.rules.length = 0;
  }

  /** Takes the first matching rule, counting down its `times`. */
  take(method: string, path: string, request?: RequestRecord): FaultRule | undefined {
    const index = this.rules.findIndex((r) =>
      ruleMatches(r, method, path) && (!r.when || (request !== undefined && r.when(request)))
    );
    const rule = this.rules[index];
    if (!rule) return undefined;
    if (rule.times !== undefined) {
      rule.times--;
      if (rule.times <= 0) this.rules.splice(index, 1);
    }
    return rule;
  }

  /** Counts an API call of the app; throws 429/99991400 past the app limit. */
  checkApp(appId: string): void {
    const limit = this.#core.settings.appRateLimit;
    if (limit === false) return;
    const now = this.#core.clock.now();
    const hits = this.#app.recent(appId, now);
    if (hits.length >= limit) {
      const reset = Math.max(1, Math.ceil(((hits[0] ?? now) + 1000 - now) / 1000));
      throw new ApiError(99991400, "request trigger frequency limit", {
        status: 429,
        headers: {
          "x-ogw-ratelimit-limit": String(limit),
          "x-ogw-ratelimit-reset": String(reset),
        },
      });
    }
    this.#app.add(appId, now);
  }

  /** Counts a send/reply to a chat; throws 230020 past the chat limit. */
  checkChat(chatId: string): void {
    const limit = this.#core.settings.chatRateLimit;
    if (limit === false) return;
    const now = this.#core.clock.now();
    if (this.#chat.recent(chatId, now).length >= limit) {
      throw new ApiError(230020, "request trigger frequency limit, ext=chat rate limit");
    }
    this.#chat.add(chatId, now);
  }

  /** Forgets the limiter windows. */
  resetLimiters(): void {
    this.#chat.clear();
    this.#app.clear();
  }
}
