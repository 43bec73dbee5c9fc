/**
 * Pairing at run time (`access.dm: "pairing"`), between the inbound
 * pipeline, the access book and the owners:
 *
 * - a DM from someone not admitted is not stored and wakes nobody; the book
 *   decides whether it gets a code (see `lib/access/ledger.ts` for the
 *   limits). Opening the bot's DM (`p2p_entered`) asks the same way, before
 *   any message. A code is answered once, as a card replying to the message
 *   (into the chat when the DM was only opened), and
 *   each approver (the owners, else the allowed users) with a known DM gets
 *   a control card with Approve and Deny — recorded hidden, so its buttons
 *   are control clicks that only an owner may use. An approver without a
 *   known DM is logged: they can still type `/pair CODE`.
 * - `/pair CODE`, `/pair deny CODE` and `/unpair OPEN_ID` (owners only, like
 *   every control command) change the book; an approved person gets a short
 *   note in their DM.
 *
 * Every card here goes out once: the write ledger and a uuid derived from
 * its key (the request's message id, the code, the approver).
 * @module
 */

import type { AccessBook } from "../access/mod.ts";
import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import type { InboundSeams } from "../inbound/mod.ts";
import { type DeliveryRoute, PRIORITY, sendCard } from "../outbound/mod.ts";
import type { Store } from "../store/mod.ts";
import type { AccessAnswer, LocalCommands, ParsedCommand, PersonView } from "../../commands/mod.ts";

type PairingContext = Parameters<NonNullable<InboundSeams["pairingRequest"]>>[0];

/** Options of {@link createPairing}. */
export interface PairingOptions {
  book: AccessBook;
  commands: LocalCommands;
  store: Store;
  /** Where approval cards are recorded (hidden), which makes their buttons control clicks. */
  conversation: ConversationLog;
  clock: Clock;
  log: Logger;
}

/** The pairing capability: the inbound seam and the two commands. */
export interface Pairing {
  request(ctx: PairingContext): Promise<void>;
  /** `/pair` and `/unpair` run by an owner: what the book did. */
  command(account: Account, cmd: ParsedCommand, actor: string, atMs: number): Promise<AccessAnswer>;
  /** The account's paired people, named, for `/status`. */
  paired(account: Account): PersonView[];
}

/** Who may approve: the owners, else the allowed users (as `controlRight` decides). */
function approvers(account: Account): readonly string[] {
  return account.owners.length > 0 ? account.owners : account.allowedUsers ?? [];
}

/**
 * The owners (else the allowed users) and the DM each has with the bot, or
 * null when none is known yet (they never wrote to it).
 */
export function ownerDms(
  account: Account,
  records: Pick<Store["records"], "p2pChatOf">,
): { owner: string; chat: string | null }[] {
  return approvers(account).map((owner) => ({
    owner,
    chat: records.p2pChatOf(account.alias, owner) ?? null,
  }));
}

/** What {@link sendCardOnce} needs. */
export type OnceDeps = Pick<PairingOptions, "store" | "conversation" | "clock" | "log">;

/**
 * Sends a bridge card once under `key` (recorded hidden when `record`); a
 * failure is logged and not retried, like a command's answer. `text` is the
 * sent record's short text.
 */
export async function sendCardOnce(
  deps: OnceDeps,
  account: Account,
  send: {
    key: string;
    route: DeliveryRoute;
    card: () => Promise<Record<string, unknown>>;
    text: string;
    record?: boolean;
  },
): Promise<void> {
  const { key } = send;
  const ledger = deps.store.writes.ledger(account.alias);
  if (ledger.get(key)?.state === "done") return;
  ledger.begin(key);
  try {
    const sent = await sendCard(account, send.route, await send.card(), {
      key,
      priority: PRIORITY.answer,
      text: send.text,
      mark: "local_command",
      now: () => deps.clock.now(),
    });
    if (send.record) deps.conversation.record(account.alias, { kind: "sent", record: sent.record });
    ledger.finish(key, sent.message.messageId);
  } catch (err) {
    // The key's kind only: the rest may hold a code, which stays out of the log.
    const kind = key.split(":")[0];
    deps.log.warn("bridge card not sent", { account: account.alias, kind, error: String(err) });
    ledger.finish(key, null);
  }
}

/** Builds the pairing capability. */
export function createPairing(options: PairingOptions): Pairing {
  const { book, commands, log } = options;

  const once = (
    account: Account,
    key: string,
    route: DeliveryRoute,
    card: () => Promise<Record<string, unknown>>,
    record = false,
  ) => sendCardOnce(options, account, { key, route, card, text: "/pair", record });

  const person = async (account: Account, openId: string): Promise<PersonView> => ({
    openId,
    name: await account.names.resolve(openId).catch(() => null),
  });

  async function request(ctx: PairingContext): Promise<void> {
    const { account } = ctx;
    const outcome = await book.request(account.alias, ctx);
    if (outcome.kind === "silent") {
      log.info("pairing request not answered", { account: account.alias, reason: outcome.reason });
      return;
    }
    const { code } = outcome;
    // Opening the DM leaves no message to reply to: the code goes into the chat.
    const route: DeliveryRoute = ctx.entered
      ? { kind: "create", receiveId: ctx.chatId, receiveIdType: "chat_id" }
      : { kind: "reply", targetId: ctx.messageId, chatId: ctx.chatId, replyInThread: false };
    await once(
      account,
      `pairing:${ctx.messageId}`,
      route,
      () => commands.pairingCard({ kind: "code", code }),
    );
    const asker = await person(account, ctx.openId);
    const list = ownerDms(account, options.store.records);
    if (list.length === 0) {
      log.warn("pairing code sent but nobody can approve it: the account names no owners", {
        account: account.alias,
      });
    }
    for (const { owner, chat } of list) {
      if (!chat) {
        log.info("owner has no known DM with the bot; they can approve with /pair", {
          account: account.alias,
          owner,
        });
        continue;
      }
      await once(
        account,
        `pairing-approval:${code}:${owner}`,
        { kind: "create", receiveId: chat, receiveIdType: "chat_id" },
        () => commands.pairingCard({ kind: "request", person: asker, code }),
        true,
      );
    }
  }

  async function command(
    account: Account,
    cmd: ParsedCommand,
    actor: string,
    atMs: number,
  ): Promise<AccessAnswer> {
    const words = cmd.argument.split(/\s+/).filter((w) => w !== "");
    if (cmd.command === "unpair") {
      const openId = words[0];
      if (words.length !== 1 || !/^ou_[A-Za-z0-9_-]{1,64}$/.test(openId!)) {
        return { kind: "unpair_usage" };
      }
      const removed = await book.unpair(account.alias, openId!);
      log.info("pairing removed by an owner", { account: account.alias, removed });
      return { kind: removed ? "unpaired" : "not_paired", who: await person(account, openId!) };
    }
    const deny = words[0]?.toLowerCase() === "deny";
    const code = deny ? words[1] : words[0];
    if (!code || words.length !== (deny ? 2 : 1)) return { kind: "pair_usage" };
    const outcome = await book.decide(account.alias, code, deny ? "deny" : "approve", {
      by: actor,
      atMs,
    });
    if (outcome.kind === "unknown") return { kind: "unknown" };
    log.info(`pairing ${outcome.kind} by an owner`, { account: account.alias });
    if (outcome.kind === "approved") {
      await once(
        account,
        `pairing-welcome:${code.toLowerCase()}`,
        { kind: "create", receiveId: outcome.chatId, receiveIdType: "chat_id" },
        () => commands.pairingCard({ kind: "welcome" }),
      );
    }
    return { kind: outcome.kind, who: await person(account, outcome.openId) };
  }

  return {
    request,
    command,
    paired: (account) =>
      book.paired(account.alias).map((p) => ({
        openId: p.open_id,
        name: account.names.known(p.open_id),
      })),
  };
}
