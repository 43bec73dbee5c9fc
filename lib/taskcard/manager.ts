/**
 * The resident Task Cards of one workdir: the agent's events log tailed once a
 * second, one card per route kept in step, paced per route. In the default
 * `conversation` scope each row is attributed to the conversation it was
 * written for (attribute.ts) and a route's card shows only its own rows
 * (frames.ts); in the `agent` scope every card shows the whole events log.
 * A message that reaches the agent creates its route's card; a change
 * touches only the routes it concerns that were active lately, a frame equal
 * to the last one written is not written again, and a card moves below newer
 * messages at most once per turn (budget.ts). Bindings of routes idle past
 * retention are dropped. `/taskcard off` deletes the cards; `on` brings
 * back those of the routes active lately, a few per poll. Routes are
 * independent: one that fails never holds up another. With neither an events
 * log nor an active slot there is nothing to show, so no card is created.
 * @module
 */

import { join } from "node:path";
import type { Recorded } from "../conversation/mod.ts";
import { RecalledTexts } from "./recalled.ts";
import { routeKey, type TaskCardRoute } from "../store/mod.ts";
import { agentState, isFile } from "./agent_state.ts";
import { Attributor, working } from "./attribute.ts";
import { WriteBudget } from "./budget.ts";
import type { TaskCardPreference, TaskCards, TaskCardsOptions } from "./contract.ts";
import { DoneWatch, type Finished } from "./done.ts";
import { feishuTransport, LatestMessages, reactDone } from "./feishu.ts";
import { createEventsLogTailer } from "./events_log.ts";
import { RouteFrames } from "./frames.ts";
import { RoutePacer } from "./pace.ts";
import { readProgrammableSlot, slotAfter } from "./programmable.ts";
import type { EventsLogLine } from "./project.ts";
import { deliverResident } from "./resident.ts";
import { WriteTally } from "./tally.ts";
import { cardLook, renderFrame, sameLook } from "./look.ts";
import { redactText } from "../core/mod.ts";

const HOUR = 3_600_000;
/** Cards brought back per poll after `/taskcard on`. */
const RESTORE_PER_POLL = 5;
/** Least time between writes of a card whose only change is its count of steps elsewhere. */
const NEUTRAL_GAP_MS = 10_000;
/** The time a frame is rendered at to compare it with the last one written. */
const FIXED_TIME = 0;

/** Builds the Task Cards of a workdir. */
export function createTaskCards(options: TaskCardsOptions): TaskCards {
  const { store, clock, log } = options;
  const redact = options.redact ?? redactText;
  const scope = options.scope ?? "conversation";
  const own = scope === "conversation";
  const accounts = new Map(options.accounts.map((a) => [a.alias, a]));
  const eventsLogPath = join(options.workdir, "logs", "events.jsonl");
  let appended: EventsLogLine[] = [];
  const tailer = createEventsLogTailer({
    path: eventsLogPath,
    redact,
    onLines: (lines) => void (appended = appended.concat(lines)),
  });
  let look = cardLook(null, redact);
  const latest = new LatestMessages();
  const activeMs = options.activeMs ?? 24 * HOUR;
  const budget = new WriteBudget({ activeMs, retentionMs: options.retentionMs ?? 168 * HOUR });
  const transport = feishuTransport({
    accounts,
    store,
    latest,
    conversation: options.conversation,
    now: () => clock.now(),
    log,
    dropped: (route) => budget.droppedCard(routeKey(route)),
    title: () => look.title,
  });
  const done = new DoneWatch(options.quietMs ?? 10_000);
  const attributor = new Attributor();
  const frames = new RouteFrames(redact);
  const known = new Map<string, TaskCardRoute>();
  const stop = new AbortController();
  let pref: TaskCardPreference = { enabled: true, normalRows: 1 };
  let programmable: string | null = null;
  let eventsLogPresent = false;
  let loop: Promise<void> | null = null;
  let restoring: string[] = [];
  /** Routes whose card is behind only on its count of steps elsewhere. */
  const lagging = new Set<string>();
  const tally = new WriteTally(log, () => clock.now());
  let pruned = 0;
  let doneReactions = 0;

  const recalled = new RecalledTexts();
  const frameAt = (key: string, nowMs: number) => {
    const frame = own
      ? frames.render(key, pref.normalRows, look, nowMs)
      : renderFrame(tailer.snapshot(), pref.normalRows, programmable, look, nowMs);
    return recalled.hide(known.get(key), frame);
  };
  const readLook = async () =>
    cardLook(await options.profile?.().catch(() => null) ?? null, redact);

  /** Hidden cards go: the card is deleted and its binding dropped. */
  const remove = async (key: string, route: TaskCardRoute) => {
    const bound = store.taskCards.get(route);
    if (bound.state !== "bound") return "ok";
    const out = await transport.delete(route, bound.residentId);
    if (out.kind === "failed") {
      tally.failed(key, out.error);
      return "failed";
    }
    store.taskCards.delete(route);
    budget.dropped(key, bound.residentId);
    tally.writes.deleted++;
    return "ok";
  };

  const pacer = new RoutePacer({
    clock,
    gapMs: options.gapMs,
    onError: (key, err) => log.warn("task card delivery threw", { route: key, error: String(err) }),
    async run(key, create) {
      const route = known.get(key);
      if (!route) return "ok";
      if (!pref.enabled) return await remove(key, route);
      const rotate = budget.rotateDue(key);
      // The title is part of what a card shows: a renamed agent's cards are rewritten.
      const still = `${look.title}\n${frameAt(key, FIXED_TIME)}`;
      if (!rotate && store.taskCards.get(route).state === "bound" && budget.unchanged(key, still)) {
        tally.writes.unchanged++;
        return "ok";
      }
      const mayCreate = create && (eventsLogPresent || programmable !== null);
      const text = frameAt(key, clock.now());
      const out = await deliverResident(transport, route, text, mayCreate, rotate);
      if (out?.status === "ok") {
        budget.written(key, still, clock.now());
        if (out.action === "rotated" || rotate) budget.rotated(key, out.action === "rotated");
      }
      tally.outcome(key, out);
      // A binding that does not read back will not heal by retrying.
      return out?.status === "error" && !out.blocked ? "failed" : "ok";
    },
  });

  /** Every bound route (valid, of a configured account) becomes known. */
  const loadBindings = () => {
    for (const b of store.taskCards.routes()) {
      if (b.invalid || !accounts.has(b.route.account)) continue;
      learn(b.key, b.route);
      budget.seen(b.key, b.activeAt);
    }
  };

  const learn = (key: string, route: TaskCardRoute) => {
    known.set(key, route);
    attributor.addRoute({ key, ...route });
  };

  const forget = (key: string) => {
    const route = known.get(key);
    if (route) latest.forget(route);
    known.delete(key);
    attributor.removeRoute(key);
    pacer.forget(key);
    done.forget(key);
    frames.forget(key);
    budget.forget(key);
    lagging.delete(key);
  };

  const finish = async (r: Finished) => {
    // The turn ends before anything is awaited: a wake meanwhile opens the next one.
    const route = known.get(r.route);
    if (route) {
      const changed = frames.close(r.route);
      const bound = store.taskCards.get(route);
      const superseded = bound.state === "bound" && transport.superseded(route, bound.residentId);
      budget.end(r.route, superseded);
      if (changed || superseded) pacer.request(r.route);
    }
    const account = accounts.get(r.account);
    if (account && r.react !== false && await reactDone(account, store, log, r)) doneReactions++;
  };

  const readPreference = () =>
    options.preference().catch((err) => {
      log.warn("task card preference unreadable; keeping the last one", { error: String(err) });
      return pref;
    });

  /** Reads the slot; true when what it asks for changed. */
  const readSlot = async () => {
    const next = slotAfter(await readProgrammableSlot(options.workdir), programmable);
    const changed = next !== programmable;
    programmable = next;
    return changed;
  };

  /** Drops what expired: idle bindings, and turns open longer than the active window. */
  const expire = (now: number) => {
    let gone: { key: string; residentId: string }[] = [];
    try {
      gone = store.taskCards.prune(budget.retainedSince(now));
    } catch (err) {
      log.warn("task card bindings not pruned", { error: String(err) });
    }
    pruned += gone.length;
    for (const g of gone) budget.dropped(g.key, g.residentId);
    for (const key of new Set([...gone.map((g) => g.key), ...budget.expired(now)])) forget(key);
    for (const [key, since] of frames.turns()) {
      if (now - since <= activeMs) continue;
      done.forget(key);
      frames.close(key);
      budget.end(key, false);
    }
  };

  /** The routes a poll's changes concern. */
  const concerned = (lines: EventsLogLine[], moved: boolean, slotChanged: boolean, now: number) => {
    const touched = new Set<string>();
    if (!own) {
      if (moved || slotChanged) { for (const key of known.keys()) touched.add(key); }
      return touched;
    }
    const changes = frames.take(lines, attributor, now);
    for (const key of changes.own) touched.add(key);
    for (const key of changes.counted) lagging.add(key);
    if (slotChanged && programmable === null) {
      for (const key of frames.clearSlots()) touched.add(key);
    } else if (slotChanged) {
      // Like an untargeted row: shown only where the agent works for one route alone.
      const busy = working(frames.turns(), now);
      if (busy.length === 1 && frames.setSlot(busy[0]!, programmable!)) touched.add(busy[0]!);
    }
    return touched;
  };

  const tick = async () => {
    const next = await readPreference();
    const turnedOn = next.enabled && !pref.enabled;
    const turnedOff = !next.enabled && pref.enabled;
    const rowsChanged = next.normalRows !== pref.normalRows;
    pref = next;
    const nextLook = await readLook();
    const lookChanged = !sameLook(look, nextLook);
    look = nextLook;
    eventsLogPresent = await isFile(eventsLogPath);
    appended = [];
    const moved = await tailer.pollOnce();
    const lines = appended;
    appended = [];
    const slotChanged = await readSlot();
    const now = clock.now();
    if (moved) done.activity(now);
    done.state(await agentState(options.workdir), now);
    expire(now);
    if (turnedOff) hideAll();
    if (!pref.enabled) return;
    const touched = concerned(lines, moved, slotChanged, now);
    if (rowsChanged || lookChanged) { for (const key of known.keys()) touched.add(key); }
    if (turnedOn) restoring = budget.activeRoutes(now).filter((key) => known.has(key));
    for (const key of touched) lagging.delete(key);
    // Only the neutral count moved: refreshed at a slower pace.
    for (const key of lagging) {
      if (now - budget.writtenAt(key) < NEUTRAL_GAP_MS) continue;
      lagging.delete(key);
      touched.add(key);
    }
    for (const key of touched) if (budget.isActive(key, now)) pacer.request(key);
    for (const key of restoring.splice(0, RESTORE_PER_POLL)) pacer.request(key, true);
    for (const r of done.finished(now)) await finish(r);
  };

  /** Every card goes (`/taskcard off`). */
  const hideAll = () => {
    restoring = [];
    loadBindings();
    for (const b of store.taskCards.routes()) if (known.has(b.key)) pacer.request(b.key);
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

  /** The route was active now: in memory and on its binding. */
  const active = (key: string, route: TaskCardRoute, now: number) => {
    budget.seen(key, now);
    try {
      store.taskCards.touch(route, now);
    } catch (err) {
      log.debug("task card activity not saved", { route: key, error: String(err) });
    }
  };

  /** A message (or a click) woke the agent: a turn opens; a message creates the card. */
  function requested(route: TaskCardRoute, messageId: string, r: Recorded): void {
    const key = routeKey(route);
    const now = clock.now();
    const click = r.kind === "card_action";
    const bound = store.taskCards.get(route);
    const seen = latest.get(route);
    const stale = bound.state === "bound" && seen !== null && seen !== bound.residentId;
    if (!click) latest.note(route, messageId);
    learn(key, route);
    if (r.kind === "message") {
      attributor.message(messageId, key);
      if (r.record.chat_type === "p2p") attributor.person(r.record.from_open_id, route.chatId);
    }
    active(key, route, now);
    if (!pref.enabled) return;
    if (!done.has(key)) {
      // The message's own time (whole seconds) when earlier: rows the agent wrote at once belong.
      const date = Date.parse(String(r.record.date ?? ""));
      frames.open(key, Number.isFinite(date) ? Math.min(now, date) : now);
      budget.begin(key, stale && !click);
      const { account, chatId } = route;
      if (click) done.request(key, { account, chatId, messageId, react: false }, now);
    }
    if (click) return;
    done.request(key, { account: route.account, chatId: route.chatId, messageId }, now);
    pacer.request(key, true);
  }

  /** A message (the agent's, a command's answer) landed in a route: its card is superseded. */
  function observe(route: TaskCardRoute, messageId: string): void {
    const key = routeKey(route);
    latest.note(route, messageId);
    attributor.message(messageId, key);
    if (known.has(key)) active(key, route, clock.now());
  }

  return {
    async start() {
      pref = await readPreference();
      look = await readLook();
      await tailer.start();
      eventsLogPresent = await isFile(eventsLogPath);
      const slot = await readProgrammableSlot(options.workdir);
      if (slot.state === "active") programmable = slot.body;
      loadBindings();
      expire(clock.now());
      if (!pref.enabled) hideAll();
      // Rows read at start belong to no conversation: only the agent-wide frame may be newer.
      else if (!own) {
        for (const key of budget.activeRoutes(clock.now())) if (known.has(key)) pacer.request(key);
      }
      loop ??= run();
    },
    onRecorded(r) {
      // The cards' own records and passive events move no card.
      if (r.messageId === null || r.kind === "event") return;
      if (r.kind === "sent" && r.record.task_card) return;
      const route = { ...r.route, threadId: r.route.threadId || null };
      if (r.woke) requested(route, r.messageId, r);
      else if (r.kind !== "card_action") observe(route, r.messageId);
    },
    onRecalled(r) {
      if (!recalled.add(r.account, r.chatId, r.text)) return;
      const same = [...known].filter(([, c]) => c.account === r.account && c.chatId === r.chatId);
      for (const [key] of same) pacer.request(key);
    },
    status() {
      const bindings = store.taskCards.routes();
      return {
        enabled: pref.enabled,
        normal_rows: pref.normalRows,
        scope,
        journal: { present: eventsLogPresent, rounds: tailer.snapshot().groups.length },
        programmable: programmable === null ? "none" : "active",
        routes: bindings.length,
        active_routes: budget.activeRoutes(clock.now()).length,
        working_routes: frames.turns().size,
        blocked: bindings.filter((b) => b.invalid).map((b) => ({
          route: b.key,
          reason: b.invalid!,
        })),
        writes: { ...tally.writes },
        pruned,
        done_reactions: doneReactions,
        pending_tasks: done.size,
        last_error: tally.lastError,
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
