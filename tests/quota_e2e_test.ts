/**
 * End to end, API quota accounting: over a real run of the server against the
 * emulator, the calls counted in `store.db` equal the requests the emulator
 * logged for the app, exactly and per category (classified here from the
 * emulator's own log, not by the product's table), and a restart on the same
 * workdir continues the count instead of resetting or doubling it. Near the
 * quota the bridge saves calls on its own: no Typing reaction, while the
 * agent's reply still goes out, and the status says `saving` with a warning.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { openSqliteReadOnly, readApiCalls } from "../lib/store/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";

type Rec = Record<string, unknown>;
type RequestRecord = ReturnType<Emulator["requests"]>[number];

const month = () => new Date().toISOString().slice(0, 7);

/** The category of one logged request, from the emulator's view of it. */
function categoryOf(r: RequestRecord): string {
  const p = r.path;
  const body = (r.body ?? {}) as Rec;
  if (/\/reactions(\/|$)/.test(p)) return "reaction";
  if (/\/resources\//.test(p)) return "download";
  if (r.method === "POST" && /^\/open-apis\/im\/v1\/(images|files)$/.test(p)) return "upload";
  if (r.method === "POST" && /^\/open-apis\/im\/v1\/messages(\/[^/]+\/reply)?$/.test(p)) {
    return body.msg_type === "interactive" ? "card" : "send";
  }
  if (r.method === "PATCH" || p === "/open-apis/interactive/v1/card/update") return "card";
  if (
    (r.method === "PUT" || r.method === "DELETE") &&
    /^\/open-apis\/im\/v1\/messages\/[^/]+$/.test(p)
  ) {
    return "edit";
  }
  return "probe";
}

function tally(records: RequestRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) out[categoryOf(r)] = (out[categoryOf(r)] ?? 0) + 1;
  return out;
}

/** The persisted counts of this month, per category (zero rows left out). */
function persisted(workdir: string): Record<string, number> {
  const { db } = openSqliteReadOnly(join(workdir, "feishu", "store.db"));
  try {
    const out: Record<string, number> = {};
    for (const r of readApiCalls(db, month())) out[r.category] = (out[r.category] ?? 0) + r.count;
    return out;
  } finally {
    db.close();
  }
}

const nonZero = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).filter(([, n]) => n > 0));
const total = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

/** Waits until the running count has caught up with every request the emulator logged. */
async function settled(bridge: Bridge, emu: Emulator): Promise<Rec> {
  return await until(async () => {
    const q = (await bridge.status()).quota as Rec;
    return q.used === emu.requests().length && q;
  }, { what: "the count to match the emulator's log" });
}

/** A user message, recorded and pushed to the agent; its compound id. */
async function inbound(
  bridge: Bridge,
  emu: Emulator,
  text: string,
): Promise<{ id: string; messageId: string }> {
  const seen = bridge.channel.items.length;
  const m = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text });
  const pushes = await bridge.channel.atLeast(seen + 1);
  return { id: pushes[seen]!.meta.message_id!, messageId: m.messageId! };
}

const emojis = (emu: Emulator, messageId: string) =>
  emu.reactions(messageId).map((r) => r.emojiType);

Deno.test("every Feishu call is counted once: the stored count equals the emulator's log per category, and a restart continues it", async () => {
  await using emu = await startEmulator();
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  const workdir = bridge.server.workdir;
  try {
    await emu.ws.whenReady();
    const first = await inbound(bridge, emu, "hello");
    await emu.waitFor(() => emojis(emu, first.messageId).includes("Typing"));
    assert.equal(
      (await bridge.call("reply", { message_id: first.id, text: "hi there" })).status,
      "sent",
    );
    const card = {
      schema: "2.0",
      header: { title: { tag: "plain_text", content: "Progress" } },
      body: { elements: [{ tag: "markdown", content: "step 1" }] },
    };
    const sent = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      content: { type: "card", card },
    });
    assert.equal(sent.status, "sent");
    const edited = await bridge.call("edit", {
      message_id: sent.message_id,
      content: {
        type: "card",
        card: { ...card, body: { elements: [{ tag: "markdown", content: "step 2" }] } },
      },
    });
    assert.equal(edited.status, "edited", JSON.stringify(edited));
    const text = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "bye",
    });
    assert.equal((await bridge.call("delete", { message_id: text.message_id })).status, "deleted");
    await emu.waitFor(() => emojis(emu, first.messageId).includes("THUMBSUP"));
    const q = await settled(bridge, emu);
    assert.deepEqual(nonZero(q.by_category as Record<string, number>), tally(emu.requests()));
    assert.deepEqual(q.by_account, { main: emu.requests().length });
    for (const c of ["send", "card", "edit", "reaction", "probe"]) {
      assert.ok((q.by_category as Record<string, number>)[c]! > 0, `no ${c} call was exercised`);
    }
  } finally {
    await bridge.close();
  }
  // Shutdown's own calls (the last Typing removals, if any) are counted and stored too.
  const afterFirst = emu.requests().length;
  assert.deepEqual(persisted(workdir), tally(emu.requests()));
  assert.equal(total(persisted(workdir)), afterFirst);

  bridge = await startBridge({ config, workdir });
  try {
    await emu.waitFor(() => emu.ws.status().some((s) => !s.closed && s.ready));
    const second = await inbound(bridge, emu, "again");
    assert.equal(
      (await bridge.call("reply", { message_id: second.id, text: "welcome back" })).status,
      "sent",
    );
    await emu.waitFor(() => emojis(emu, second.messageId).includes("THUMBSUP"));
    const q = await settled(bridge, emu);
    assert.ok(emu.requests().length > afterFirst);
    assert.equal(q.used, emu.requests().length, "the count went on from the first run");
  } finally {
    await bridge.close();
  }
  assert.deepEqual(persisted(workdir), tally(emu.requests()));
  assert.equal(total(persisted(workdir)), emu.requests().length);
});

Deno.test("near the quota the bridge saves calls: no Typing on a new message, the reply still goes out, and status says saving with a warning", async () => {
  await using emu = await startEmulator();
  // Start-up alone (a token, the endpoint, the bot's identity) passes 90 % of two calls.
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, { top: { quota: { monthly_calls: 2 } } }),
  });
  try {
    await emu.ws.whenReady();
    const q = await until(async () => {
      const q = (await bridge.status()).quota as Rec;
      return q.saving === true && q;
    }, { what: "saving mode" });
    assert.equal(q.monthly_calls, 2);
    assert.match(String(q.warning), /Feishu API calls used this month/);
    assert.ok(bridge.server.stderr().includes("quota: saving calls from now on"));
    const m = await inbound(bridge, emu, "are you there?");
    await emu.waitFor(() => emojis(emu, m.messageId).includes("OK"));
    const out = await bridge.call("reply", { message_id: m.id, text: "yes, always" });
    assert.equal(out.status, "sent");
    await emu.waitFor(() => emojis(emu, m.messageId).includes("THUMBSUP"));
    const typing = emu.requests({ method: "POST", path: "/open-apis/im/v1/messages/:id/reactions" })
      .filter((r) => ((r.body as Rec)?.reaction_type as Rec)?.emoji_type === "Typing");
    assert.deepEqual(typing, [], "a Typing reaction was added while saving");
    assert.equal(emu.lastSent(D.aliceP2p)?.parentId, m.messageId);
    const after = await settled(bridge, emu);
    assert.equal(after.saving, true);
    assert.ok(Number(after.ratio) > 1);
    assert.match(String(after.warning), /quota is spent/);
  } finally {
    await bridge.close();
  }
});
