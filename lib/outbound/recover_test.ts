import assert from "node:assert/strict";
import { createLogger, ManualClock, systemClock } from "../core/mod.ts";
import { DEFAULT_IDS as D, startEmulator } from "../emulator/mod.ts";
import { createFeishuApi } from "../feishu/mod.ts";
import { openStore, type SentMessageRecord } from "../store/mod.ts";
import { type SendPlan, storedChunk, UUID_SAFE_MS } from "./intents.ts";
import { createOutbox } from "./outbox.ts";
import { INTENT_KEEP_MS, recoverSends } from "./recover.ts";
import { wireBody } from "./wire.ts";

const quiet = createLogger({ sink: () => {} });
const CREATE = "/open-apis/im/v1/messages";

const plan: SendPlan = {
  alias: "main",
  target: { kind: "create", receiveId: D.team, receiveIdType: "chat_id" },
  content: {
    type: "text",
    recordContent: { type: "text", text: "a b c" },
    previewText: "a b c",
    messageType: "text",
  },
  placeholder: false,
};

/**
 * The emulator, a store holding one `open` intent of three chunks whose first
 * one Feishu already has (a crash came after it), and recovery's ports.
 */
async function rig() {
  const emu = await startEmulator();
  const dir = await Deno.makeTempDir();
  const clock = new ManualClock(1_000_000);
  const store = openStore(dir, clock);
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
  });
  const outbox = createOutbox({ api, clock: systemClock, ledger: store.writes.ledger("main") });
  const bodies = ["a", "b", "c"].map((text) => wireBody("text", { text }));
  const uuids = ["u-a", "u-b", "u-c"];
  store.intents.open({
    account: "main",
    id: "i1",
    identity: "h",
    plan: plan as unknown as Record<string, unknown>,
    bodies,
    uuids,
  });
  const first = await api.createMessage({
    receiveId: D.team,
    receiveIdType: "chat_id",
    msgType: "text",
    content: bodies[0]!.content,
    uuid: "u-a",
  });
  store.intents.delivered("main", "i1", storedChunk(0, first));
  const records: SentMessageRecord[] = [];
  let recorded = false;
  const ports = {
    intents: store.intents,
    accounts: [{ alias: "main", outbox }],
    recorded: () => recorded,
    record: (_: string, r: SentMessageRecord) => void records.push(r),
    now: () => clock.now(),
    log: quiet,
  };
  return {
    emu,
    store,
    clock,
    ports,
    records,
    first,
    setRecorded: () => (recorded = true),
    botTexts: () =>
      emu.messages(D.team).filter((m) => m.sender.type === "app").map((m) =>
        JSON.parse(m.content).text
      ),
    async [Symbol.asyncDispose]() {
      outbox.close();
      store.close();
      await emu.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("recoverSends() finishes a fresh intent under its uuids: every chunk once, one complete record", async () => {
  await using r = await rig();
  r.clock.advance(60_000);
  assert.deepEqual(await recoverSends(r.ports), { close: 0, finish: 1, partial: 0, drop: 0 });
  assert.deepEqual(r.botTexts(), ["a", "b", "c"]);
  assert.equal(r.records.length, 1);
  assert.equal(r.records[0]!.status, "sent");
  assert.equal(r.records[0]!.feishu_message_ids[0], r.first.messageId);
  assert.equal(r.records[0]!.feishu_message_ids.length, 3);
  assert.equal(r.store.intents.get("main", "i1")?.state, "recovered");
  assert.equal(r.store.intents.get("main", "i1")?.delivered.length, 3);
  assert.deepEqual(await recoverSends(r.ports), { close: 0, finish: 0, partial: 0, drop: 0 });
});

Deno.test("recoverSends() records an intent past the uuid window as partial and sends nothing", async () => {
  await using r = await rig();
  r.clock.advance(UUID_SAFE_MS);
  const before = r.emu.requests({ method: "POST", path: CREATE }).length;
  assert.deepEqual(await recoverSends(r.ports), { close: 0, finish: 0, partial: 1, drop: 0 });
  assert.equal(r.emu.requests({ method: "POST", path: CREATE }).length, before);
  const rec = r.records[0]!;
  assert.equal(rec.status, "partial");
  assert.deepEqual(rec.feishu_message_ids, [r.first.messageId]);
  assert.deepEqual([rec.chunk_count, rec.delivered_chunk_count], [3, 1]);
  assert.equal(rec.unknown_chunk_index, 2, "the chunk after the crash may have arrived");
});

Deno.test("recoverSends() only settles an intent whose record is already there", async () => {
  await using r = await rig();
  r.setRecorded();
  const before = r.emu.requests().length;
  assert.deepEqual(await recoverSends(r.ports), { close: 1, finish: 0, partial: 0, drop: 0 });
  assert.equal(r.emu.requests().length, before);
  assert.deepEqual(r.records, []);
  assert.equal(r.store.intents.get("main", "i1")?.state, "recovered");
});

Deno.test("recoverSends() records an intent older than a day, then deletes it", async () => {
  await using r = await rig();
  r.clock.advance(INTENT_KEEP_MS + 1);
  assert.deepEqual(await recoverSends(r.ports), { close: 0, finish: 0, partial: 1, drop: 0 });
  assert.equal(r.records[0]?.status, "partial");
  assert.equal(r.store.intents.get("main", "i1"), null);
});
