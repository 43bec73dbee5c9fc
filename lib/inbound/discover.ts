/**
 * Discovery for the gap backfill: chats the store never heard from (no
 * incoming message stored before the connection was lost), in which a
 * message may have been sent during the outage whose event Feishu gave up
 * on. Two sources, since a bot token lists only group chats:
 *
 * - the DMs people opened (`p2p_entered` event records) and never wrote in
 *   (as far as the store knows), most recently opened first;
 * - the bot's group chats, listed newest activity first (`GET im/v1/chats`,
 *   at most `maxPages` pages of 100), skipping the ones the store knows.
 *
 * A never-seen person's DM whose every event was lost (their first message
 * and their opening of the chat) cannot be found with a bot token.
 * @module
 */

import type { FeishuApi } from "../feishu/mod.ts";
import type { RecordStore } from "../store/mod.ts";

/** Options of {@link discoverChats}. */
export interface DiscoverOptions {
  api: FeishuApi;
  records: RecordStore;
  /** What was stored when the connection was lost (a store sequence). */
  upToSeq?: number;
  /** Only DMs opened since this (ms). */
  enteredSinceMs: number;
  /** At most this many chats (default 20); DMs take at most half. */
  maxChats?: number;
  /** At most this many pages of the group list (default 5). */
  maxPages?: number;
  signal?: AbortSignal;
}

/** A chat the store never heard from. */
export interface DiscoveredChat {
  chatId: string;
  chatType: "p2p" | "group";
}

/** Default bound of discovered chats per run. */
export const DEFAULT_MAX_DISCOVERED = 20;

/**
 * The never-seen chats to read, DMs first. Throws when the group list
 * cannot be read; the DMs found are lost then, the next run finds them again.
 */
export async function discoverChats(options: DiscoverOptions): Promise<DiscoveredChat[]> {
  const { api, records } = options;
  const max = options.maxChats ?? DEFAULT_MAX_DISCOVERED;
  const found: DiscoveredChat[] = records.enteredChats(api.alias, {
    sinceMs: options.enteredSinceMs,
    upToSeq: options.upToSeq,
    limit: Math.ceil(max / 2),
  }).map((c) => ({ chatId: c.chatId, chatType: "p2p" }));
  let pageToken: string | undefined;
  // Newest activity first: within the bound, the chats most likely to have
  // spoken during the outage come first.
  for (let page = 0; page < (options.maxPages ?? 5) && found.length < max; page++) {
    if (options.signal?.aborted) break;
    const listed = await api.listChats({ order: "active", pageToken, pageSize: 100 });
    for (const chat of listed.items) {
      if (found.length >= max) break;
      if (records.hadIncoming(api.alias, chat.chatId, options.upToSeq)) continue;
      if (found.some((f) => f.chatId === chat.chatId)) continue;
      found.push({ chatId: chat.chatId, chatType: "group" });
    }
    if (!listed.hasMore || !listed.pageToken) break;
    pageToken = listed.pageToken;
  }
  return found;
}
