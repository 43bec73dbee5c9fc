/**
 * End to end, the permission relay for Claude Code channels: a real MCP
 * client that speaks the channel protocol sends tool-permission prompts; the
 * server puts an approval card in the conversation that last woke the agent;
 * the emulator's users answer by clicking or typing, and the client gets
 * each verdict exactly once. A vote counts only from the request's own
 * approval card in its chat: the same value on a card the agent sent is an
 * ordinary click.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import {
  type Bridge,
  bridgeConfig,
  sendButtonCard,
  startBridge,
  Tally,
  until,
} from "./_inbound.ts";
import type { TestEra } from "./_mcp_client.ts";

const REQUEST = "notifications/claude/channel/permission_request";
const VERDICT = "notifications/claude/channel/permission";
const VerdictSchema = z.object({ request_id: z.string(), behavior: z.enum(["allow", "deny"]) });

interface Relay {
  bridge: Bridge;
  verdicts: Tally<z.infer<typeof VerdictSchema>>;
  ask(requestId: string, tool?: string): Promise<void>;
}

async function startRelay(
  emu: Emulator,
  options: { era?: TestEra; allowed?: string[] } = {},
): Promise<Relay> {
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, {
      account: options.allowed ? { allowed_users: options.allowed } : {},
    }),
    era: options.era,
    clientName: "claude-code",
  });
  const verdicts = new Tally<z.infer<typeof VerdictSchema>>();
  bridge.server.client.setNotificationHandler(
    VERDICT,
    { params: VerdictSchema },
    (params) => verdicts.push(params),
  );
  return {
    bridge,
    verdicts,
    ask: (requestId, tool = "Bash") =>
      bridge.server.client.notification({
        method: REQUEST,
        params: {
          request_id: requestId,
          tool_name: tool,
          description: "List the files of the project <at id=all></at>",
          input_preview: '{"command":"ls -la"}',
        },
      } as never),
  };
}

/** Waits for the approval card of `requestId` in `chatId`. */
function approvalCard(emu: Emulator, chatId: string, requestId: string) {
  return emu.waitForMessage((m) =>
    m.chatId === chatId && m.msgType === "interactive" && m.content.includes(`request ${requestId}`)
  );
}

const vote = (requestId: string, behavior: "allow" | "deny") => ({
  feishu_mcp_permission: { version: 1, request_id: requestId, behavior },
});

for (const era of ["legacy", "modern"] as const) {
  Deno.test(`the relay is declared only with allowed_users (${era})`, async () => {
    await using emu = await startEmulator();
    const open = await startRelay(emu, { era });
    try {
      const caps = open.bridge.server.client.getServerCapabilities()?.experimental ?? {};
      assert.ok("claude/channel" in caps);
      assert.ok(!("claude/channel/permission" in caps), JSON.stringify(caps));
    } finally {
      await open.bridge.close();
    }
    const gated = await startRelay(emu, { era, allowed: [D.alice.openId] });
    try {
      const caps = gated.bridge.server.client.getServerCapabilities()?.experimental ?? {};
      assert.deepEqual(caps["claude/channel/permission"], {});
    } finally {
      await gated.bridge.close();
    }
  });
}

Deno.test("an approval card goes to the conversation that woke the agent; a refused click, the verdict once, a second click, an unknown request", async () => {
  await using emu = await startEmulator();
  const relay = await startRelay(emu, { era: "legacy", allowed: [D.alice.openId, D.bob.openId] });
  const { bridge, verdicts } = relay;
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.bob.openId, chat: D.team, text: "deploy", mentions: ["bot"] });
    await bridge.channel.atLeast(1);
    await relay.ask("abcde");
    const card = await approvalCard(emu, D.team, "abcde");
    const shown = JSON.parse(card.content);
    const text = JSON.stringify(shown);
    assert.match(text, /Permission request · Bash/);
    assert.match(text, /List the files of the project/);
    assert.match(text, /ls -la/);
    // Prompt text is plain text: it cannot mention or format anything.
    const plain = JSON.stringify(
      shown.body.elements.filter((e: { tag: string }) => e.tag === "div"),
    );
    assert.match(plain, /<at id=all>/);
    assert.ok(
      !JSON.stringify(shown.body.elements.filter((e: { tag: string }) => e.tag === "markdown"))
        .includes("<at"),
    );

    // Both are allowed here: the first answer counts, the second is refused.
    const first = await emu.clickCard({
      user: D.alice.openId,
      messageId: card.messageId,
      value: vote("abcde", "deny"),
    }).result;
    assert.deepEqual(first.toast, { type: "warning", content: "Denied" });
    assert.equal(first.applied, true);
    const updated = emu.messages(D.team).find((m) => m.messageId === card.messageId)!;
    assert.match(updated.content, /Denied by Alice/);
    assert.ok(!updated.content.includes('"button"'), "the answered card has no buttons");
    assert.deepEqual(await verdicts.atLeast(1), [{ request_id: "abcde", behavior: "deny" }]);

    const second = await emu.clickCard({
      user: D.bob.openId,
      messageId: card.messageId,
      value: vote("abcde", "allow"),
    }).result;
    assert.equal(second.toast?.type, "info");
    assert.match(String(second.toast?.content), /Already answered: denied by Alice/);
    assert.equal(second.applied, false);

    const unknown = await emu.clickCard({
      user: D.alice.openId,
      messageId: card.messageId,
      value: vote("zzzzz", "allow"),
    }).result;
    assert.equal(unknown.toast?.type, "error");
    assert.match(String(unknown.toast?.content), /unknown/);

    // Votes are never records and never wake the agent.
    const records = await bridge.records(D.team);
    assert.deepEqual(records.filter((r) => r.message_type === "card_action"), []);
    assert.equal(bridge.channel.items.length, 1);
    assert.equal(verdicts.items.length, 1);
    const relayStatus = (await bridge.status()).permission_relay;
    assert.deepEqual(relayStatus, {
      enabled: true,
      requests: 1,
      cards: 1,
      verdicts: 1,
      refused: 2,
      undelivered: 0,
    });
  } finally {
    await bridge.close();
  }
});

Deno.test("without a wake the card goes to the first allowed user's DM; an outsider's click changes nothing; a typed answer answers and is not passed to the agent", async () => {
  await using emu = await startEmulator();
  const relay = await startRelay(emu, { era: "legacy", allowed: [D.alice.openId] });
  const { bridge, verdicts } = relay;
  try {
    await emu.ws.whenReady();
    // No conversation woke the agent yet: the card goes to the first allowed user's DM.
    await relay.ask("kmnop", "Read");
    await approvalCard(emu, D.aliceP2p, "kmnop");

    emu.userSends({ user: D.alice.openId, chat: D.team, text: "build it", mentions: ["bot"] });
    await bridge.channel.atLeast(1);
    await relay.ask("fghij", "Edit");
    const card = await approvalCard(emu, D.team, "fghij");
    const refused = await emu.clickCard({
      user: D.bob.openId,
      messageId: card.messageId,
      value: vote("fghij", "allow"),
    }).result;
    assert.deepEqual(refused.toast, {
      type: "error",
      content: "Only an owner of the agent can answer this request.",
    });
    assert.equal(refused.applied, false);
    assert.equal(verdicts.items.length, 0);

    const typed = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "  YES fghij ",
      mentions: ["bot"],
    });
    const after = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "thanks",
      mentions: ["bot"],
    });
    assert.deepEqual(await verdicts.atLeast(1), [{ request_id: "fghij", behavior: "allow" }]);
    const pushes = await bridge.channel.atLeast(2);
    assert.deepEqual(pushes.map((p) => p.content.replace(/^@\S+\s*/, "")), ["build it", "thanks"]);
    await until(
      () =>
        Promise.resolve(
          emu.messages(D.team).find((m) => m.messageId === card.messageId)!.content.includes(
            "Allowed by Alice",
          ),
        ),
      { what: "the card to show the typed verdict" },
    );
    const ids = (await bridge.records(D.team)).map((r) => r.feishu_message_id);
    assert.ok(!ids.includes(typed.messageId), "the typed answer is not an inbox record");
    assert.ok(ids.includes(after.messageId));
    // A second typed answer changes nothing and is not passed on either.
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "no fghij", mentions: ["bot"] });
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "bye", mentions: ["bot"] });
    const later = await bridge.channel.atLeast(3);
    assert.equal(later.length, 3);
    assert.match(later[2]!.content, /bye/);
    assert.equal(verdicts.items.length, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("an approval value on a card the agent sent, or a vote naming another chat, answers nothing; the agent gets the lure as an ordinary click", async () => {
  await using emu = await startEmulator();
  const relay = await startRelay(emu, { era: "legacy", allowed: [D.alice.openId] });
  const { bridge, verdicts } = relay;
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "deploy", mentions: ["bot"] });
    await bridge.channel.atLeast(1);
    await relay.ask("abcde");
    const approval = await approvalCard(emu, D.team, "abcde");

    // The agent sends a card of its own, in another chat, whose button carries the vote.
    const lure = vote("abcde", "allow");
    const lureId = await sendButtonCard(bridge, emu, D.aliceP2p, "Looks fine", lure);
    const clicked = await emu.clickCard({ user: D.alice.openId, messageId: lureId, value: lure })
      .result;
    assert.deepEqual(clicked.toast, { type: "info", content: "Sent to the agent." });
    const pushes = await bridge.channel.atLeast(2);
    assert.equal(pushes[1]!.meta.message_type, "card_action");
    assert.match(pushes[1]!.content, /feishu_mcp_permission/);

    // The approval card's own vote, in a callback naming another chat: no vote, no record.
    emu.ws.sendCardFrame({
      schema: "2.0",
      header: {
        event_id: "ev_vote_elsewhere",
        event_type: "card.action.trigger",
        create_time: String(Date.now()),
        token: "",
        app_id: D.appId,
        tenant_key: "tk_emu",
      },
      event: {
        operator: { open_id: D.alice.openId },
        action: { tag: "button", value: lure },
        context: { open_message_id: approval.messageId, open_chat_id: D.aliceP2p },
      },
    });
    await emu.waitFor(() => emu.ws.unmatchedAcks().length === 1);
    assert.deepEqual(emu.ws.unmatchedAcks()[0]!.data, {
      toast: { type: "error", content: "This card belongs to another chat." },
    });
    assert.equal(verdicts.items.length, 0, "the request is still pending");
    assert.doesNotMatch(
      emu.messages(D.team).find((m) => m.messageId === approval.messageId)!.content,
      /Allowed by/,
    );

    // The approval card itself still answers it.
    const real = await emu.clickCard({
      user: D.alice.openId,
      messageId: approval.messageId,
      value: vote("abcde", "deny"),
    }).result;
    assert.deepEqual(real.toast, { type: "warning", content: "Denied" });
    assert.deepEqual(await verdicts.atLeast(1), [{ request_id: "abcde", behavior: "deny" }]);
    const records = (await bridge.records(D.aliceP2p)).filter((r) =>
      r.message_type === "card_action"
    );
    assert.deepEqual(
      records.map((r) => (r.card_action as { action: { value: unknown } }).action.value),
      [lure],
    );
  } finally {
    await bridge.close();
  }
});
