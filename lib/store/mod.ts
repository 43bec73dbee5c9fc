/**
 * Durable state of the bridge in `<workdir>/feishu/`: `store.db` (SQLite via
 * node:sqlite, WAL) with records, contacts, identities and pending Typing
 * reactions, resident Task Card bindings, API call counts, the connection
 * health snapshot and the journal figures snapshot, send intents, chats gone; the workdir lock; search
 * off the main thread; read-only access for `doctor`, which never writes and
 * never takes the lock.
 * @module
 */

import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { type Clock, stateDir } from "../core/mod.ts";
import { inTransaction, openDatabase } from "./db.ts";
import { RecordStore } from "./records.ts";
import { ContactStore } from "./contacts.ts";
import { IdentityStore } from "./identity.ts";
import { TypingStore } from "./typing.ts";
import { WriteStore } from "./writes.ts";
import { TaskCardStore } from "./task_cards.ts";
import { ApiCallStore } from "./api_calls.ts";
import { HealthStore } from "./health.ts";
import { JournalFiguresStore } from "./journal_figures.ts";
import { IntentStore } from "./intents.ts";
import { GoneChatStore } from "./gone_chats.ts";
import { Searcher } from "./search.ts";

export { type RecordInput, RecordStore, type StoredRecord } from "./records.ts";
export type {
  Attachment,
  AttachmentDescriptor,
  AttachmentSummary,
  AttachmentType,
  BridgeRecord,
  CardActionRecord,
  ForwardedMessage,
  IncomingMessageRecord,
  Mention,
  MessageContent,
  PassiveEventRecord,
  PassiveEventType,
  ReplyParent,
  SentMessageRecord,
  TranscriptSegment,
  VoiceTranscript,
} from "./record_types.ts";
export { type BotIdentity, IdentityStore } from "./identity.ts";
export { readTypingPending, type TypingEntry, TypingStore } from "./typing.ts";
export { readApiCalls } from "./api_calls.ts";
export { type HealthSnapshot, readHealth } from "./health.ts";
export { type JournalSnapshot, readJournalFigures } from "./journal_figures.ts";
export { openSqliteReadOnly, type ReadOnlyMode } from "./readonly.ts";
export type { SearchJob } from "./search.ts";
export { isLocked, lockFile, lockWorkdir, type WorkdirLock } from "./lock.ts";
export { type BindingRead, routeKey, type TaskCardRoute } from "./task_cards.ts";
export { type DeliveredChunk, IntentStore, type SendIntent } from "./intents.ts";
export type { GoneChat, GoneReason } from "./gone_chats.ts";

/** The opened store. */
export interface Store {
  path: string;
  db: DatabaseSync;
  records: RecordStore;
  contacts: ContactStore;
  identities: IdentityStore;
  typing: TypingStore;
  writes: WriteStore;
  /** Resident Task Card bindings. */
  taskCards: TaskCardStore;
  /** Feishu API calls per account, month and category. */
  apiCalls: ApiCallStore;
  /** The long connections' last known health, for `doctor`. */
  health: HealthStore;
  /** The journal's latest figures, for `doctor`. */
  journalFigures: JournalFiguresStore;
  /** Sends written down before their first chunk (crash recovery, repeats). */
  intents: IntentStore;
  /** Chats dissolved or left by the bot: writes there are refused before any request. */
  goneChats: GoneChatStore;
  searcher: Searcher;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/**
 * Opens `<workdir>/feishu/store.db`, creating and migrating it.
 */
export function openStore(workdir: string, clock: Clock): Store {
  const dir = stateDir(workdir);
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, "store.db");
  const db = openDatabase(path);
  const now = () => clock.now();
  const searcher = new Searcher(path, clock);
  return {
    path,
    db,
    records: new RecordStore(db, now),
    contacts: new ContactStore(db, now),
    identities: new IdentityStore(db, now),
    typing: new TypingStore(db, now),
    writes: new WriteStore(db, now),
    taskCards: new TaskCardStore(db, now),
    apiCalls: new ApiCallStore(db),
    health: new HealthStore(db, now),
    journalFigures: new JournalFiguresStore(db, now),
    intents: new IntentStore(db, now),
    goneChats: new GoneChatStore(db, now),
    searcher,
    transaction<T>(fn: () => T): T {
      return inTransaction(db, fn);
    },
    close() {
      searcher.close();
      db.close();
    },
  };
}
