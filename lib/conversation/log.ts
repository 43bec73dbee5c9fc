/**
 * The conversation log: the one way a record enters the store, wakes the
 * agent and reaches whoever listens.
 *
 * - `record` writes one record (columns derived from its kind) in one
 *   transaction with its sender's contact entry, and tells the listeners.
 * - `recordAndWake` does that for what wakes the agent (an admitted message,
 *   a business card click): a replay finds the record and only finishes a
 *   wake that did not go out; otherwise record, notify on every lane, mark
 *   notified, then tell the listeners that the agent was woken. With
 *   `hold` (the loop guard held a bot's message back) the record is written
 *   and marked handled the same way, but nobody is notified: the agent reads
 *   it later, and a replay does not wake it either.
 *
 * - `recall` rewrites a message as recalled and, when the agent has not
 *   answered it, tells the agent it was withdrawn, on the same lanes.
 *
 * Listeners (Task Cards, the permission relay, tests) are subscribed once in
 * the composition root; each is told the record's route, so it can scope by
 * conversation. A failing listener is logged and never stops the others.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import { type Notifier, PREVIEW_WINDOW } from "../notify/mod.ts";
import type {
  BridgeRecord,
  CardActionRecord,
  IncomingMessageRecord,
  Store,
  StoredRecord,
} from "../store/mod.ts";
import { type RecordMeta, type Route, routeOf, storedColumns } from "./columns.ts";

/** What a listener is told: a record entered the log (and whether it woke the agent). */
export type Recorded = BridgeRecord & {
  route: Route;
  /** The Feishu message now last in the chat because of it, if any. */
  messageId: string | null;
  /** True when the record woke the agent (messages and business clicks). */
  woke: boolean;
};

/** Told of every record written and every wake. */
export type RecordedListener = (recorded: Recorded) => void;

/** A person recalled a message: its chat and the text it had. */
export interface Recalled {
  account: string;
  chatId: string;
  text: string;
}

/** What wakes the agent. */
export type WakingRecord =
  | { kind: "message"; record: IncomingMessageRecord }
  | { kind: "card_action"; record: CardActionRecord };

/** Whose record wakes the agent: the account's alias and the names it knows. */
export type Waker = Pick<Account, "alias"> & { names: Pick<Account["names"], "known"> };

/** What {@link recordAndWake} did: recorded and woke, or finished a replay. */
export type WakeOutcome = "recorded" | "replayed";

/** How {@link ConversationLog.recordAndWake} treats one record. */
export interface WakeOptions {
  /** Record and mark handled, but wake nobody (listeners are told `woke: false`). */
  hold?: boolean;
}

/** Options of {@link createConversationLog}. */
export interface ConversationLogOptions {
  store: Store;
  notifier: Notifier;
  clock: Clock;
  log: Logger;
}

/** The conversation log. */
export interface ConversationLog {
  /**
   * Writes a record that wakes no one. Idempotent on (account, id): a
   * record already there is left as it is, except a `partial` sent record,
   * which a completed replay replaces. True when something was written.
   * Throws when the store fails.
   */
  record(account: string, entry: BridgeRecord, meta?: RecordMeta): boolean;
  /**
   * Records what wakes the agent and wakes it, exactly once across replays;
   * with `hold`, records it and wakes nobody.
   */
  recordAndWake(
    account: Waker,
    entry: WakingRecord,
    meta?: RecordMeta,
    options?: WakeOptions,
  ): Promise<WakeOutcome>;
  /**
   * Rewrites a stored message as recalled (`record` carries its `recalled`
   * mark) and, with `notify`, tells the agent it was withdrawn, on the lanes
   * of a wake, once across replays (an entry in the writes ledger is begun
   * with the mark and finished after the notification). `missing` when the
   * store holds no such message; `replayed` when it was marked already.
   */
  recall(
    account: Waker,
    record: IncomingMessageRecord,
    options: { at: number; notify: boolean },
  ): Promise<"recalled" | "replayed" | "missing">;
  /** Subscribes a listener (in the composition root, once). */
  onRecorded(listener: RecordedListener): void;
  /** Subscribes to recalls, told once per recalled message (its text, whatever the store keeps). */
  onRecalled(listener: (recalled: Recalled) => void): void;
}

/** The Feishu message a record puts last in its chat, if any. */
function lastMessageOf(entry: BridgeRecord): string | null {
  switch (entry.kind) {
    case "message":
      return entry.record.feishu_message_id;
    case "sent":
      return entry.record.feishu_message_ids.at(-1) ?? null;
    case "card_action":
      return entry.record.source_message_id;
    case "event":
      return null;
  }
}

/** Builds the log. */
export function createConversationLog(options: ConversationLogOptions): ConversationLog {
  const { store, log } = options;
  const listeners: RecordedListener[] = [];
  const recallListeners: ((recalled: Recalled) => void)[] = [];

  function tell(account: string, entry: BridgeRecord, woke: boolean): void {
    const recorded: Recorded = {
      ...entry,
      route: routeOf(account, entry),
      messageId: lastMessageOf(entry),
      woke,
    };
    for (const listener of listeners) {
      try {
        listener(recorded);
      } catch (err) {
        log.warn("a conversation listener failed", {
          account,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  function write(account: string, entry: BridgeRecord, meta: RecordMeta): boolean {
    const input = storedColumns(account, entry, meta, options.clock.now());
    return store.transaction(() => {
      let written = store.records.insert(input);
      if (
        !written && entry.kind === "sent" &&
        store.records.get(account, input.id)?.status === "partial"
      ) {
        written = store.records.update(account, input.id, {
          record: entry.record,
          status: input.status,
          chunkIds: input.chunkIds,
        });
      }
      const sender = entry.kind === "message" || entry.kind === "card_action"
        ? entry.record.from_open_id
        : "";
      if (written && sender) store.contacts.upsertSender(account, sender, input.chatId);
      return written;
    });
  }

  /** The notification window of a record: its chat's last records, ending with it if older. */
  const windowOf = (alias: string, record: { chat_id: string; id: string }) => () =>
    store.records.window(alias, record.chat_id, PREVIEW_WINDOW, record.id).map((r) => ({
      direction: r.direction,
      record: r.record,
    }));

  async function wake(account: Waker, entry: WakingRecord, hold: boolean): Promise<void> {
    const alias = account.alias;
    if (hold) {
      store.records.markNotified(alias, entry.record.id);
      tell(alias, entry, false);
      return;
    }
    const window = windowOf(alias, entry.record);
    const contactName = (id: string) => account.names.known(id);
    if (entry.kind === "message") {
      await options.notifier.message(alias, entry.record, window, contactName);
    } else {
      await options.notifier.cardAction(alias, entry.record, window, contactName);
    }
    store.records.markNotified(alias, entry.record.id);
    tell(alias, entry, true);
  }

  return {
    record(account, entry, meta = {}) {
      const written = write(account, entry, meta);
      if (written) tell(account, entry, false);
      return written;
    },
    async recordAndWake(account, entry, meta = {}, wakeOptions = {}) {
      const hold = wakeOptions.hold === true;
      const existing = store.records.get(account.alias, entry.record.id);
      if (existing) {
        // A replay after a crash: the record is there; make sure the wake went out.
        const stored = waking(existing);
        if (stored && !store.records.isNotified(account.alias, entry.record.id)) {
          await wake(account, stored, hold);
        }
        return "replayed";
      }
      // Marked on the record: `read` shows it, and a later recall tells nobody of it.
      if (hold && entry.kind === "message") entry.record.wake_held = true;
      write(account.alias, entry, meta);
      await wake(account, entry, hold);
      return "recorded";
    },
    async recall(account, record, { at, notify }) {
      const alias = account.alias;
      const key = `${RECALL_NOTICE_PREFIX}${record.id}`;
      const stored = store.records.get(alias, record.id);
      if (stored?.kind !== "message") return "missing";
      const replay = stored.record.recalled !== undefined;
      if (!replay) {
        const told = { account: alias, chatId: record.chat_id, text: stored.record.text };
        for (const listener of recallListeners) listener(told);
        store.transaction(() => {
          store.records.markRecalled(alias, record.id, record.chat_id, {
            record,
            at,
            by: record.recalled?.by ?? "",
            // Replies quoting it show what Feishu shows: that it was recalled.
            quote: record.recalled?.removed ? record.text : undefined,
          });
          if (notify) store.writes.begin(alias, key);
        });
      }
      if (store.writes.get(alias, key)?.state === "pending") {
        const current = replay ? stored.record : record;
        const contactName = (id: string) => account.names.known(id);
        await options.notifier.recalled(alias, current, windowOf(alias, current), contactName);
        store.writes.finish(alias, key, null);
      }
      return replay ? "replayed" : "recalled";
    },
    onRecorded(listener) {
      listeners.push(listener);
    },
    onRecalled(listener) {
      recallListeners.push(listener);
    },
  };
}

/** The writes-ledger key prefix of a withdrawn notice (begun with the mark, finished once sent). */
const RECALL_NOTICE_PREFIX = "recall-notice:";

/** A stored record that wakes the agent, as stored; null for other kinds. */
function waking(stored: StoredRecord): WakingRecord | null {
  if (stored.kind === "message") return { kind: "message", record: stored.record };
  if (stored.kind === "card_action") return { kind: "card_action", record: stored.record };
  return null;
}
