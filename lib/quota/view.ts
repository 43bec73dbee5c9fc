/**
 * The month's API usage against `quota.monthly_calls`, as the status, `/status`
 * and `doctor` show it: the calendar month in UTC, the totals per category and
 * per account, the ratio, a warning from 80 % and the saving mode from 90 %.
 * Pure: rows in, view out.
 * @module
 */

import { API_CATEGORIES, type ApiCategory } from "../core/mod.ts";

/** From this share of the quota on, a warning is shown. */
export const QUOTA_WARNING_RATIO = 0.8;
/** From this share of the quota on, the bridge saves calls on its own. */
export const QUOTA_SAVING_RATIO = 0.9;

/** Least time between two writes of one route's Task Card while saving calls. */
export const QUOTA_SAVING_CARD_GAP_MS = 10_000;

/** The month's usage. */
export interface QuotaView {
  /** `YYYY-MM`, UTC. */
  month: string;
  monthly_calls: number | null;
  used: number;
  by_category: Record<ApiCategory, number>;
  by_account: Record<string, number>;
  /** `used / monthly_calls` (4 decimals), or null without a quota. */
  ratio: number | null;
  warning: string | null;
  /** True from {@link QUOTA_SAVING_RATIO}: no Typing, slower Task Card updates. */
  saving: boolean;
}

/**
 * The calendar month (UTC) of a time, `YYYY-MM`.
 *
 * @example
 * ```ts
 * import { monthKey } from "./view.ts";
 * if (monthKey(Date.UTC(2025, 0, 31, 23, 59)) !== "2025-01") throw new Error();
 * if (monthKey(Date.UTC(2025, 1, 1)) !== "2025-02") throw new Error();
 * ```
 */
export function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/**
 * Whether `used` calls reach a share of the quota (never without a quota).
 *
 * @example
 * ```ts
 * import { reaches } from "./view.ts";
 * if (!reaches(9, 10, 0.9) || reaches(8, 10, 0.9) || reaches(5, null, 0.1)) throw new Error();
 * ```
 */
export function reaches(used: number, monthlyCalls: number | null, ratio: number): boolean {
  // Integer arithmetic: 0.9 * 10 is 9.000000000000002 in floating point.
  return monthlyCalls !== null && used * 100 >= Math.round(ratio * 100) * monthlyCalls;
}

/** What {@link quotaView} is built from. */
export interface QuotaInput {
  month: string;
  monthlyCalls: number | null;
  rows: readonly { account: string; category: string; count: number }[];
}

/**
 * The usage of one month from its counted rows.
 *
 * @example Saving from 90 %
 * ```ts
 * import { quotaView } from "./view.ts";
 * const v = quotaView({
 *   month: "2025-01", monthlyCalls: 10,
 *   rows: [{ account: "main", category: "send", count: 6 }, { account: "main", category: "probe", count: 3 }],
 * });
 * if (v.used !== 9 || v.ratio !== 0.9 || !v.saving || v.warning === null) throw new Error();
 * ```
 */
export function quotaView(input: QuotaInput): QuotaView {
  const byCategory = Object.fromEntries(API_CATEGORIES.map((c) => [c, 0])) as Record<
    ApiCategory,
    number
  >;
  const byAccount: Record<string, number> = {};
  let used = 0;
  for (const r of input.rows) {
    used += r.count;
    byAccount[r.account] = (byAccount[r.account] ?? 0) + r.count;
    const c = r.category as ApiCategory;
    // A category this build does not know (a newer server wrote it) still counts as a probe.
    if (c in byCategory) byCategory[c] += r.count;
    else byCategory.probe += r.count;
  }
  const quota = input.monthlyCalls;
  const saving = reaches(used, quota, QUOTA_SAVING_RATIO);
  return {
    month: input.month,
    monthly_calls: quota,
    used,
    by_category: byCategory,
    by_account: byAccount,
    ratio: quota === null ? null : Math.round((used / quota) * 10_000) / 10_000,
    warning: reaches(used, quota, QUOTA_WARNING_RATIO) ? warningText(used, quota!, saving) : null,
    saving,
  };
}

function warningText(used: number, quota: number, saving: boolean): string {
  const pct = Math.floor((used / quota) * 100);
  const head = `${used} of ${quota} Feishu API calls used this month (${pct}%)`;
  if (used >= quota) return `${head}: the monthly quota is spent; saving calls`;
  if (saving) return `${head}: saving calls (no Typing reactions, slower Task Card updates)`;
  return `${head}: at ${QUOTA_SAVING_RATIO * 100}% the bridge starts saving calls`;
}
