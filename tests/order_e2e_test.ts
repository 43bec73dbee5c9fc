/**
 * End to end, the order of a chat: Feishu's millisecond create_time, then the
 * arrival sequence. A message Feishu pushes late, and one recovered by
 * backfill after later ones, take their place in `read`, `check` and the
 * wake's conversation window even when they share a second with the others.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";

type Rec = Record<string, unknown>;

const MCP_NAME = "lark_bridge";

/** A LingTai-style bridge (LICC on), with its LICC event metadata by message id. */
async function startLingTai(url: string) {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-order-" });
  const bridge = await startBridge({
    workdir,
    config: bridgeConfig(url),
    env: { LINGTAI_AGENT_DIR: workdir, LINGTAI_MCP_NAME: MCP_NAME },
  });
  const licc = async () => {
    const events = new Map<string, Rec>();
    const dir = join(workdir, ".mcp_inbox", MCP_NAME);
    for await (const e of Deno.readDir(dir)) {
      const event = JSON.parse(await Deno.readTextFile(join(dir, e.name)));
      events.set(event.metadata.message_id, event.metadata);
    }
    return events;
  };
  return { bridge, licc };
}

const idOf = (m: { messageId?: string }) => `main:${D.aliceP2p}:${m.messageId}`;
/** A wake's window as texts, the current one starred. */
const windowOf = (events: Map<string, Rec>, m: { messageId?: string }) =>
  (events.get(idOf(m))!.recent_messages as Rec[]).map((i) => `${i.text}${i.is_current ? "*" : ""}`);

Deno.test("messages within one second read in create_time order: a late push and a backfilled one take their place", async () => {
  await using emu = await startEmulator();
  const { bridge, licc } = await startLingTai(emu.url);
  try {
    await emu.ws.whenReady();
    const second = Math.floor(Date.now() / 1000) * 1000;
    const base = { user: D.alice.openId, chat: D.aliceP2p };
    const later = emu.userSends({ ...base, text: "later", createTime: second + 700 });
    await bridge.channel.atLeast(1);
    // Sent before "later", pushed after it.
    const earlier = emu.userSends({ ...base, text: "earlier", createTime: second + 200 });
    await bridge.channel.atLeast(2);
    // Never pushed: only the backfill at the next connect finds it.
    const middle = emu.userSends({
      ...base,
      text: "middle",
      createTime: second + 450,
      push: { lost: true },
    });
    emu.ws.drop();
    await bridge.channel.atLeast(3);

    const read = await bridge.call("read", { chat_id: D.aliceP2p, limit: null });
    const messages = read.messages as Rec[];
    assert.deepEqual(messages.map((m) => m.text), ["later", "middle", "earlier"]);
    assert.deepEqual(messages.map((m) => m.create_time_ms), [
      second + 700,
      second + 450,
      second + 200,
    ]);
    // `date` keeps its whole-second format.
    const date = new Date(second).toISOString().replace(".000Z", "Z");
    assert.deepEqual(messages.map((m) => m.date), [date, date, date]);
    assert.equal(messages[1]!.backfilled, true);

    const check = await bridge.call("check", {});
    const conv = (check.conversations as Rec[]).find((c) => c.chat_id === D.aliceP2p)!;
    assert.equal(conv.last_text, "later");

    // Each wake's window shows the chat in create_time order, the woken message in its place.
    const events = await licc();
    assert.deepEqual(windowOf(events, earlier), ["earlier*", "later"]);
    assert.deepEqual(windowOf(events, middle), ["earlier", "middle*", "later"]);
    assert.equal((events.get(idOf(middle))!.latest_incoming as Rec).id, idOf(middle));
    assert.ok(later.messageId);
  } finally {
    await bridge.close();
  }
});

Deno.test("a backfilled message older than the last ten wakes with the window that ends at it", async () => {
  await using emu = await startEmulator();
  const { bridge, licc } = await startLingTai(emu.url);
  try {
    await emu.ws.whenReady();
    const base = { user: D.alice.openId, chat: D.aliceP2p };
    const start = Date.now() - 60_000;
    emu.userSends({ ...base, text: "first", createTime: start });
    await bridge.channel.atLeast(1);
    // An outage: Feishu gives up on "old" and pushes the ten newer ones at the
    // reconnect, whose backfill fails; the next reconnect's backfill still
    // starts from before the first loss, finds "old" and wakes after the ten.
    emu.ws.drop();
    const old = emu.userSends({
      ...base,
      text: "old",
      createTime: start + 1,
      push: { lost: true },
    });
    emu.faults.add({
      method: "GET",
      path: "/open-apis/im/v1/messages",
      times: 1,
      respond: { status: 500, code: 55001, msg: "internal error" },
    });
    for (let i = 1; i <= 10; i++) {
      emu.userSends({ ...base, text: `new ${i}`, createTime: start + 1000 * i });
    }
    await bridge.channel.atLeast(11);
    await emu.waitFor(() =>
      emu.requests({ method: "GET", path: "/open-apis/im/v1/messages" })
        .some((r) => r.faulted)
    );
    emu.ws.drop();
    await bridge.channel.atLeast(12);
    const events = await licc();
    assert.deepEqual(windowOf(events, old), ["first", "old*"]);
    assert.equal((events.get(idOf(old))!.latest_incoming as Rec).id, idOf(old));
    assert.equal((await bridge.records(D.aliceP2p))[1]!.text, "old");
  } finally {
    await bridge.close();
  }
});
