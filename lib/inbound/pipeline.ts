/**
 * The per-chat worker's job handler: one journaled event, in chat order,
 * through the stages admission → local commands → presence (OK / Typing,
 * asked for, never awaited) → normalisation → attachments → transcription →
 * record (SQLite) → notification (unless the loop guard holds another bot's message: recorded,
 * no reactions, no wake); a recall (recall.ts) in its message's chat, a chat gone or back
 * (chats_gone.ts). Every stage is idempotent, so a replay after a crash is safe.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import { type Job, PermanentFailure, RetryLater } from "../journal/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import { markSeen, startTyping } from "../presence/mod.ts";
import type { Store } from "../store/mod.ts";
import {
  admitMessage,
  admitPassiveEvent,
  enteredPairing,
  type RejectReason,
  shouldReact,
} from "./admission.ts";
import { admitted, policyOf } from "./account_policy.ts";
import { attachmentsDir, downloadAttachments } from "./attachments/mod.ts";
import { BotWakeGuards, type BotWakesHeldContext } from "./bot_guard.ts";
import { describe, isDeterministicFailure } from "./failure.ts";
import { applyChatFate } from "./chats_gone.ts";
import { buildEventRecord } from "./events.ts";
import { handleRecall } from "./recall.ts";
import {
  expandForwardedHistory,
  fillReplyParent,
  ParentCache,
  type RelatedContext,
} from "./related/mod.ts";
import {
  CARD_EVENT_TYPES,
  fromJournal,
  type IntakePayload,
  PASSIVE_EVENT_TYPES,
  RECALL_EVENT_TYPE,
} from "./intake.ts";
import {
  type NormalisedMessage,
  normaliseMessage,
  normaliseUnreadable,
  readMessage,
} from "./normalise/mod.ts";
import { type Transcriber, transcribeRecord } from "./voice.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

/**
 * The seams later capabilities plug into. Each gets the account, so what it
 * sends goes through that app's outbox, paced with everything else.
 */
export interface InboundSeams {
  /**
   * Local slash commands: runs before any record, reaction or wake. Returns
   * true when the message was a command and has been answered (nothing else
   * happens to it then).
   */
  interceptCommand?(ctx: CommandContext): Promise<boolean>;
  /**
   * The synchronous answer to a card callback frame (empty, a toast, a card),
   * computed right after the intake commit; its value becomes the frame's ACK.
   */
  answerCard?(ctx: { account: Account; envelope: RawEnvelope }): unknown | Promise<unknown>;
  /** A card callback, in chat order, after the intake commit. */
  handleCard?(ctx: { account: Account; envelope: RawEnvelope }): Promise<void>;
  /**
   * A DM refused with `pairing_required` (`access.dm: "pairing"`): the
   * message is not stored and wakes nobody; this seam may answer it with a
   * pairing code. Runs in the chat's order; must be idempotent.
   */
  pairingRequest?(ctx: PairingContext): Promise<void>;
  /** The loop guard began holding bot messages in a chat (once per episode); must not throw. */
  botWakesHeld?(ctx: BotWakesHeldContext): Promise<void>;
}

/** A DM from someone who is not admitted, under `access.dm: "pairing"`. */
export interface PairingContext {
  account: Account;
  openId: string;
  chatId: string;
  /** The Feishu message id (the reply target; once-only keys derive from it). */
  messageId: string;
  /** Feishu's create time of the message (ms); the processing time when absent. */
  atMs: number;
  /** Opened the DM (`p2p_entered`), no message: `messageId` is the event id; answer in the chat. */
  entered?: boolean;
}

/** What the command seam sees of one admitted message. */
export interface CommandContext {
  account: Account;
  record: IncomingMessageRecord;
  /** The Feishu event id, for idempotent answers (a uuid derived from it). */
  eventId: string | null;
}

/** Counters per account for the status resource. */
export interface PipelineCounters {
  admitted: number;
  /** Group messages held back (and retried) because the bot's identity is unknown. */
  deferred: number;
  events: number;
  rejected: Partial<Record<RejectReason, number>>;
  commands: number;
  failed: number;
  /** Other bots' messages recorded without waking the agent (the loop guard). */
  bots_held: number;
}

/** What the pipeline needs. */
export interface PipelineDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  workdir: string;
  accounts: ReadonlyMap<string, Account>;
  transcriber: Transcriber;
  /** Where records are written and the agent is woken. */
  conversation: ConversationLog;
  /** Byte cap of one inbound attachment (default: 100 MiB). */
  inboundDownloadBytes?: number;
  /** `privacy.keep_recalled`: a recalled message keeps its text and files (default false). */
  keepRecalled?: boolean;
  seams?: InboundSeams;
}

/** The handler plus its counters. */
export interface Pipeline {
  handle(job: Job): Promise<void>;
  counters(alias: string): PipelineCounters;
}

/** How soon a held group message checks again for the bot identity (the lookup itself is throttled to one per 30 s). */
export const IDENTITY_RETRY_MS = 2_000;

/** Builds the pipeline. */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const counters = new Map<string, Omit<PipelineCounters, "bots_held">>();
  const count = (alias: string) => {
    let c = counters.get(alias);
    if (!c) {
      counters.set(
        alias,
        c = { admitted: 0, deferred: 0, events: 0, rejected: {}, commands: 0, failed: 0 },
      );
    }
    return c;
  };

  const seams = deps.seams ?? {};
  const guards = new BotWakeGuards(() => deps.clock.now());
  const parents = new Map<string, ParentCache>();
  const parentsOf = (alias: string) => {
    let cache = parents.get(alias);
    if (!cache) parents.set(alias, cache = new ParentCache());
    return cache;
  };

  async function handle(job: Job): Promise<void> {
    const account = deps.accounts.get(job.account);
    if (!account) {
      deps.log.warn("journal entry for an unknown account dropped", { account: job.account });
      return;
    }
    const payload = fromJournal(job.payload);
    if (!payload) {
      deps.log.warn("journal entry of an unknown shape dropped", { account: job.account });
      return;
    }
    const envelope = payload.envelope;
    const type = String(envelope.header?.event_type ?? "");
    if (type === "im.message.receive_v1") return await onMessage(account, payload, job.signal);
    // A recall of a message we stored is recorded whoever did it (Feishu names no one).
    if (type === RECALL_EVENT_TYPE) {
      return onPassive(account, envelope, await handleRecall(deps, account, envelope));
    }
    if (PASSIVE_EVENT_TYPES.has(type)) {
      onPassive(account, envelope);
      const ask = enteredPairing(envelope, policyOf(account), deps.clock.now());
      if (ask) await seams.pairingRequest?.({ account, ...ask });
      return;
    }
    if (CARD_EVENT_TYPES.has(type)) {
      if (seams.handleCard) return await seams.handleCard({ account, envelope });
      deps.log.info("card callback received but card callbacks are not handled in this build", {
        account: account.alias,
      });
      return;
    }
  }

  async function onMessage(account: Account, payload: IntakePayload, signal: AbortSignal) {
    const { envelope } = payload;
    const c = count(account.alias);
    const fields = readMessage(envelope);
    if (fields && fields.chatType !== "p2p" && account.identity.botOpenId() === null) {
      // Without our own open_id a group @-mention cannot be recognised. Rather than
      // reject (and lose) the message, postpone the job: the journal keeps it at the
      // head of its chat and tries again later, without spending an attempt.
      if (!(await account.identity.ensure())) {
        c.deferred++;
        throw new RetryLater(
          "the bot's identity is unknown; the group message waits for it",
          IDENTITY_RETRY_MS,
        );
      }
    }
    const verdict = admitMessage(envelope, policyOf(account));
    if (!admitted(c, verdict)) {
      if (!verdict.admit && verdict.reason === "pairing_required" && fields) {
        const created = Number(fields.createTime);
        await seams.pairingRequest?.({
          account,
          openId: fields.senderOpenId,
          chatId: fields.chatId,
          messageId: fields.messageId,
          atMs: Number.isFinite(created) && created > 0 ? created : deps.clock.now(),
        });
      }
      return;
    }
    const ctx = {
      alias: account.alias,
      botOpenId: account.identity.botOpenId(),
      nowMs: deps.clock.now(),
      contactName: (id: string) => account.names.known(id),
    };
    let norm: NormalisedMessage | undefined;
    try {
      norm = normaliseMessage(envelope, ctx);
      if (!norm) {
        c.rejected.malformed = (c.rejected.malformed ?? 0) + 1;
        return;
      }
      return await accept(account, payload, norm, signal);
    } catch (err) {
      if (!isDeterministicFailure(err)) throw err;
      // The same failure would come back on every attempt, holding the chat's
      // next messages behind it: record the message now, with a placeholder.
      const unreadable = normaliseUnreadable(envelope, ctx, describe(err));
      if (!unreadable) throw err;
      deps.log.warn("inbound message could not be read; recorded with a placeholder", {
        account: account.alias,
        id: unreadable.record.id,
        error: unreadable.record.error,
      });
      return await accept(account, payload, unreadable, signal);
    }
  }

  /** From an admitted, normalised message to its record and the agent's wake. */
  async function accept(
    account: Account,
    payload: IntakePayload,
    norm: NormalisedMessage,
    signal: AbortSignal,
  ): Promise<void> {
    const { envelope } = payload;
    const c = count(account.alias);
    const record = norm.record;
    if (deps.store.records.get(account.alias, record.id)) {
      // A replay after a crash: the record is there; make sure the wake went out.
      await deps.conversation.recordAndWake(account, { kind: "message", record });
      return;
    }
    const eventId = typeof envelope.header?.event_id === "string" ? envelope.header.event_id : null;
    // Local commands (and typed permission answers) are for people, never for another bot.
    const commands = record.sender_is_bot ? undefined : seams.interceptCommand;
    if (commands && await commands.call(seams, { account, record, eventId })) {
      c.commands++;
      return;
    }
    const guarded = guards.check(account, record);
    const presence = {
      account,
      typing: deps.store.typing,
      log: deps.log,
      saving: () => account.saving(),
    };
    const target = { chatId: record.chat_id, messageId: record.feishu_message_id };
    // The OK and the Typing wait their turn in the chat's outbox lane; the message waits
    // for neither (the OK's ledger entry is written now, so a restart finishes it).
    if (!guarded.hold) void markSeen(presence, target);
    const plan = shouldReact(envelope);
    if (plan.typing && !guarded.hold) {
      startTyping(presence, {
        ...target,
        receiveId: plan.target.receive_id,
        receiveIdType: plan.target.receive_id_type,
      });
    }
    if (record.from_open_id && !record.from_name && !record.sender_is_bot) {
      record.from_name = await account.names.resolve(record.from_open_id);
    }
    const related: RelatedContext = {
      alias: account.alias,
      appId: account.appId,
      api: account.api,
      botOpenId: account.identity.botOpenId(),
      resolveName: (id) => account.names.resolve(id),
      findRecord: (id) => deps.store.records.findByMessageId(account.alias, id),
      parents: parentsOf(account.alias),
      log: deps.log,
      nowMs: deps.clock.now(),
      signal,
    };
    const descriptors = [...norm.descriptors, ...await expandForwardedHistory(record, related)];
    await fillReplyParent(record, related);
    if (descriptors.length) {
      const dir = attachmentsDir(deps.workdir, account.alias, record.feishu_message_id);
      const got = await downloadAttachments(descriptors, {
        messageId: record.feishu_message_id,
        dir,
        downloadTo: (mid, key, type, to) =>
          account.api.downloadResourceTo(mid, key, type, { ...to, signal }),
        maxBytes: deps.inboundDownloadBytes,
        signal,
      });
      record.attachments = got.attachments;
      record.media = got.media;
      if (record.message_type === "audio") {
        await transcribeRecord(record, { transcriber: deps.transcriber, workDir: dir, signal });
      }
    }
    await deps.conversation.recordAndWake(
      account,
      { kind: "message", record },
      { eventId },
      guarded,
    );
    c.admitted++;
    if (guarded.notice) await seams.botWakesHeld?.(guarded.notice);
    deps.log.info("feishu_received", {
      account: account.alias,
      id: record.id,
      type: record.message_type,
    });
  }

  function onPassive(account: Account, envelope: RawEnvelope, vouched = false): void {
    applyChatFate(deps, account, envelope); // whoever did it; admission only decides the record
    const c = count(account.alias);
    if (!vouched && !admitted(c, admitPassiveEvent(envelope, policyOf(account)))) return;
    const rec = buildEventRecord(envelope, {
      alias: account.alias,
      nowMs: deps.clock.now(),
      contactName: (id) => account.names.known(id),
      messageChat: (id) => deps.store.records.chatOfFeishuMessage(account.alias, id),
    });
    if (!rec) return;
    if (deps.conversation.record(account.alias, { kind: "event", record: rec })) c.events++;
  }

  return {
    handle: async (job) => {
      try {
        await handle(job);
      } catch (err) {
        if (err instanceof RetryLater) throw err;
        count(job.account).failed++;
        // Logged here too: a job cut short at shutdown is not logged by the journal.
        const what = err instanceof PermanentFailure
          ? "inbound job can never succeed; the journal dead-letters it"
          : "inbound job failed; the journal will retry it";
        deps.log.warn(what, {
          account: job.account,
          chat: job.chatKey,
          attempt: job.attempt,
          error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        });
        throw err;
      }
    },
    counters: (alias) => ({
      ...count(alias),
      rejected: { ...count(alias).rejected },
      bots_held: guards.held(alias),
    }),
  };
}
