/**
 * The permission relay for Claude Code channels: a tool-permission prompt
 * from the client (`notifications/claude/channel/permission_request`)
 * becomes an approval card in the conversation that most recently woke the
 * agent (else the first owner's DM); the first answer of an owner (see
 * `controlRight`: the account's `owners`, else its `allowed_users`) — a
 * click on that very card, or a typed `yes <id>` / `no <id>` in that
 * conversation — goes back to the client exactly once
 * (`notifications/claude/channel/permission`), and the card then shows the
 * verdict and who gave it. Any other click on an approval card (someone not
 * allowed, a second answer, an unknown or expired request, another request's
 * vote) changes nothing and gets a toast. A vote value on a card that is not
 * one of the relay's approval cards (or in another chat than the card was
 * sent to) is not the relay's at all: card callbacks treat it as a business
 * click ({@link PermissionRelay.approvalChat}).
 *
 * Requests live in memory: they belong to the client session that asked,
 * which ends with this process.
 * @module
 */

import { approvalCard, type ApprovalTexts, messagesFor } from "../../cards/mod.ts";
import { type Account, controlRight } from "../account/mod.ts";
import { type CardCallback, permissionValue, type PermissionVote } from "../callbacks/mod.ts";
import { type Clock, type Logger, redactText } from "../core/mod.ts";
import type { Recorded } from "../conversation/mod.ts";
import { type DeliveryRoute, PRIORITY, sendCard, wireBody } from "../outbound/mod.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";
import { parsePermissionRequest, type PermissionRequest, typedVerdict } from "./wire.ts";

/** How long a request can be answered here. */
export const REQUEST_TTL_MS = 30 * 60_000;
/** Longest wait for a clicker's name before the answered card shows their open_id. */
export const NAME_WAIT_MS = 1500;
/** Requests kept (answered ones are dropped oldest first beyond this). */
export const MAX_REQUESTS = 200;
/** Approval cards remembered (their message ids), oldest forgotten first beyond this. */
export const MAX_APPROVAL_CARDS = 1000;

/** The verdict sent to the client. */
export interface PermissionVerdict {
  request_id: string;
  behavior: "allow" | "deny";
}

/** Where a conversation last woke the agent. */
export interface WakeTarget {
  alias: string;
  chatId: string;
  threadId: string | null;
  /** A message in the conversation (a topic's replies go under it). */
  messageId: string | null;
}

interface Pending {
  req: PermissionRequest;
  alias: string;
  chatId: string | null;
  messageId: string | null;
  createdAt: number;
  verdict?: { behavior: "allow" | "deny"; by: string; byOpenId: string; atMs: number };
  /** The card's language and zone, fixed when the request arrived. */
  look: { texts: ApprovalTexts; timeZone?: string };
}

/** What the relay has seen (status). */
export interface RelayCounters {
  requests: number;
  cards: number;
  verdicts: number;
  refused: number;
  undelivered: number;
}

/** Options of {@link createPermissionRelay}. */
export interface RelayOptions {
  accounts: readonly Account[];
  clock: Clock;
  log: Logger;
  /** Sends the verdict notification to the client. */
  notifyVerdict(verdict: PermissionVerdict): Promise<void>;
  ttlMs?: number;
  /** The server's redactor (card style): the tool, its description and input preview pass it. */
  redact?: (text: string) => string;
  /**
   * The agent's language and time zone, read when a request arrives: its
   * card speaks that language and shows its verdict's time in that zone
   * (default: English, this machine's zone).
   */
  profile?(): Promise<{ language: string | null; timeZone: string | null }>;
}

/** A running relay. */
export interface PermissionRelay {
  /** Whether someone named can answer (an account with `owners` or `allowed_users`). */
  readonly enabled: boolean;
  /** A prompt from the client: sends its approval card. Never throws. */
  request(params: unknown): Promise<void>;
  /**
   * The chat of an approval card this relay sent, by its message id; null
   * for any other card. Only a click on one, from that chat, is a vote.
   */
  approvalChat(account: Account, messageId: string): string | null;
  /** A click on an approval card button; returns the callback's answer. */
  click(account: Account, cb: CardCallback, vote: PermissionVote): Promise<unknown>;
  /** A typed `yes <id>` / `no <id>`: true when it answered a request here. */
  typed(account: Account, record: IncomingMessageRecord): Promise<boolean>;
  /**
   * The conversation log's listener: a record that woke the agent marks its
   * conversation as where the next approval card goes.
   */
  onRecorded(recorded: Recorded): void;
  counters: RelayCounters;
}

function toast(type: "info" | "success" | "warning" | "error", content: string) {
  return { toast: { type, content } };
}

/** Builds the relay. */
export function createPermissionRelay(options: RelayOptions): PermissionRelay {
  const { clock, log } = options;
  const ttl = options.ttlMs ?? REQUEST_TTL_MS;
  // Approving a tool call controls the agent: only accounts that name who may.
  const approvers = (a: Account) => a.owners.length > 0 ? a.owners : a.allowedUsers ?? [];
  const gated = options.accounts.filter((a) => approvers(a).length > 0);
  const byAlias = new Map(options.accounts.map((a) => [a.alias, a]));
  const pending = new Map<string, Pending>();
  const counters: RelayCounters = {
    requests: 0,
    cards: 0,
    verdicts: 0,
    refused: 0,
    undelivered: 0,
  };
  let lastWake: WakeTarget | null = null;
  /** Approval cards sent, by message id: whose account and chat. */
  const approvals = new Map<string, { alias: string; chatId: string | null }>();
  const remember = (messageId: string, alias: string, chatId: string | null) => {
    approvals.set(messageId, { alias, chatId });
    for (const old of approvals.keys()) {
      if (approvals.size <= MAX_APPROVAL_CARDS) break;
      approvals.delete(old);
    }
  };

  const allowedIn = (account: Account, openId: string) => controlRight(account, openId) === "owner";

  const redact = options.redact ?? redactText;
  const lookNow = async (): Promise<Pending["look"]> => {
    const p = await options.profile?.().catch(() => null) ?? null;
    return { texts: messagesFor(p?.language).approval, timeZone: p?.timeZone ?? undefined };
  };
  const cardOf = (p: Pending) =>
    approvalCard({
      requestId: p.req.request_id,
      toolName: redact(p.req.tool_name),
      description: redact(p.req.description),
      inputPreview: redact(p.req.input_preview),
      texts: p.look.texts,
      timeZone: p.look.timeZone,
      allowValue: permissionValue({ requestId: p.req.request_id, behavior: "allow" }),
      denyValue: permissionValue({ requestId: p.req.request_id, behavior: "deny" }),
      verdict: p.verdict,
    });

  /** Where a new approval card goes. */
  function target(): { account: Account; route: DeliveryRoute; chatId: string | null } | null {
    const wake = lastWake;
    const account = wake ? byAlias.get(wake.alias) : undefined;
    if (wake && account && gated.includes(account)) {
      const route: DeliveryRoute = wake.threadId && wake.messageId
        ? { kind: "reply", targetId: wake.messageId, chatId: wake.chatId, replyInThread: true }
        : { kind: "create", receiveId: wake.chatId, receiveIdType: "chat_id" };
      return { account, route, chatId: wake.chatId };
    }
    const first = gated[0];
    if (!first) return null;
    return {
      account: first,
      route: { kind: "create", receiveId: approvers(first)[0]!, receiveIdType: "open_id" },
      chatId: null,
    };
  }

  function prune(): void {
    if (pending.size <= MAX_REQUESTS) return;
    for (const [id, p] of pending) {
      if (pending.size <= MAX_REQUESTS) break;
      if (p.verdict || clock.now() - p.createdAt > ttl) pending.delete(id);
    }
  }

  function decide(p: Pending, behavior: "allow" | "deny", by: string, byOpenId: string): void {
    p.verdict = { behavior, by, byOpenId, atMs: clock.now() };
    counters.verdicts++;
    log.info("permission verdict relayed", { request: p.req.request_id, behavior });
    options.notifyVerdict({ request_id: p.req.request_id, behavior }).catch((err) =>
      log.warn("permission verdict not sent", { error: (err as Error).message })
    );
  }

  async function displayName(account: Account, openId: string): Promise<string> {
    return account.names.known(openId) ?? await account.names.resolve(openId) ?? openId;
  }

  /** The clicker's name for the answered card, looked up for at most {@link NAME_WAIT_MS}. */
  async function boundedName(account: Account, openId: string): Promise<string> {
    const known = account.names.known(openId);
    if (known) return known;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((r) => (timer = setTimeout(() => r(openId), NAME_WAIT_MS)));
    try {
      return await Promise.race([displayName(account, openId).catch(() => openId), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    enabled: gated.length > 0,
    counters,
    onRecorded(r) {
      if (!r.woke) return;
      lastWake = {
        alias: r.route.account,
        chatId: r.route.chatId,
        threadId: r.route.threadId,
        messageId: r.messageId,
      };
    },
    async request(params) {
      const req = parsePermissionRequest(params);
      if (!req) {
        log.warn("permission request with unexpected params ignored");
        return;
      }
      if (pending.has(req.request_id)) return;
      counters.requests++;
      const where = target();
      if (!where) {
        counters.undelivered++;
        log.warn("permission request not relayed: no account has owners or allowed_users");
        return;
      }
      const p: Pending = {
        req,
        alias: where.account.alias,
        chatId: where.chatId,
        messageId: null,
        createdAt: clock.now(),
        look: await lookNow(),
      };
      pending.set(req.request_id, p);
      prune();
      try {
        const { message: sent } = await sendCard(where.account, where.route, cardOf(p), {
          key: `permission:${req.request_id}:${p.createdAt}`,
          priority: PRIORITY.answer,
          text: `permission request ${req.request_id}`,
          now: () => clock.now(),
        });
        p.messageId = sent.messageId;
        p.chatId = sent.chatId || p.chatId;
        remember(sent.messageId, p.alias, p.chatId);
        counters.cards++;
      } catch (err) {
        counters.undelivered++;
        log.warn("approval card not sent", {
          account: where.account.alias,
          error: (err as Error).message,
        });
      }
    },
    approvalChat(account, messageId) {
      const card = approvals.get(messageId);
      return card && card.alias === account.alias ? card.chatId : null;
    },
    async click(account, cb, vote) {
      const p = pending.get(vote.requestId);
      if (!p || p.alias !== account.alias) {
        counters.refused++;
        return toast("error", "This permission request is unknown here or has ended.");
      }
      // Only the request's own card, in its chat, answers it.
      if (p.messageId === null || p.messageId !== cb.sourceMessageId || p.chatId !== cb.chatId) {
        counters.refused++;
        return toast("error", "This card does not answer that permission request.");
      }
      if (!allowedIn(account, cb.operator.open_id)) {
        counters.refused++;
        return toast("error", "Only an owner of the agent can answer this request.");
      }
      if (p.verdict) {
        counters.refused++;
        const what = p.verdict.behavior === "allow" ? "allowed" : "denied";
        return toast("info", `Already answered: ${what} by ${p.verdict.by}.`);
      }
      if (clock.now() - p.createdAt > ttl) {
        counters.refused++;
        return toast("warning", "This permission request has expired.");
      }
      const openId = cb.operator.open_id;
      // Decided before any await, so two clicks at once cannot both answer.
      decide(p, vote.behavior, cb.operator.name ?? openId, openId);
      if (!cb.operator.name) p.verdict!.by = await boundedName(account, openId);
      const allow = vote.behavior === "allow";
      return {
        ...toast(allow ? "success" : "warning", allow ? "Allowed" : "Denied"),
        card: { type: "raw", data: cardOf(p) },
      };
    },
    async typed(account, record) {
      // In a group the answer comes with an @-mention of the bot; it is not part of the answer.
      const bot = account.identity.botOpenId();
      let text = record.text;
      for (const m of record.mentions) {
        if (m.name && (m.is_bot || (bot !== null && m.open_id === bot))) {
          text = text.replaceAll(`@${m.name}`, " ");
        }
      }
      const t = typedVerdict(text);
      if (!t) return false;
      const p = pending.get(t.requestId);
      if (!p || p.alias !== account.alias || p.chatId !== record.chat_id) return false;
      if (!allowedIn(account, record.from_open_id)) return false;
      if (p.verdict || clock.now() - p.createdAt > ttl) {
        log.info("typed permission answer ignored: already answered or expired", {
          request: t.requestId,
        });
        return true;
      }
      const by = record.from_name || await displayName(account, record.from_open_id);
      decide(p, t.behavior, by, record.from_open_id);
      if (p.messageId) {
        await account.outbox.edit({
          chatId: record.chat_id,
          messageId: p.messageId,
          method: "PATCH",
          body: wireBody("interactive", cardOf(p)),
          priority: PRIORITY.update,
        }).catch((err) => log.warn("approval card not updated", { error: (err as Error).message }));
      }
      return true;
    },
  };
}
