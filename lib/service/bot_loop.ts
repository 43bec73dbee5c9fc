/**
 * The loop guard's note to the owners: when other bots' messages in a chat
 * reach the cap (see lib/inbound/bot_guard.ts), each owner (else each
 * allowed user, as for pairing approvals) whose DM with the bot is known gets
 * one card in the agent's language naming the chat and the cap, once per
 * episode (the key derives from the first message held). An owner without a
 * known DM is logged, like a pairing approver.
 * @module
 */

import type { InboundSeams } from "../inbound/mod.ts";
import type { LocalCommands } from "../../commands/mod.ts";
import { type OnceDeps, ownerDms, sendCardOnce } from "./pairing.ts";

type HeldContext = Parameters<NonNullable<InboundSeams["botWakesHeld"]>>[0];

/** The `botWakesHeld` seam: tells the owners; never throws. */
export function botLoopNotice(
  deps: OnceDeps & { commands: Pick<LocalCommands, "botLoopCard"> },
): (ctx: HeldContext) => Promise<void> {
  const { log } = deps;
  return async (ctx) => {
    const { account } = ctx;
    try {
      const owners = ownerDms(account, deps.store.records);
      if (owners.length === 0) {
        log.warn("the loop guard holds bot messages but the account names no owners to tell", {
          account: account.alias,
          chat: ctx.chatId,
        });
        return;
      }
      const info = await account.api.chatInfo(ctx.chatId).catch(() => null);
      for (const { owner, chat } of owners) {
        if (!chat) {
          log.info("owner has no known DM with the bot; the loop guard's note is not sent", {
            account: account.alias,
            owner,
          });
          continue;
        }
        await sendCardOnce(deps, account, {
          key: `bot-loop:${ctx.messageId}:${owner}`,
          route: { kind: "create", receiveId: chat, receiveIdType: "chat_id" },
          card: () =>
            deps.commands.botLoopCard({
              chatId: ctx.chatId,
              chatName: info?.name ?? null,
              max: ctx.max,
              windowSeconds: ctx.windowSeconds,
            }),
          text: "bot loop guard",
        });
      }
    } catch (err) {
      log.warn("the loop guard's note to the owners failed", {
        account: account.alias,
        error: String(err),
      });
    }
  };
}
