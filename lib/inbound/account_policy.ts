/**
 * An account's admission policy as the pipeline asks it, and the counting of
 * rejections by reason (the status resource shows them).
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Admission, AdmissionPolicy, RejectReason } from "./admission.ts";

/** The admission policy of an account right now (the identity may arrive late). */
export function policyOf(account: Account): AdmissionPolicy {
  return {
    botOpenId: account.identity.botOpenId(),
    botAppId: account.appId,
    allowedUsers: account.allowedUsers,
    dm: account.access.dm,
    admits: (openId) => account.admits(openId),
    bots: account.access.bots,
  };
}

/** Counts a rejection; true when admitted. */
export function admitted(
  c: { rejected: Partial<Record<RejectReason, number>> },
  verdict: Admission,
): boolean {
  if (verdict.admit) return true;
  c.rejected[verdict.reason] = (c.rejected[verdict.reason] ?? 0) + 1;
  return false;
}
