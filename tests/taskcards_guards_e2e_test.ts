/**
 * End to end, Task Card behaviours beside the main suite: `/taskcard on`
 * while the cards are already on keeps the bound card (no second card, the
 * next change edits it in place); a Task Card and the agent's progress card
 * live side by side in one turn, each edited in place, and only the Task
 * Card moves below the answer when the turn ends; a missing, blank or
 * invalid programmable slot (status or body) keeps the last delivered
 * programmable frame on the card, and only the exact `inactive` clears it.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator } from "../lib/emulator/mod.ts";
import { startEmulator } from "../lib/emulator/mod.ts";
import { until } from "./_inbound.ts";
import {
  agentDir,
  agentState,
  appendEvents,
  assertSent,
  cardEdits,
  cards,
  cardShowing,
  cardWrites,
  diary,
  frameOf,
  lastOf,
  type Rec,
  start,
  taskStatus,
} from "./_taskcards.ts";

/** Every interactive message the bot was asked to create (sends and replies). */
function cardCreates(emu: Emulator) {
  return emu.requests({ method: "POST", path: /^\/open-apis\/im\/v1\/messages(\/[^/]+\/reply)?$/ })
    .filter((r) => (r.body as Rec | undefined)?.msg_type === "interactive");
}

/** The Feishu message id of a bridge message id (`account:chat:om_…`). */
const feishuId = (ref: string) => ref.split(":").at(-1)!;

Deno.test("/taskcard on while already on keeps the bound card: no second card, the next row edits it in place", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "keep going" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");
    await appendEvents(workdir, diary("round one", "r1"));
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("round one"));
    const createsBefore = cardCreates(emu).length;

    const on = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/taskcard on" });
    const answer = await emu.waitFor(() =>
      emu.messages(D.aliceP2p).find((m) => m.parentId === on.messageId)
    );
    assert.match(answer.content, /Task Cards are visible/);
    const status = await taskStatus(bridge);
    assert.equal(status.enabled, true);

    // The next row: the same card, edited in place, and still the only one.
    const edits = cardEdits(emu, card.messageId).length;
    await appendEvents(workdir, diary("round two", "r2"));
    const after = await cardShowing(emu, D.aliceP2p, (f) => f.includes("round two"));
    assert.equal(after.messageId, card.messageId, "edited in place");
    assert.ok(cardEdits(emu, card.messageId).length > edits);
    assert.equal(cards(emu, D.aliceP2p).length, 1);
    const creates = cardCreates(emu).slice(createsBefore);
    assert.deepEqual(
      creates.map((r) => r.path),
      [`/open-apis/im/v1/messages/${on.messageId}/reply`],
      "the command's own answer is the only card created",
    );
    assert.equal(cardWrites(emu, D.aliceP2p).filter((w) => w.kind !== "edit").length, 1);
    assert.equal((await taskStatus(bridge)).writes.deleted, 0);
  } finally {
    await bridge.close();
  }
});

Deno.test("a Task Card and a progress card live side by side in one turn; each is edited in place; at the end only the Task Card moves below the answer", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "read the report" });
    const [push] = await bridge.channel.atLeast(1);
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");

    const placeholder = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "Reading the report…",
      placeholder: true,
    });
    assertSent(placeholder);
    assert.equal(placeholder.placeholder, true);
    const progressRef = String(placeholder.message_id);
    const progressId = feishuId(progressRef);
    const progress = emu.world.messages.get(progressId)!;
    assert.ok(progress.seq > card.seq, "the progress card comes below the Task Card");

    // Both cards are edited in place, each on its own.
    await appendEvents(workdir, diary("reading page one", "r1"));
    const step = await cardShowing(emu, D.aliceP2p, (f) => f.includes("reading page one"));
    assert.equal(step.messageId, card.messageId, "the Task Card is not moved mid-turn");
    const edited = await bridge.call("edit", {
      message_id: progressRef,
      text: "Summarising…",
    });
    assert.equal(edited.status, "edited", JSON.stringify(edited));
    await appendEvents(workdir, diary("summarising", "r2"));
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("summarising"));
    const live = emu.messages(D.aliceP2p).filter((m) => !m.deleted && m.sender.type === "app");
    assert.deepEqual(live.map((m) => m.messageId), [card.messageId, progressId]);
    assert.match(emu.world.messages.get(progressId)!.content, /Summarising…/);
    assert.doesNotMatch(emu.world.messages.get(progressId)!.content, /Task Card|reading page/);
    assert.doesNotMatch(frameOf(cards(emu, D.aliceP2p)[0]!), /Summarising|Reading the report/);
    assert.ok(cardEdits(emu, progressId).length >= 1);
    assert.ok(cardWrites(emu, D.aliceP2p).every((w) => w.kind === "send" || w.kind === "edit"));

    // The answer goes out separately; the turn ends: the Task Card moves below it.
    const final = await bridge.call("reply", { message_id: push!.meta.message_id, text: "done" });
    assertSent(final);
    const answer = lastOf(emu, D.aliceP2p)!;
    assert.equal(answer.messageId, feishuId(String(final.message_id)));
    await agentState(workdir, "idle");
    const rotated = await emu.waitFor(() => {
      const now = cards(emu, D.aliceP2p);
      return now.length === 1 && now[0]!.messageId !== card.messageId ? now[0] : undefined;
    }, { description: "the Task Card moved below the answer" });
    assert.ok(rotated.seq > answer.seq);
    assert.ok(frameOf(rotated).includes("summarising"));
    const kept = emu.world.messages.get(progressId)!;
    assert.equal(kept.deleted, false, "the progress card stays");
    assert.equal(kept.seq, progress.seq, "where it was");
    assert.match(kept.content, /Summarising…/);
    const deletes = emu.requests({
      method: "DELETE",
      path: /^\/open-apis\/im\/v1\/messages\/[^/]+$/,
    })
      .map((r) => r.path);
    assert.deepEqual(deletes, [`/open-apis/im/v1/messages/${card.messageId}`]);
    const order = emu.messages(D.aliceP2p).filter((m) => !m.deleted && m.sender.type === "app");
    assert.deepEqual(order.map((m) => m.messageId), [
      progressId,
      answer.messageId,
      rotated.messageId,
    ]);
  } finally {
    await bridge.close();
  }
});

Deno.test("a missing, blank or invalid slot status, or an unreadable or blank body, keeps the delivered programmable frame on the card; only the exact inactive clears it", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  const slot = join(workdir, "taskcard");
  const status = join(slot, "status");
  const body = join(slot, "taskcard.md");
  const SLOT = "— TASK CARD —\none truthful frame\n";
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "watch this" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    // The agent works (its turn stays open): the slot shows on this route's card.
    await agentState(workdir, "active");
    await Deno.mkdir(slot);
    await Deno.writeTextFile(body, "one truthful frame\n");
    await Deno.writeTextFile(status, "active");
    const composed = await cardShowing(emu, D.aliceP2p, (f) => f.endsWith(SLOT));
    assert.equal(composed.messageId, card.messageId);
    const since = cardWrites(emu, D.aliceP2p).length;

    // Each bad state is written first, then a row: the poll that shows the row read it too.
    const cases: [string, () => Promise<void>][] = [
      ["status missing", () => Deno.remove(status)],
      ["status blank", () => Deno.writeTextFile(status, "")],
      ["status invalid", () => Deno.writeTextFile(status, "actve")],
      ["status with a newline", () => Deno.writeTextFile(status, "active\n")],
      ["body blank", async () => {
        await Deno.writeTextFile(body, " \n\t\n");
        await Deno.writeTextFile(status, "active");
      }],
      ["body missing", () => Deno.remove(body)],
      ["body unreadable (a directory)", () => Deno.mkdir(body)],
      ["body not UTF-8", async () => {
        await Deno.remove(body);
        await Deno.writeFile(body, new Uint8Array([0x66, 0xff, 0xfe, 0x0a]));
      }],
    ];
    for (const [i, [name, apply]] of cases.entries()) {
      await apply();
      await appendEvents(workdir, diary(`row ${i}`, `r${i}`));
      const shown = await cardShowing(emu, D.aliceP2p, (f) => f.includes(`row ${i}`));
      assert.equal(shown.messageId, card.messageId, name);
      assert.ok(frameOf(shown).endsWith(SLOT), `${name}: the slot is kept`);
      assert.equal((await taskStatus(bridge)).programmable, "active", name);
    }
    const writes = cardWrites(emu, D.aliceP2p).slice(since);
    // One edit per row: no bad state cost a write of its own.
    assert.equal(writes.length, cases.length, JSON.stringify(writes));
    for (const w of writes) {
      assert.equal(w.kind, "edit");
      assert.ok(w.text.endsWith(SLOT), `no write dropped the slot: ${w.text}`);
    }

    // Only the exact word clears it.
    await Deno.writeTextFile(status, "inactive");
    const cleared = await cardShowing(emu, D.aliceP2p, (f) => !f.includes("— TASK CARD —"));
    assert.equal(cleared.messageId, card.messageId);
    assert.ok(frameOf(cleared).includes(`row ${cases.length - 1}`));
    await until(async () => (await taskStatus(bridge)).programmable === "none");
  } finally {
    await bridge.close();
  }
});
