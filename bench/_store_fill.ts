/**
 * A store of `n` realistic records, filled fast: a seed of up to 10,000
 * records written the way the server writes them (real envelopes through the
 * real normaliser, sent records through the outbound record builder, both
 * through the conversation log into a store opened by `openStore`, so every
 * migration ran), then copied in SQL (`INSERT INTO records (...) SELECT ...`)
 * with fresh ids, Feishu message and event ids, times and arrival sequence.
 * The copies go through the same `records` table, so any trigger a migration
 * adds on it runs for them too; every column the table has is copied (the
 * column list is read from the schema), only ids, times and the read flag
 * are rewritten.
 *
 * The history spans 30 days ending now, over 50 busy group chats (alice and
 * bob write, the bot answers one message in five) and 300 small p2p chats of
 * 300 other users (one message per seed each). One incoming seed message says
 * `needle <digits>`, so a store of `n` holds `expected.needle` of them (100 at
 * 1M); the newest 1,000 records are unread, all older ones read.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { createLogger, systemClock } from "../lib/core/mod.ts";
import { createConversationLog } from "../lib/conversation/mod.ts";
import { DEFAULT_IDS as D, type Emulator, makeChat, makeUser } from "../lib/emulator/mod.ts";
import { normaliseMessage } from "../lib/inbound/mod.ts";
import { createNotifier } from "../lib/notify/mod.ts";
import { normaliseOutbound } from "../lib/outbound/mod.ts";
import { sentRecord } from "../lib/outbound/results.ts";
import { openStore } from "../lib/store/mod.ts";

/** Records built through the product's own path before the SQL copies. */
export const SEED = 10_000;
/** Busy group chats. */
export const BIG_CHATS = 50;
/** Small p2p chats, one user each. */
export const SMALL_CHATS = 300;
/** Newest records left unread. */
const UNREAD_TAIL = 1000;
const SPAN_MS = 30 * 86_400_000;

/** The literal only the needle messages hold, and a literal-prefixed regex matching the same. */
export const NEEDLE = "needle";
export const NEEDLE_REGEX = String.raw`needle\s+\d+`;

/** The busy chats' ids. */
export const bigChat = (i: number) => `oc_hist_big_${i}`;
/** The small chats' ids. */
export const smallChat = (j: number) => `oc_hist_small_${j}`;
const smallUser = (j: number) => ({
  openId: `ou_hist_user_${j}`,
  unionId: `on_hist_user_${j}`,
  userId: `hist_user_${j}`,
  name: `User ${j}`,
  email: `user${j}@emu.example`,
});

/** What a fill wrote. */
export interface FillReport {
  records: number;
  /** Incoming, visible records holding the needle (what `search` must count). */
  needles: number;
  seconds: number;
  /** Seconds of the seed (normaliser + conversation log) and of the SQL copies. */
  seedSeconds: number;
  copySeconds: number;
  /** Size of store.db plus its WAL, MiB. */
  dbMiB: number;
}

/** Adds the fill's chats and users to the emulator, so a backfill lists them like real ones. */
export function addHistChats(emu: Emulator): void {
  for (let i = 0; i < BIG_CHATS; i++) {
    emu.world.addChat(makeChat({
      chatId: bigChat(i),
      name: `history ${i}`,
      mode: "group",
      members: [D.alice.openId, D.bob.openId],
      bots: [D.appId],
    }));
  }
  for (let j = 0; j < SMALL_CHATS; j++) {
    const u = smallUser(j);
    emu.world.addUser(makeUser(u));
    emu.world.addChat(makeChat({
      chatId: smallChat(j),
      name: "",
      mode: "p2p",
      members: [u.openId],
      bots: [D.appId],
    }));
  }
}

// Deterministic text: mixed English and Chinese words, 3 to 40 words a message.
const VOCAB = (
  "deploy invoice meeting report budget review launch ticket release customer " +
  "staging rollback metrics dashboard latency quota contract draft agenda summary " +
  "please could you check the before after today tomorrow friday thanks update " +
  "部署 会议 报告 预算 发布 客户 合同 周五 明天 谢谢 请看 一下 数据 进度 问题"
).split(" ");

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(next: () => number, i: number): string {
  const words = 3 + Math.floor(next() ** 2 * 38);
  const out: string[] = [];
  for (let w = 0; w < words; w++) out.push(VOCAB[Math.floor(next() * VOCAB.length)]!);
  return `${out.join(" ")} #${i}`;
}

interface SeedPlan {
  chatId: string;
  chatType: "group" | "p2p";
  sender: { openId: string; userId: string; unionId: string };
  outgoing: boolean;
  needle: boolean;
}

function plan(seed: number): SeedPlan[] {
  const small = Math.min(SMALL_CHATS, Math.floor(seed / 30));
  const smallAt = new Map<number, number>();
  for (let j = 0; j < small; j++) smallAt.set(Math.floor((j * seed) / small) + 1, j);
  let needleAt = Math.floor(seed / 2);
  while (smallAt.has(needleAt) || needleAt % 5 === 4) needleAt++;
  return Array.from({ length: seed }, (_, i) => {
    const j = smallAt.get(i);
    if (j !== undefined) {
      const u = smallUser(j);
      return { chatId: smallChat(j), chatType: "p2p", sender: u, outgoing: false, needle: false };
    }
    const outgoing = i % 5 === 4;
    const who = i % 3 === 0 ? D.bob : D.alice;
    return {
      chatId: bigChat(i % BIG_CHATS),
      chatType: "group",
      sender: who,
      outgoing,
      needle: i === needleAt,
    };
  });
}

/**
 * Fills `<workdir>/feishu/store.db` (created and migrated by `openStore`)
 * with `n` records as described in the module doc.
 */
export async function fillStore(workdir: string, n: number): Promise<FillReport> {
  const t0 = performance.now();
  const store = openStore(workdir, systemClock);
  const log = createLogger({ sink: () => {} });
  const conversation = createConversationLog({
    store,
    notifier: createNotifier({
      liccDir: null,
      claudeChannel: false,
      push: { notifyChannel: async () => {}, notifyResourceUpdated: async () => {} },
      clock: systemClock,
      log,
    }),
    clock: systemClock,
    log,
  });
  try {
    const seed = Math.min(n, SEED);
    const blocks = n / seed; // the seed, then full copies, then perhaps a partial one
    const window = Math.floor(SPAN_MS / blocks);
    const start = Date.now() - SPAN_MS;
    const next = rng(42);
    const seqLo = store.records.lastSeq() + 1;
    let seedNeedles = 0;
    const rows = plan(seed);
    for (let base = 0; base < seed; base += 1000) {
      const built: { i: number; p: SeedPlan; at: number; text: string }[] = [];
      for (let i = base; i < Math.min(seed, base + 1000); i++) {
        const p = rows[i]!;
        const at = start + Math.floor((i * window) / seed);
        const text = p.needle
          ? `could you check ${NEEDLE} ${4711 + i} before the release`
          : sentence(next, i);
        built.push({ i, p, at, text });
      }
      const sent = await Promise.all(
        built.filter((b) => b.p.outgoing).map(async (b) => ({
          i: b.i,
          record: sentRecord({
            alias: "main",
            chatId: b.p.chatId,
            to: { receive_id: b.p.chatId, receive_id_type: "chat_id" },
            providerIds: [`om_hist_${b.i}`],
            content: await normaliseOutbound({ content: { type: "text", text: b.text } }),
            at: b.at,
          }),
        })),
      );
      const sentOf = new Map(sent.map((s) => [s.i, s.record]));
      // One transaction a record, as the conversation log writes them.
      for (const { i, p, at, text } of built) {
        const out = sentOf.get(i);
        if (out) {
          conversation.record("main", { kind: "sent", record: out });
          continue;
        }
        const envelope = {
          schema: "2.0",
          header: {
            event_id: `ev_hist_${i}`,
            event_type: "im.message.receive_v1",
            create_time: String(at),
            app_id: D.appId,
            tenant_key: D.tenantKey,
            token: "",
          },
          event: {
            sender: {
              sender_id: {
                open_id: p.sender.openId,
                user_id: p.sender.userId,
                union_id: p.sender.unionId,
              },
              sender_type: "user",
              tenant_key: D.tenantKey,
            },
            message: {
              message_id: `om_hist_${i}`,
              create_time: String(at),
              update_time: String(at),
              chat_id: p.chatId,
              chat_type: p.chatType,
              message_type: "text",
              content: JSON.stringify({ text }),
            },
          },
        };
        const record = normaliseMessage(envelope, {
          alias: "main",
          botOpenId: D.botOpenId,
          nowMs: at,
        })!.record;
        conversation.record("main", { kind: "message", record }, { eventId: `ev_hist_${i}` });
        store.records.markNotified("main", record.id);
        if (p.needle) seedNeedles++;
      }
    }
    const seqHi = store.records.lastSeq();
    if (seqHi - seqLo + 1 !== seed) {
      throw new Error(`Expected ${seed} seed rows but found ${seqHi - seqLo + 1}`);
    }
    const seedSeconds = (performance.now() - t0) / 1000;

    const t1 = performance.now();
    // The copies touch index pages all over a file of gigabytes: a page cache
    // of 1 GiB for this connection keeps them in memory (2 MiB by default).
    store.db.exec("PRAGMA cache_size = -1048576");
    const copy = copier(store.db, seqLo, seqHi);
    // Blocks: the seed (0), full copies 1..full-1, then a partial copy of `rest` rows.
    const full = Math.floor(n / seed);
    const rest = n - full * seed;
    const newest = rest > 0 ? full : full - 1;
    let needles = seedNeedles;
    for (let k = 1; k <= newest; k++) {
      const limit = k < full ? seed : rest;
      // Every block is read but the newest, whose last UNREAD_TAIL rows are not.
      const read = k < newest ? Number.MAX_SAFE_INTEGER : seqLo + limit - 1 - UNREAD_TAIL;
      store.transaction(() => copy(k, k * window, limit, read));
      needles += rows.slice(0, limit).filter((r) => r.needle).length;
    }
    // The seed is the oldest block: read, unless it is also the newest.
    store.db.prepare(
      `UPDATE records SET is_read = 1 WHERE direction = 'incoming' AND seq BETWEEN ? AND ?`,
    ).run(seqLo, newest > 0 ? seqHi : seqHi - UNREAD_TAIL);
    const copySeconds = (performance.now() - t1) / 1000;
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const counted = Number(
      store.db.prepare(
        `SELECT COUNT(*) AS n FROM records WHERE account = 'main' AND direction = 'incoming'
           AND hidden = 0 AND search_text LIKE '%' || ? || '%'`,
      ).get(NEEDLE)?.n,
    );
    if (counted !== needles) {
      throw new Error(`Expected ${needles} needle records but the store holds ${counted}`);
    }
    const total = Number(store.db.prepare("SELECT COUNT(*) AS n FROM records").get()?.n);
    if (total !== n) throw new Error(`Expected ${n} records but the store holds ${total}`);
    let bytes = 0;
    for (const f of ["store.db", "store.db-wal"]) {
      bytes += await Deno.stat(`${store.path.slice(0, -"store.db".length)}${f}`).then(
        (s) => s.size,
        () => 0,
      );
    }
    return {
      records: n,
      needles,
      seconds: (performance.now() - t0) / 1000,
      seedSeconds,
      copySeconds,
      dbMiB: bytes / 1024 / 1024,
    };
  } finally {
    store.close();
  }
}

/**
 * The SQL copy of the seed rows `lo..hi`: `copy(k, shiftMs, limit, readUpToSeq)`
 * inserts the first `limit` seed rows again with ids suffixed `_c<k>`, times
 * shifted by `shiftMs`, incoming ones read when their seed row's seq is at
 * most `readUpToSeq`, and their chunk index rows.
 */
function copier(
  db: DatabaseSync,
  lo: number,
  hi: number,
): (k: number, shiftMs: number, limit: number, readUpToSeq: number) => void {
  const columns = db.prepare("PRAGMA table_info(records)").all().map((c) => String(c.name))
    .filter((c) => c !== "seq");
  const rewritten: Record<string, string> = {
    id: "nid",
    feishu_message_id: "nmid",
    feishu_event_id: "nev",
    create_time: "nt",
    is_read: "CASE WHEN direction = 'incoming' AND seq <= :read THEN 1 ELSE is_read END",
    record: `json_replace(record,
      '$.id', nid, '$.feishu_message_id', nmid, '$.create_time_ms', nt, '$.date', niso,
      '$.sent_at', niso, '$.feishu_message_ids[0]', nmid, '$.message_ids[0]', nid,
      '$.chunks[0].message_id', nid,
      '$.feishu.header.event_id', nev, '$.feishu.header.create_time', CAST(nt AS TEXT),
      '$.feishu.event.message.message_id', nmid,
      '$.feishu.event.message.create_time', CAST(nt AS TEXT),
      '$.feishu.event.message.update_time', CAST(nt AS TEXT))`,
  };
  const src = `SELECT *,
      replace(id, feishu_message_id, replace(feishu_message_id, 'om_hist_', :om)) AS nid,
      replace(feishu_message_id, 'om_hist_', :om) AS nmid,
      replace(feishu_event_id, 'ev_hist_', :ev) AS nev,
      CAST(create_time + :shift AS INTEGER) AS nt,
      strftime('%Y-%m-%dT%H:%M:%SZ', CAST(create_time + :shift AS INTEGER) / 1000, 'unixepoch')
        AS niso
    FROM records WHERE seq BETWEEN :lo AND :hi ORDER BY seq LIMIT :limit`;
  const insert = db.prepare(
    `INSERT INTO records (${columns.join(", ")})
     SELECT ${columns.map((c) => rewritten[c] ?? c).join(", ")} FROM (${src})`,
  );
  // The seed's chunk index rows, once (record_chunks has no index on record_id).
  db.exec("DROP TABLE IF EXISTS temp.seed_chunks");
  db.prepare(
    `CREATE TEMP TABLE seed_chunks AS
     SELECT c.account, c.message_id, c.record_id, r.feishu_message_id AS mid, r.seq AS seq
     FROM record_chunks c CROSS JOIN records r ON r.account = c.account AND r.id = c.record_id
     WHERE r.seq BETWEEN ? AND ?`,
  ).run(lo, hi);
  const chunks = db.prepare(
    `INSERT INTO record_chunks (account, message_id, record_id)
     SELECT account, replace(message_id, mid, replace(mid, 'om_hist_', :om)),
       replace(record_id, mid, replace(mid, 'om_hist_', :om))
     FROM temp.seed_chunks WHERE seq < :lo + :limit`,
  );
  return (k, shift, limit, read) => {
    // Each copy's ids share a prefix, so its index entries land together (fast at 1M).
    const tag = `c${String(k).padStart(4, "0")}_`;
    insert.run({ om: `om_${tag}`, ev: `ev_${tag}`, shift, lo, hi, limit, read });
    chunks.run({ om: `om_${tag}`, lo, limit });
  };
}
