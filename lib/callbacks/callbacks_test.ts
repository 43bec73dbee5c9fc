import assert from "node:assert/strict";
import type { Account } from "../account/mod.ts";
import { createLogger, ManualClock } from "../core/mod.ts";
import { type ConversationLog, createConversationLog } from "../conversation/mod.ts";
import { PermanentFailure } from "../journal/mod.ts";
import type { Notifier } from "../notify/mod.ts";
import { openStore, type Store } from "../store/mod.ts";
import { sentRecordOf } from "../store/testdata/records.ts";
import { createCardCallbacks, isDataFailure, TOO_MANY_CLICKS } from "./callbacks.ts";
import type { ControlHandler, VoteHandler } from "./callbacks.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

const T0 = Date.parse("2026-08-03T09:14:00Z");
const account = {
  alias: "main",
  allowedUsers: null,
  owners: [],
  access: { dm: "open", outbound: "any" },
  admits: () => false,
  names: { resolve: () => Promise.resolve(null), known: () => null },
} as unknown as Account;

let seq = 0;
/** A click envelope as Feishu sends it. */
function click(
  value: unknown,
  over: { user?: string; card?: string; chat?: string; atMs?: number } = {},
): RawEnvelope {
  return {
    schema: "2.0",
    header: {
      event_id: `ev_${++seq}`,
      event_type: "card.action.trigger",
      create_time: String(over.atMs ?? T0),
      token: "v-verification",
    },
    event: {
      operator: { open_id: over.user ?? "ou_alice" },
      token: "c-update-token",
      action: { tag: "button", value },
      context: { open_message_id: over.card ?? "om_card", open_chat_id: over.chat ?? "oc_1" },
    },
  };
}

/** Card callbacks over a real store and conversation log; wakes are counted. */
async function rig(
  options: { votes?: VoteHandler; conversation?: (real: ConversationLog) => ConversationLog } = {},
) {
  const workdir = await Deno.makeTempDir({ prefix: "callbacks-" });
  const clock = new ManualClock(T0);
  const log = createLogger({ sink: () => {} });
  const store: Store = openStore(workdir, clock);
  const wakes: string[] = [];
  const notifier: Notifier = {
    message: () => Promise.resolve(),
    cardAction: (_alias, record) => Promise.resolve(void wakes.push(record.id)),
    recalled: () => Promise.resolve(),
    counters: { licc: 0, channel: 0, failures: 0 },
  };
  const real = createConversationLog({ store, notifier, clock, log });
  const conversation = options.conversation?.(real) ?? real;
  const controls: string[] = [];
  const control: ControlHandler = {
    answer: ({ request }) => ({ toast: { type: "info", content: `control ${request.command}` } }),
    handle: ({ request }) => Promise.resolve(void controls.push(request.command)),
  };
  const callbacks = createCardCallbacks({
    store,
    conversation,
    clock,
    log,
    control,
    votes: options.votes,
  });
  /** The bot sends a card to a chat (a control card when `localCommand`). */
  const sent = (messageId: string, chatId: string, localCommand = false) =>
    real.record("main", {
      kind: "sent",
      record: sentRecordOf(
        `main:${chatId}:${messageId}`,
        localCommand ? { local_command: true } : {},
      ),
    });
  const both = async (envelope: RawEnvelope) => {
    const answer = await callbacks.answer({ account, envelope });
    await callbacks.handle({ account, envelope });
    return answer;
  };
  return {
    store,
    callbacks,
    wakes,
    controls,
    sent,
    both,
    clicks: (chatId = "oc_1") =>
      store.records.listChat("main", chatId, null).filter((r) => r.kind === "card_action")
        .reverse(),
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(workdir, { recursive: true });
    },
  };
}

const control = (command: string) => ({
  lingtai_control: { version: 1, command, argument: "confirm" },
});
const vote = { feishu_mcp_permission: { version: 1, request_id: "abcde", behavior: "allow" } };

Deno.test("a reserved value counts only on its own card; anywhere else it is a business click", async () => {
  const voted: string[] = [];
  const votes: VoteHandler = {
    approvalChat: (_a, id) => id === "om_approval" ? "oc_1" : null,
    click: (_a, cb) => void voted.push(cb.sourceMessageId!),
  };
  await using r = await rig({ votes });
  r.sent("om_card", "oc_1");
  r.sent("om_control", "oc_1", true);
  // The agent's own card carrying both kinds of reserved value: business clicks.
  assert.deepEqual(await r.both(click(control("clear"))), {
    toast: { type: "info", content: "Sent to the agent." },
  });
  await r.both(click(vote));
  assert.deepEqual(r.controls, []);
  assert.deepEqual(voted, []);
  assert.deepEqual(r.clicks().map((c) => c.record.card_action.action), [
    { tag: "button", value: control("clear") },
    { tag: "button", value: vote },
  ]);
  assert.equal(r.wakes.length, 2);
  // On their own cards they are a control click and a vote: no record, no wake.
  assert.deepEqual(await r.both(click(control("clear"), { card: "om_control" })), {
    toast: { type: "info", content: "control clear" },
  });
  await r.both(click(vote, { card: "om_approval" }));
  assert.deepEqual(r.controls, ["clear"]);
  assert.deepEqual(voted, ["om_approval"]);
  assert.equal(r.clicks().length, 2);
  assert.equal(r.wakes.length, 2);
  assert.deepEqual(
    [r.callbacks.counters("main").business, r.callbacks.counters("main").control],
    [2, 1],
  );
  // The approval card's vote from another chat than the card's is no vote, and files nowhere.
  assert.deepEqual(await r.both(click(vote, { card: "om_approval", chat: "oc_2" })), {
    toast: { type: "error", content: "This card belongs to another chat." },
  });
  assert.deepEqual(voted, ["om_approval"]);
  assert.deepEqual([r.clicks("oc_2").length, r.wakes.length], [0, 2]);
});

Deno.test("a click naming another chat than its card's is dropped, a control card's included", async () => {
  await using r = await rig();
  r.sent("om_card", "oc_1");
  r.sent("om_control", "oc_1", true);
  const misplaced = click({ a: 1 }, { chat: "oc_2" });
  assert.deepEqual(await r.both(misplaced), {
    toast: { type: "error", content: "This card belongs to another chat." },
  });
  await r.both(click(control("sleep"), { card: "om_control", chat: "oc_2" }));
  assert.deepEqual([r.clicks("oc_1").length, r.clicks("oc_2").length, r.wakes.length], [0, 0, 0]);
  assert.deepEqual(r.controls, []);
  assert.equal(r.callbacks.counters("main").misplaced, 2);
  // A card the store does not know files where the callback says.
  await r.both(click({ a: 2 }, { card: "om_unknown", chat: "oc_2" }));
  assert.equal(r.clicks("oc_2").length, 1);
});

Deno.test("one user's clicks wake the agent at most 10 times a minute; the rest are recorded without a wake", async () => {
  await using r = await rig();
  r.sent("om_card", "oc_1");
  const answers = [];
  for (let i = 0; i < 30; i++) answers.push(await r.both(click({ n: i })));
  assert.equal(r.clicks().length, 30);
  assert.equal(r.wakes.length, 10);
  assert.deepEqual(answers.slice(9, 11).map((a) => (a as { toast: unknown }).toast), [
    { type: "info", content: "Sent to the agent." },
    { type: "warning", content: TOO_MANY_CLICKS },
  ]);
  assert.equal(r.clicks().filter((c) => c.record.throttled === true).length, 20);
  assert.equal(r.callbacks.counters("main").throttled, 20);
  // Another user has a window of their own; a minute later the first has one again.
  await r.both(click({ n: "bob" }, { user: "ou_bob" }));
  await r.both(click({ n: "later" }, { atMs: T0 + 60_000 }));
  assert.equal(r.wakes.length, 12);
  // A throttled click delivered again (a replayed job) still wakes no one.
  const throttled = r.clicks().find((c) => c.record.throttled === true)!;
  const again = click({ n: 29 });
  (again.header as Record<string, unknown>).event_id = throttled.record.feishu_event_id;
  await r.callbacks.handle({ account, envelope: again });
  assert.equal(r.wakes.length, 12);
});

Deno.test("a click's record keeps no token and its text is the value", async () => {
  await using r = await rig();
  await r.both(click({ token: "the agent's own data" }));
  const [rec] = r.clicks();
  const json = JSON.stringify(rec!.record);
  assert.ok(!json.includes("v-verification") && !json.includes("c-update-token"), json);
  assert.deepEqual(Object.keys((rec!.record.feishu as { header: object }).header), [
    "event_id",
    "event_type",
    "create_time",
  ]);
  assert.equal(rec!.record.text, `[card action: button] {"token": "the agent's own data"}`);
});

Deno.test("a click whose handling fails on its data is recorded with a placeholder at once; a transient failure is left to the journal", async () => {
  let recordAttempts = 0;
  const failing = (mode: { data: boolean; always: boolean }) => (real: ConversationLog) => ({
    ...real,
    recordAndWake(a: Parameters<ConversationLog["recordAndWake"]>[0], entry, meta) {
      recordAttempts++;
      const value = JSON.stringify(entry.record);
      if (mode.always || value.includes("boom")) {
        return Promise.reject(mode.data ? new RangeError("Maximum call stack") : new Error("busy"));
      }
      return real.recordAndWake(a, entry, meta);
    },
  } as ConversationLog);
  {
    await using r = await rig({ conversation: failing({ data: true, always: false }) });
    await r.both(click({ boom: 1 }));
    const [rec] = r.clicks();
    assert.deepEqual(rec!.record.card_action.action, {
      tag: "unknown",
      value: {
        unreadable: true,
        note: "The click could not be handled (RangeError); what it sent was dropped.",
      },
    });
    assert.equal(recordAttempts, 2, "the click, then its placeholder, in one job");
    assert.equal(r.wakes.length, 1);
    assert.equal(r.callbacks.counters("main").unreadable, 1);
  }
  {
    await using r = await rig({ conversation: failing({ data: true, always: true }) });
    await assert.rejects(
      () => r.callbacks.handle({ account, envelope: click({ x: 1 }) }),
      PermanentFailure,
    );
  }
  {
    await using r = await rig({ conversation: failing({ data: false, always: true }) });
    await assert.rejects(
      () => r.callbacks.handle({ account, envelope: click({ x: 1 }) }),
      (err: Error) => err.message === "busy" && !(err instanceof PermanentFailure),
    );
  }
  assert.deepEqual(
    [new RangeError(), new TypeError(), new SyntaxError(), new Error()].map(isDataFailure),
    [true, true, true, false],
  );
});
