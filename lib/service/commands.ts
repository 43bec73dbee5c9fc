/**
 * Local slash commands plugged into the service: a typed command is
 * answered in the chat's worker with a control card replying to it (no
 * record, no reaction, no wake), and a control card's button is answered in
 * the click's own ACK with the updated card, in place. Both run the
 * command's effect (signals, the Task Card preference) at most once per
 * Feishu message or click:
 *
 * - a typed command's answer is a once-only write (the account's write
 *   ledger, and a uuid derived from the message id, so even a crash between
 *   the reply and the ledger entry answers once);
 * - a click is claimed in `feishu/control_callbacks.json` before any effect.
 *
 * A typed command's answer is recorded as a hidden sent record: invisible to
 * every action, but the conversation log's listeners see it land (a Task Card
 * above it moves below it). That record is also what makes the card a
 * control card: card callbacks honour a control value only on one.
 *
 * Who may: `/help` (typed or clicked) answers everyone admitted; every other
 * command answers only the account's owners (`controlRight`: its `owners`,
 * else its `allowed_users`). Anyone else gets a refusal card (typed), or a
 * toast (clicked; with no owner named at all, the refusal card in place, so
 * they can copy their open_id into the config) — and nothing runs. `/clear`
 * and `/sleep` run only from their confirm button: typing them, or their
 * plain button, answers a card that asks.
 *
 * `/pair` and `/unpair` (owners only too) change the access book through
 * the pairing capability (`pairing.ts`); `/status` lists the paired people
 * when the account pairs. An approval card the pairing capability sent is
 * a recorded control card like any answer here, so its Approve and Deny
 * clicks pass the same owner gate.
 *
 * Control clicks of one chat run one at a time.
 * @module
 */

import { type Account, controlRight } from "../account/mod.ts";
import { type ControlHandler, controlText } from "../callbacks/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import type { InboundSeams } from "../inbound/mod.ts";
import { PRIORITY, sendCard } from "../outbound/mod.ts";
import type { Store } from "../store/mod.ts";
import {
  type LocalCommand,
  type LocalCommands,
  parseCommand,
  type ParsedCommand,
} from "../../commands/mod.ts";
import type { Pairing } from "./pairing.ts";

/** What the command seam sees of one admitted message. */
type CommandContext = Parameters<NonNullable<InboundSeams["interceptCommand"]>>[0];

/** The ledger prefix of answered commands. */
export const COMMAND_PREFIX = "command:";

/** The toast of a control button clicked by someone who is not an owner. */
export const NOT_OWNER_TOAST = "Only the Agent's owners can use this button.";

/** Options of {@link commandSeams}. */
export interface CommandSeamOptions {
  commands: LocalCommands;
  store: Store;
  /** Where answers are recorded (hidden from every action; listeners see them land). */
  conversation: ConversationLog;
  clock: Clock;
  log: Logger;
  /** `/pair`, `/unpair` and the paired list of `/status`; absent: unavailable. */
  pairing?: Pairing;
}

/** The two seams: the typed-command interceptor and the control-click handler. */
export function commandSeams(options: CommandSeamOptions): {
  intercept(ctx: CommandContext): Promise<boolean>;
  control: ControlHandler;
} {
  const { commands, store, log } = options;
  const chains = new Map<string, Promise<unknown>>();
  /** Runs `job` after every earlier control click of the same chat. */
  const inChat = <T>(key: string, job: () => Promise<T>): Promise<T> => {
    const run = (chains.get(key) ?? Promise.resolve()).then(job, job);
    const settled = run.catch(() => {});
    chains.set(key, settled);
    settled.then(() => {
      if (chains.get(key) === settled) chains.delete(key);
    });
    return run;
  };

  /** Null when `openId` may run `command`; else why not (nothing may run then). */
  function refused(account: Account, command: LocalCommand, openId: string) {
    if (command === "help") return null;
    const right = controlRight(account, openId);
    if (right === "owner") return null;
    log.info("local command refused", { account: account.alias, command, reason: right });
    return right;
  }

  /** What `/pair`, `/unpair` did, or whom `/status` lists; run only for an owner. */
  async function accessOrigin(account: Account, cmd: ParsedCommand, actor: string, atMs: number) {
    const pairing = options.pairing;
    if (!pairing) return {};
    if (cmd.command === "pair" || cmd.command === "unpair") {
      return { access: await pairing.command(account, cmd, actor, atMs) };
    }
    if (cmd.command !== "status") return {};
    const paired = pairing.paired(account);
    return account.access.dm === "pairing" || paired.length > 0 ? { paired } : {};
  }

  async function answerTyped(account: Account, ctx: CommandContext): Promise<boolean> {
    const { record } = ctx;
    const parsed = parseCommand(record.text);
    if (!parsed) return false;
    const ledger = store.writes.ledger(account.alias);
    const key = `${COMMAND_PREFIX}${record.feishu_message_id}`;
    if (ledger.get(key)?.state === "done") return true;
    ledger.begin(key);
    try {
      const why = refused(account, parsed.command, record.from_open_id);
      const atMs = record.create_time_ms ?? options.clock.now();
      const card = why
        ? await commands.refusal(parsed.command, record.from_open_id, why)
        : await commands.render(parsed, {
          clicked: false,
          ...await accessOrigin(account, parsed, record.from_open_id, atMs),
        });
      const sent = await sendCard(
        account,
        {
          kind: "reply",
          targetId: record.feishu_message_id,
          chatId: record.chat_id,
          replyInThread: Boolean(record.thread_id),
        },
        card,
        {
          key,
          priority: PRIORITY.answer,
          text: `/${parsed.command}`,
          mark: "local_command",
          now: () => options.clock.now(),
        },
      );
      const answer = sent.record;
      answer.thread_id ??= record.thread_id ?? undefined;
      // Recorded before the ledger says done: a replay after a crash records it still
      // (idempotently), and only a recorded answer is a control card.
      try {
        options.conversation.record(account.alias, { kind: "sent", record: answer });
      } catch (err) {
        log.warn("local command answer not recorded", { error: (err as Error).message });
      }
      ledger.finish(key, sent.message.messageId);
    } catch (err) {
      log.warn("local command not answered", {
        account: account.alias,
        command: parsed.command,
        error: (err as Error).message,
      });
      ledger.finish(key, null);
    }
    return true;
  }

  return {
    intercept: (ctx) => answerTyped(ctx.account, ctx),
    control: {
      answer: ({ account, callback, request }) =>
        inChat(`${account.alias}\u0000${callback.chatId}`, async () => {
          if (!await commands.claim(account.alias, callback.eventId)) return undefined;
          const parsed = parseCommand(controlText(request));
          if (!parsed) return undefined;
          const openId = callback.operator.open_id;
          const why = refused(account, parsed.command, openId);
          if (why === "not_owner") return { toast: { type: "error", content: NOT_OWNER_TOAST } };
          const atMs = callback.atMs ?? options.clock.now();
          const card = why
            ? await commands.refusal(parsed.command, openId, why)
            : await commands.render(parsed, {
              clicked: true,
              ...await accessOrigin(account, parsed, openId, atMs),
            });
          return { card: { type: "raw", data: card } };
        }),
      // Answered in the click's ACK; nothing is left for the chat's worker.
      handle: () => Promise.resolve(),
    },
  };
}
