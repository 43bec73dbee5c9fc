/**
 * End to end, Task Cards per conversation and their write budget: the real
 * server over stdio against the emulator, an agent events log the test
 * appends to. What the agent does for a DM never reaches a group's card
 * (every card write the emulator was asked for is checked, not only the
 * last frame); rows of one chat touch only that chat's card however many
 * idle routes are bound; a turn moves its card at most once, below the
 * agent's final answer; idle bindings are dropped after retention.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { until } from "./_inbound.ts";
import {
  agentDir,
  agentState,
  appendEvents,
  assertSent,
  cards,
  cardShowing,
  cardWrites,
  countWrites,
  diary,
  frameOf,
  lastOf,
  start,
  storeRows,
  storeWrite,
  taskStatus,
  toolCall,
} from "./_taskcards.ts";

const DAY = 86_400_000;

Deno.test("a DM's text, tool names and reasoning never reach a group's card while the agent works on both", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "what is my salary?" });
    const [dmPush] = await bridge.channel.atLeast(1);
    await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");
    // Working for the DM alone: its rows are the DM's.
    await appendEvents(
      workdir,
      diary("your salary is 12345", "d1"),
      toolCall("payroll_lookup", "look up alice pay grade", "d1", { employee: "alice" }),
    );
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("your salary is 12345"));

    emu.userSends({
      user: D.bob.openId,
      chat: D.team,
      text: "@EmuBot plan the offsite",
      mentions: ["bot"],
    });
    const [, teamPush] = await bridge.channel.atLeast(2);
    await cardShowing(emu, D.team, (f) => f.startsWith("📋"));
    // Now both are worked on.
    await appendEvents(
      workdir,
      // A round answering the team (its call names the team's message).
      diary("Offsite plan: Friday", "g1"),
      toolCall("feishu", "post the plan to the team", "g1", {
        action: "reply",
        input: { message_id: teamPush!.meta.message_id, text: "Friday" },
      }),
      // A round answering the DM.
      diary("telling alice her salary 12345", "d2"),
      toolCall("feishu", "tell alice her salary", "d2", {
        action: "reply",
        input: { message_id: dmPush!.meta.message_id, text: "12345" },
      }),
      // Rounds naming no chat: whose they are cannot be told.
      diary("payroll thoughts about alice", "u1"),
      toolCall("payroll_lookup", "double-check alice pay grade", "u1"),
    );
    const team = await cardShowing(
      emu,
      D.team,
      (f) => f.includes("post the plan to the team") && f.includes("Steps in other conversations"),
    );
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("tell alice her salary"));
    assert.match(frameOf(team), /Steps in other conversations: \d+/);

    const teamWrites = cardWrites(emu, D.team);
    assert.ok(teamWrites.length >= 2, "the team's card was sent and edited");
    for (const w of teamWrites) {
      for (const secret of ["12345", "salary", "payroll", "alice pay", "Offsite plan"]) {
        assert.ok(!w.text.includes(secret), `a team card write showed "${secret}": ${w.text}`);
      }
    }
    // Nothing the emulator was ever asked to write carries the DM's secret outside the DM.
    for (const r of emu.requests()) {
      if (r.method === "GET" || !JSON.stringify(r.body ?? {}).includes("12345")) continue;
      const id = r.path.split("/")[5];
      const chat = id === undefined
        ? (r.body as { receive_id?: string }).receive_id
        : emu.world.messages.get(id)?.chatId;
      assert.equal(chat, D.aliceP2p, `${r.method} ${r.path} carried the DM's secret`);
    }
    // The DM's card shows the DM's work and nothing of the team's.
    const dmWrites = cardWrites(emu, D.aliceP2p);
    assert.ok(dmWrites.some((w) => w.text.includes("your salary is 12345")));
    assert.ok(dmWrites.every((w) => !w.text.includes("post the plan")));
    assert.equal((await taskStatus(bridge)).working_routes, 2);
  } finally {
    await bridge.close();
  }
});

Deno.test("five rows of one chat edit only that chat's card, with 100 idle routes bound", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  // The store of an earlier run: 100 routes with cards, active an hour ago, idle now.
  await (await start(emu, workdir)).close();
  const hourAgo = Date.now() - 3_600_000;
  for (let i = 0; i < 100; i++) {
    storeWrite(
      workdir,
      `INSERT INTO task_cards (route, account, chat_id, thread_id, resident_id, updated_at, active_at)
       VALUES (?, 'main', ?, NULL, ?, ?, ?)`,
      `main:oc_idle_${i}`,
      `oc_idle_${i}`,
      `main:oc_idle_${i}:om_idle_${i}`,
      hourAgo,
      hourAgo,
    );
  }
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    assert.equal((await taskStatus(bridge)).active_routes, 100);
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "count to five" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");
    for (let i = 1; i <= 5; i++) await appendEvents(workdir, diary(`row ${i}`, `r${i}`));
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("row 5"));
    // One more change, seen later: anything the first ones asked for has been asked by now.
    await appendEvents(workdir, diary("row 6", "r6"));
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("row 6"));

    const idle = emu.requests({ path: /^\/open-apis\/im\/v1\/messages/ }).filter((r) =>
      r.path.includes("om_idle_") || String((r.body as { receive_id?: string })?.receive_id)
        .startsWith("oc_idle_")
    );
    assert.equal(idle.length, 0, "no write to an idle route");
    const alice = countWrites(cardWrites(emu, D.aliceP2p));
    assert.equal(alice.send, 1);
    assert.equal(alice.delete, 0);
    assert.ok(alice.edit >= 1 && alice.edit <= 6, `${alice.edit} edits for 6 rows`);
    assert.equal(cards(emu, D.aliceP2p)[0]!.messageId, card.messageId);
    const status = await taskStatus(bridge);
    assert.equal(status.routes, 101);
    assert.equal(status.writes.failed, 0);
  } finally {
    await bridge.close();
  }
});

Deno.test("a turn with two answers below the card moves it once, below the final answer; the next turn edits it in place", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    for (let turn = 1; turn <= 3; turn++) {
      const before = countWrites(cardWrites(emu, D.aliceP2p));
      const q = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `question ${turn}` });
      const pushes = await bridge.channel.atLeast(turn);
      const asked = pushes[turn - 1]!.meta.message_id;
      await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
      await agentState(workdir, "active");
      await appendEvents(workdir, diary(`working on ${turn}`, `t${turn}a`));
      await cardShowing(emu, D.aliceP2p, (f) => f.includes(`working on ${turn}`));
      assertSent(await bridge.call("reply", { message_id: asked, text: `part one of ${turn}` }));
      await appendEvents(
        workdir,
        toolCall("feishu", `answer ${turn}`, `t${turn}b`, { input: { message_id: asked } }),
      );
      await cardShowing(emu, D.aliceP2p, (f) => f.includes(`answer ${turn}`));
      assertSent(await bridge.call("reply", { message_id: asked, text: `part two of ${turn}` }));
      const final = lastOf(emu, D.aliceP2p)!;
      await agentState(workdir, "idle");
      const moved = await emu.waitFor(() => {
        const last = lastOf(emu, D.aliceP2p);
        return last && cards(emu, D.aliceP2p)[0]?.messageId === last.messageId ? last : undefined;
      }, { description: "the card below the final answer" });
      assert.ok(moved.seq > final.seq);
      await emu.waitFor(() => emu.reactions(q.messageId!).find((r) => r.emojiType === "DONE"));
      const after = countWrites(cardWrites(emu, D.aliceP2p));
      // One move per turn (a delete and a send); the first turn also sent the first card.
      assert.equal(after.delete - before.delete, 1, `turn ${turn}: deletes`);
      assert.equal(after.send - before.send, turn === 1 ? 2 : 1, `turn ${turn}: sends`);
    }
    assert.equal(cards(emu, D.aliceP2p).length, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("bindings idle past retention_days are dropped at start and after a poll", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  let bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
    await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
  } finally {
    await bridge.close();
  }
  // A binding left by an earlier run, its route idle for eight days.
  const eightDaysAgo = Date.now() - 8 * DAY;
  storeWrite(
    workdir,
    `INSERT INTO task_cards (route, account, chat_id, thread_id, resident_id, updated_at, active_at)
     VALUES ('main:oc_gone', 'main', 'oc_gone', NULL, 'main:oc_gone:om_gone', ?, ?)`,
    eightDaysAgo,
    eightDaysAgo,
  );
  bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    const atStart = await taskStatus(bridge);
    assert.equal(atStart.routes, 1, "the stale binding went at start");
    assert.equal(atStart.pruned, 1);
    assert.deepEqual(
      storeRows(workdir, "SELECT route FROM task_cards").map((r) => r.route),
      [`main:${D.aliceP2p}`],
    );
    // Alice's route, too, has been idle for eight days now (as a test clock would say).
    storeWrite(workdir, "UPDATE task_cards SET active_at = ?", eightDaysAgo);
    const later = await until(async () => {
      const s = await taskStatus(bridge);
      return s.routes === 0 ? s : null;
    }, { what: "the binding dropped at a poll" });
    assert.equal(later.pruned, 2);
    assert.equal(later.active_routes, 0);
    // Her next message gets a fresh card below it; the old one is no longer written to.
    const old = cards(emu, D.aliceP2p)[0]!;
    const sends = countWrites(cardWrites(emu, D.aliceP2p)).send;
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "back again" });
    await emu.waitFor(() => cards(emu, D.aliceP2p).length === 2 || undefined);
    assert.equal(countWrites(cardWrites(emu, D.aliceP2p)).send, sends + 1);
    assert.equal(emu.world.messages.get(old.messageId)?.deleted, false);
  } finally {
    await bridge.close();
  }
});
