/**
 * The resident Task Cards of one workdir: the agent's events log tailed once a
 * second and projected into a frame, the programmable slot composed under
 * it, and one card per route kept in step, paced per route. A message that
 * reaches the agent creates or refreshes its route's card; a change of the
 * events log, of the slot or of the preference refreshes every bound route.
 * Routes are independent: one that fails never holds up another. With
 * neither an events log nor an active slot there is nothing to show, so no card
 * is created (an MCP client that keeps no events log gets none).
 * @module
 */

import { join } from "node:path";
import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { ConversationLog, Recorded } from "../conversation/mod.ts";
import { PRIORITY } from "../outbound/mod.ts";
import { stopTyping } from "../presence/mod.ts";
import { routeKey, type Store, type TaskCardRoute } from "../store/mod.ts";
import { DoneWatch, type Request } from "./done.ts";
import { readAt, withFile } from "./_file.ts";
import { feishuTransport, LatestMessages } from "./feishu.ts";
import { createEventsLogTailer } from "./events_log.ts";
import { type AgentProfile, cardLook, renderFrame, sameLook } from "./look.ts";
import { RoutePacer } from "./pace.ts";
import { readProgrammableSlot } from "./programmable.ts";
import { deliverResident, type ResidentOutcome } from "./resident.ts";
import { redactText } from "../core/mod.ts";

/** The presentation preference (`/taskcard on|off|N`). */
export interface TaskCardPreference {
  enabled: boolean;
  normalRows: number;
}

/** Options of {@link createTaskCards}. */
export interface TaskCardsOptions {
  workdir: string;
  store: Store;
  /** Where sent cards are recorded. */
  conversation: ConversationLog;
  accounts: readonly Account[];
  clock: Clock;
  log: Logger;
  /** Reads the preference (called once per poll; a failure keeps the last one). */
  preference(): Promise<TaskCardPreference>;
  /** The agent's language, name and time zone (read once per poll; a failure counts as unknown). */
  profile?(): Promise<AgentProfile>;
  /** The server's redactor (card style, every configured secret registered). */
  redact?: (text: string) => string;
  /** How often the events log, slot and preference are read (default 1000 ms). */
  pollMs?: number;
  /**
   * Least time between two writes of one route's card (default 1000 ms); a
   * function is asked after every write, so the pace can change while the
   * server runs (slower near the API quota).
   */
  gapMs?: number | (() => number);
  /** Events log quiet time that ends a task when the agent publishes no state (default 10 s). */
  quietMs?: number;
}

/** What status shows of the Task Cards. */
export interface TaskCardStatus {
  enabled: boolean;
  normal_rows: number;
  /** The agent's events log (`logs/events.jsonl`): present, and rounds projected. */
  journal: { present: boolean; rounds: number };
  programmable: "active" | "none";
  routes: number;
  /** Routes whose binding does not read back: no card is sent there. */
  blocked: { route: string; reason: string }[];
  writes: { edited: number; sent: number; rotated: number; failed: number };
  done_reactions: number;
  pending_tasks: number;
  last_error: { route: string; error: string; at: string } | null;
}

/** The running Task Cards. */
export interface TaskCards {
  /** Reads everything once, refreshes every bound card, then polls. */
  start(): Promise<void>;
  /**
   * The conversation log's listener: a message that woke the agent creates
   * or brings below it its route's card; any other message landing in a
   * route (the agent's, a command's answer) brings a bound card below it.
   */
  onRecorded(recorded: Recorded): void;
  status(): TaskCardStatus;
  /** Resolves when no card write waits (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A message as the Task Cards see it. */
export interface RouteMessage {
  chatId: string;
  threadId: string | null;
  messageId: string;
}

const STATE_BYTES = 64 << 10;

/** The agent's runtime state from `.status.json`, or null. */
async function agentState(workdir: string): Promise<string | null> {
  const read = await withFile(join(workdir, ".status.json"), async (file) => {
    const bytes = await readAt(file, 0, STATE_BYTES);
    const data = JSON.parse(new TextDecoder().decode(bytes));
    const state = data?.runtime?.state ?? data?.state;
    return typeof state === "string" ? state : null;
  }).catch(() => null);
  return read ?? null;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then((s) => s.isFile, () => false);
}

/** Builds the Task Cards of a workdir. */
export function createTaskCards(options: TaskCardsOptions): TaskCards {
  const { store, clock, log } = options;
  const redact = options.redact ?? redactText;
  const accounts = new Map(options.accounts.map((a) => [a.alias, a]));
  const eventsLogPath = join(options.workdir, "logs", "events.jsonl");
  const tailer = createEventsLogTailer({ path: eventsLogPath, redact });
  let look = cardLook(null, redact);
  const latest = new LatestMessages();
  const transport = feishuTransport({
    accounts,
    store,
    latest,
    conversation: options.conversation,
    now: () => clock.now(),
    log,
    title: () => look.title,
  });
  const done = new DoneWatch(options.quietMs ?? 10_000);
  const known = new Map<string, TaskCardRoute>();
  const stop = new AbortController();
  let pref: TaskCardPreference = { enabled: true, normalRows: 1 };
  let programmable: string | null = null;
  let eventsLogPresent = false;
  let loop: Promise<void> | null = null;
  const writes = { edited: 0, sent: 0, rotated: 0, failed: 0 };
  let doneReactions = 0;
  let lastError: TaskCardStatus["last_error"] = null;

  const frame = () =>
    renderFrame(tailer.snapshot(), pref.normalRows, programmable, look, clock.now());
  const readLook = async () =>
    cardLook(await options.profile?.().catch(() => null) ?? null, redact);

  const tally = (key: string, out: ResidentOutcome | null) => {
    if (!out) return;
    if (out.status === "ok") {
      if (out.action === "edited" || out.action === "adopted") writes.edited++;
      else if (out.action === "rotated") writes.rotated++;
      else writes.sent++;
      return;
    }
    writes.failed++;
    lastError = {
      route: key,
      error: out.error ?? "unknown",
      at: new Date(clock.now()).toISOString(),
    };
    log.warn("task card not delivered", { route: key, error: out.error, ...flags(out) });
  };

  const pacer = new RoutePacer({
    clock,
    gapMs: options.gapMs,
    onError: (key, err) => log.warn("task card delivery threw", { route: key, error: String(err) }),
    async run(key, create) {
      const route = known.get(key);
      if (!route || !pref.enabled) return "ok";
      const mayCreate = create && (eventsLogPresent || programmable !== null);
      const out = await deliverResident(transport, route, frame(), mayCreate);
      tally(key, out);
      // A binding that does not read back will not heal by retrying.
      return out?.status === "error" && !out.blocked ? "failed" : "ok";
    },
  });

  const broadcast = () => {
    for (const b of store.taskCards.routes()) {
      if (b.invalid || !accounts.has(b.route.account)) continue;
      known.set(b.key, b.route);
      pacer.request(b.key);
    }
  };

  const finish = async (r: Request) => {
    const account = accounts.get(r.account);
    if (!account) return;
    try {
      await account.outbox.react({
        chatId: r.chatId,
        messageId: r.messageId,
        emojiType: "DONE",
        priority: PRIORITY.presence,
        once: `done:${r.messageId}`,
      });
      doneReactions++;
    } catch (err) {
      log.debug("done reaction failed", { message: r.messageId, error: String(err) });
    }
    // The agent finished without answering in the chat: its Typing has to go too.
    await stopTyping({ account, typing: store.typing, log }, r.chatId);
  };

  const readPreference = async () => {
    try {
      return await options.preference();
    } catch (err) {
      log.warn("task card preference unreadable; keeping the last one", { error: String(err) });
      return pref;
    }
  };

  const tick = async () => {
    const next = await readPreference();
    const turnedOn = next.enabled && !pref.enabled;
    const rowsChanged = next.normalRows !== pref.normalRows;
    pref = next;
    const nextLook = await readLook();
    const lookChanged = !sameLook(look, nextLook);
    look = nextLook;
    eventsLogPresent = await exists(eventsLogPath);
    const moved = await tailer.pollOnce();
    const slot = await readProgrammableSlot(options.workdir);
    let slotChanged = false;
    if (slot.state === "active" && slot.body !== programmable) {
      programmable = slot.body;
      slotChanged = true;
    } else if (slot.state === "inactive" && programmable !== null) {
      // Cleared even while hidden, so a stale frame cannot come back when shown again.
      programmable = null;
      slotChanged = true;
    }
    const now = clock.now();
    if (moved) done.activity(now);
    done.state(await agentState(options.workdir), now);
    if (!pref.enabled) return;
    if (moved || slotChanged || turnedOn || rowsChanged || lookChanged) broadcast();
    for (const r of done.finished(now)) await finish(r);
  };

  const run = async () => {
    while (!stop.signal.aborted) {
      try {
        await clock.sleep(options.pollMs ?? 1000, stop.signal);
      } catch {
        return;
      }
      try {
        await tick();
      } catch (err) {
        log.warn("task card poll failed", { error: String(err) });
      }
    }
  };

  const routeOf = (account: string, m: RouteMessage): TaskCardRoute => ({
    account,
    chatId: m.chatId,
    threadId: m.threadId || null,
  });

  /** A message reached the agent: its route's card is created or brought below it. */
  function requested(account: string, m: RouteMessage): void {
    const route = routeOf(account, m);
    const key = routeKey(route);
    latest.note(route, m.messageId);
    known.set(key, route);
    if (!pref.enabled) return;
    done.request(key, { account, chatId: m.chatId, messageId: m.messageId }, clock.now());
    pacer.request(key, true);
  }

  /** A message (the agent's, a command's answer) landed in a route. */
  function observe(account: string, m: RouteMessage): void {
    const route = routeOf(account, m);
    const key = routeKey(route);
    latest.note(route, m.messageId);
    // A bound card now sits above this message: bring it back below.
    if (pref.enabled && store.taskCards.get(route).state === "bound") {
      known.set(key, route);
      pacer.request(key);
    }
  }

  return {
    async start() {
      pref = await readPreference();
      look = await readLook();
      await tailer.start();
      eventsLogPresent = await exists(eventsLogPath);
      const slot = await readProgrammableSlot(options.workdir);
      if (slot.state === "active") programmable = slot.body;
      if (pref.enabled) broadcast();
      loop ??= run();
    },
    onRecorded(r) {
      // The cards' own records, passive events and clicks move no card.
      if (r.messageId === null || r.kind === "event" || r.kind === "card_action") return;
      if (r.kind === "sent" && r.record.task_card) return;
      const m = { chatId: r.route.chatId, threadId: r.route.threadId, messageId: r.messageId };
      if (r.kind === "message" && r.woke) requested(r.route.account, m);
      else observe(r.route.account, m);
    },
    status() {
      const bindings = store.taskCards.routes();
      return {
        enabled: pref.enabled,
        normal_rows: pref.normalRows,
        journal: { present: eventsLogPresent, rounds: tailer.snapshot().groups.length },
        programmable: programmable === null ? "none" : "active",
        routes: bindings.length,
        blocked: bindings.filter((b) => b.invalid).map((b) => ({
          route: b.key,
          reason: b.invalid!,
        })),
        writes: { ...writes },
        done_reactions: doneReactions,
        pending_tasks: done.size,
        last_error: lastError,
      };
    },
    idle: () => pacer.idle(),
    async close() {
      stop.abort();
      pacer.close();
      await loop;
    },
  };
}

function flags(out: ResidentOutcome): Record<string, boolean> {
  const f: Record<string, boolean> = {};
  for (
    const k of [
      "blocked",
      "stale_delete_failed",
      "old_resident_deleted",
      "indeterminate_send",
      "resident_persist_failed",
    ] as const
  ) if (out[k]) f[k] = true;
  return f;
}
