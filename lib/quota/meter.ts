/**
 * The running server's quota meter: counts every Feishu call into the store
 * (write-through, one UPSERT per call) and keeps the current month's rows in
 * memory, so the status and the saving decision cost no query. A new month
 * starts from the store's rows for it (normally none). Logs once a month
 * when the warning threshold and the saving threshold are crossed.
 * @module
 */

import type { ApiCallCounter, ApiCategory, Clock, Logger } from "../core/mod.ts";
import { monthKey, QUOTA_SAVING_RATIO, QUOTA_WARNING_RATIO, quotaView, reaches } from "./view.ts";
import type { QuotaView } from "./view.ts";

/** Where the counts persist (the store's `ApiCallStore`). */
export interface CountSink {
  increment(account: string, month: string, category: string, n?: number): void;
  month(month: string): { account: string; category: string; count: number }[];
}

/** Options of {@link createQuotaMeter}. */
export interface QuotaMeterOptions {
  sink: CountSink;
  clock: Clock;
  /** `quota.monthly_calls`, or null when no quota is known. */
  monthlyCalls: number | null;
  log: Logger;
}

/** The meter. */
export interface QuotaMeter {
  /** The counter one account's Feishu clients report to. */
  counter(account: string): ApiCallCounter;
  /** True while the month's calls reach the saving threshold. */
  saving(): boolean;
  view(): QuotaView;
}

/**
 * Builds the meter over the store's counts.
 *
 * @example
 * ```ts
 * import { createLogger, ManualClock } from "../core/mod.ts";
 * import { createQuotaMeter } from "./meter.ts";
 * const rows: { account: string; category: string; count: number }[] = [];
 * const sink = {
 *   increment: (account: string, _m: string, category: string) => void rows.push({ account, category, count: 1 }),
 *   month: () => rows,
 * };
 * const meter = createQuotaMeter({
 *   sink, clock: new ManualClock(0), monthlyCalls: 2, log: createLogger({ sink: () => {} }),
 * });
 * meter.counter("main")("send");
 * if (meter.saving()) throw new Error();
 * meter.counter("main")("probe");
 * if (!meter.saving() || meter.view().used !== 2) throw new Error();
 * ```
 */
export function createQuotaMeter(options: QuotaMeterOptions): QuotaMeter {
  const { sink, clock, log, monthlyCalls } = options;
  let month = "";
  let counts = new Map<string, number>();
  let used = 0;
  let told = { warning: false, saving: false };
  let sinkFailed = false;

  const load = (m: string) => {
    month = m;
    counts = new Map();
    used = 0;
    told = { warning: false, saving: false };
    try {
      for (const r of sink.month(m)) {
        counts.set(rowKey(r.account, r.category), r.count);
        used += r.count;
      }
    } catch (err) {
      log.warn("quota: the month's counts could not be read", { error: String(err) });
    }
    // Already past a threshold at start: say so once, like a crossing.
    check();
  };
  const current = () => {
    const m = monthKey(clock.now());
    if (m !== month) load(m);
  };
  const check = () => {
    if (!told.warning && reaches(used, monthlyCalls, QUOTA_WARNING_RATIO)) {
      told.warning = true;
      log.warn(`quota: ${used} of ${monthlyCalls} Feishu API calls used in ${month}`);
    }
    if (!told.saving && reaches(used, monthlyCalls, QUOTA_SAVING_RATIO)) {
      told.saving = true;
      log.warn(
        `quota: saving calls from now on (${used} of ${monthlyCalls} in ${month}): no Typing reactions, slower Task Card updates; answers are never held back`,
      );
    }
  };
  const count = (account: string, category: ApiCategory) => {
    current();
    const k = rowKey(account, category);
    counts.set(k, (counts.get(k) ?? 0) + 1);
    used++;
    try {
      sink.increment(account, month, category);
      sinkFailed = false;
    } catch (err) {
      // The store is closing or broken: keep counting in memory, say it once.
      if (!sinkFailed) {
        log.warn("quota: a call could not be counted in the store", { error: String(err) });
      }
      sinkFailed = true;
    }
    check();
  };

  current();
  return {
    counter: (account) => (category) => count(account, category),
    saving: () => {
      current();
      return reaches(used, monthlyCalls, QUOTA_SAVING_RATIO);
    },
    view: () => {
      current();
      const rows = [...counts].map(([k, n]) => {
        const [account, category] = k.split("\u0000") as [string, string];
        return { account, category, count: n };
      });
      return quotaView({ month, monthlyCalls, rows });
    },
  };
}

const rowKey = (account: string, category: string) => `${account}\u0000${category}`;
