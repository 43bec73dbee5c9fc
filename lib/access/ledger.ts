/**
 * The pairing ledger of one account, as pure functions from a state and an
 * event time to a new state and an outcome: who is paired, which codes are
 * pending, how many code replies each person got. Times are Feishu's (the
 * message's or the click's), so a code's hour runs on the same clock as the
 * messages that use it.
 *
 * The limits: a code lives {@link CODE_TTL_MS}; an account has at most
 * {@link MAX_PENDING} live codes; a person gets at most {@link MAX_REPLIES}
 * code replies, one per live code. Past a limit the person is not answered
 * (silence, never an error reply). An owner's approval, or `/unpair` of the
 * person, gives them a fresh count; a denial does not.
 * @module
 */

import { PAIRING_CODE } from "./code.ts";

/** How long a pairing code stays valid (1 h). */
export const CODE_TTL_MS = 3_600_000;
/** Live pairing codes one account may have at once. */
export const MAX_PENDING = 3;
/** Code replies one person may get (until an owner approves or unpairs them). */
export const MAX_REPLIES = 2;

/** Someone an owner approved. */
export interface PairedPerson {
  open_id: string;
  /** The owner who approved. */
  approved_by: string;
  approved_at_ms: number;
}

/** A code handed out and not yet used. */
export interface PendingCode {
  code: string;
  open_id: string;
  /** The DM the request came from. */
  chat_id: string;
  /** The Feishu message that asked (a replay of it gets the same code). */
  message_id: string;
  issued_at_ms: number;
  expires_at_ms: number;
}

/** One account's pairing state. */
export interface AccountLedger {
  paired: PairedPerson[];
  pending: PendingCode[];
  /** Code replies per person. */
  replies: { open_id: string; count: number }[];
}

/** An empty ledger. */
export function emptyLedger(): AccountLedger {
  return { paired: [], pending: [], replies: [] };
}

/** A DM from someone not admitted, asking (implicitly) to be paired. */
export interface PairingRequest {
  openId: string;
  chatId: string;
  messageId: string;
  atMs: number;
}

/** What a request gets. */
export type RequestOutcome =
  | {
    kind: "code";
    code: string;
    expiresAtMs: number;
    /** True when this message already got this code (a replay): nothing new is owed. */
    replay: boolean;
  }
  | { kind: "silent"; reason: "paired" | "already_pending" | "reply_limit" | "account_limit" };

/** What an owner's decision on a code does. */
export type DecisionOutcome =
  | { kind: "approved" | "denied"; openId: string; chatId: string }
  | { kind: "unknown" };

/** The ledger with its expired codes dropped. */
function live(l: AccountLedger, atMs: number): AccountLedger {
  return { ...l, pending: l.pending.filter((p) => p.expires_at_ms > atMs) };
}

function repliesOf(l: AccountLedger, openId: string): number {
  return l.replies.find((r) => r.open_id === openId)?.count ?? 0;
}

/** Whether `openId` is paired. */
export function isPaired(l: AccountLedger, openId: string): boolean {
  return openId !== "" && l.paired.some((p) => p.open_id === openId);
}

/**
 * Handles a request: a new code (counted against the person and the
 * account), the same code again for a replayed message, or silence.
 *
 * @example
 * ```ts
 * import { emptyLedger, requestCode } from "./ledger.ts";
 * const ask = { openId: "ou_x", chatId: "oc_x", messageId: "om_1", atMs: 0 };
 * const first = requestCode(emptyLedger(), ask, () => "k3f9qa");
 * if (first.outcome.kind !== "code" || first.outcome.code !== "k3f9qa") throw new Error();
 * const again = requestCode(first.ledger, { ...ask, messageId: "om_2", atMs: 1 }, () => "zzzzzz");
 * if (again.outcome.kind !== "silent" || again.outcome.reason !== "already_pending") throw new Error();
 * ```
 */
export function requestCode(
  ledger: AccountLedger,
  req: PairingRequest,
  newCode: () => string,
): { ledger: AccountLedger; outcome: RequestOutcome } {
  const l = live(ledger, req.atMs);
  const silent = (reason: Extract<RequestOutcome, { kind: "silent" }>["reason"]) => ({
    ledger: l,
    outcome: { kind: "silent", reason } as RequestOutcome,
  });
  if (isPaired(l, req.openId)) return silent("paired");
  const mine = ledger.pending.find((p) => p.message_id === req.messageId);
  if (mine) {
    return {
      ledger: l,
      outcome: { kind: "code", code: mine.code, expiresAtMs: mine.expires_at_ms, replay: true },
    };
  }
  if (l.pending.some((p) => p.open_id === req.openId)) return silent("already_pending");
  const count = repliesOf(l, req.openId);
  if (count >= MAX_REPLIES) return silent("reply_limit");
  if (l.pending.length >= MAX_PENDING) return silent("account_limit");
  let code = newCode();
  while (l.pending.some((p) => p.code === code)) code = newCode();
  const pending: PendingCode = {
    code,
    open_id: req.openId,
    chat_id: req.chatId,
    message_id: req.messageId,
    issued_at_ms: req.atMs,
    expires_at_ms: req.atMs + CODE_TTL_MS,
  };
  return {
    ledger: {
      ...l,
      pending: [...l.pending, pending],
      replies: [
        ...l.replies.filter((r) => r.open_id !== req.openId),
        { open_id: req.openId, count: count + 1 },
      ],
    },
    outcome: { kind: "code", code, expiresAtMs: pending.expires_at_ms, replay: false },
  };
}

/** A typed or clicked code as the ledger keys it, or null when it cannot be one. */
export function normaliseCode(text: string): string | null {
  const code = text.trim().replace(/^`|`$/g, "").toLowerCase();
  return PAIRING_CODE.test(code) ? code : null;
}

/**
 * An owner approves or denies a live code. Approval pairs the person and
 * clears their reply count; denial only withdraws the code. An unknown or
 * expired code changes nothing.
 *
 * @example
 * ```ts
 * import { decide, emptyLedger, isPaired, requestCode } from "./ledger.ts";
 * const ask = { openId: "ou_x", chatId: "oc_x", messageId: "om_1", atMs: 0 };
 * const { ledger } = requestCode(emptyLedger(), ask, () => "k3f9qa");
 * const late = decide(ledger, "k3f9qa", "approve", { by: "ou_owner", atMs: 3_600_000 });
 * if (late.outcome.kind !== "unknown") throw new Error();
 * const ok = decide(ledger, "K3F9QA", "approve", { by: "ou_owner", atMs: 60_000 });
 * if (ok.outcome.kind !== "approved" || !isPaired(ok.ledger, "ou_x")) throw new Error();
 * ```
 */
export function decide(
  ledger: AccountLedger,
  text: string,
  verdict: "approve" | "deny",
  by: { by: string; atMs: number },
): { ledger: AccountLedger; outcome: DecisionOutcome } {
  const l = live(ledger, by.atMs);
  const code = normaliseCode(text);
  const hit = code === null ? undefined : l.pending.find((p) => p.code === code);
  if (!hit) return { ledger: l, outcome: { kind: "unknown" } };
  const pending = l.pending.filter((p) => p.open_id !== hit.open_id);
  const who = { openId: hit.open_id, chatId: hit.chat_id };
  if (verdict === "deny") {
    return { ledger: { ...l, pending }, outcome: { kind: "denied", ...who } };
  }
  const paired = isPaired(l, hit.open_id) ? l.paired : [
    ...l.paired,
    { open_id: hit.open_id, approved_by: by.by, approved_at_ms: by.atMs },
  ];
  return {
    ledger: {
      paired,
      pending,
      replies: l.replies.filter((r) => r.open_id !== hit.open_id),
    },
    outcome: { kind: "approved", ...who },
  };
}

/**
 * Removes a paired person (and any code or reply count of theirs: they
 * start afresh). `removed` is false when they were not paired.
 */
export function unpair(
  ledger: AccountLedger,
  openId: string,
): { ledger: AccountLedger; removed: boolean } {
  const removed = isPaired(ledger, openId);
  return {
    ledger: {
      paired: ledger.paired.filter((p) => p.open_id !== openId),
      pending: ledger.pending.filter((p) => p.open_id !== openId),
      replies: ledger.replies.filter((r) => r.open_id !== openId),
    },
    removed,
  };
}

/** The live codes of a ledger at `atMs`. */
export function pendingAt(ledger: AccountLedger, atMs: number): readonly PendingCode[] {
  return live(ledger, atMs).pending;
}
