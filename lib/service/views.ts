/**
 * Small views a running service gives out: what `/status` shows of the
 * bridge, the inbox summary of `feishu://inbox`, and the public identity
 * document LingTai reads. Pure except the document's write.
 * @module
 */

import { accountDetails, type ActionContext } from "../actions/mod.ts";
import { writeFileAtomic } from "../core/mod.ts";
import type { Store } from "../store/mod.ts";
import type { Account } from "../account/mod.ts";
import type { BridgeHealth } from "../../commands/mod.ts";
import type { ServiceStatus } from "./status.ts";

/** What `/status` shows of the bridge itself. */
export function bridgeHealth(s: ServiceStatus): BridgeHealth {
  return {
    accounts: s.accounts.map((a) => ({
      alias: a.alias,
      connection: a.connection.state,
      last_event_at: a.connection.last_event_at ?? null,
    })),
    queue_depth: s.journal?.pending ?? 0,
    dead_letters: s.journal?.dead_letters ?? 0,
    dead_letter_reasons: s.journal?.dead_letter_reasons,
    dedupe_keys: s.journal?.dedupe_keys,
    typing_pending: s.accounts.reduce((n, a) => n + (a.typing_pending ?? 0), 0),
    gone_chats: s.accounts.reduce((n, a) => n + (a.gone_chats ?? 0), 0),
    quota: s.quota,
  };
}

/** The unread conversations of every account (`feishu://inbox`). */
export function inboxSummary(
  store: Store,
  accounts: readonly Account[],
): Record<string, unknown> {
  return {
    status: "ok",
    accounts: accounts.map((a) => ({
      alias: a.alias,
      conversations: store.records.conversations(a.alias, { unreadOnly: true })
        .map((c) => ({ chat_id: c.chatId, unread: c.unread, last_id: c.newest.id })),
    })),
  };
}

/** Writes the public identity document of the configured accounts. */
export async function writeIdentityDocument(ctx: ActionContext): Promise<void> {
  const doc = {
    schema: "lingtai.mcp.identity.v1",
    mcp: "feishu",
    generated_at: new Date(ctx.deps.clock.now()).toISOString(),
    accounts: accountDetails(ctx),
  };
  await writeFileAtomic(ctx.identityPath, JSON.stringify(doc, null, 2) + "\n");
}
