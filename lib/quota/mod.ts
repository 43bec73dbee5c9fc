/**
 * API quota accounting: every Feishu call counted per account, calendar
 * month (UTC) and category, persisted in the store, measured against
 * `quota.monthly_calls`; a warning from 80 %, and from 90 % the bridge saves
 * calls on its own (no Typing reaction, Task Cards updated less often) while
 * answers go out as always. The counting itself happens where every request
 * passes, the Feishu HTTP instance (`lib/feishu/_http.ts`).
 * @module
 */

export { createQuotaMeter } from "./meter.ts";
export { monthKey, QUOTA_SAVING_CARD_GAP_MS, type QuotaView, quotaView } from "./view.ts";
