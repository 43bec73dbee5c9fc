/**
 * Fuzz, inbound: real envelopes the emulator builds (texts, posts, images,
 * files, mentions, replies, reactions, read receipts, recalls, the bot added)
 * are mutated (a node replaced by an awkward value, removed, its type
 * changed, deep nesting, huge strings) or broken at the byte level, and
 * pushed over the long connection as data frames to the real server. Every
 * frame is ACKed, the server stays up, the journal drains, a normal message
 * after the storm is still recorded, every Feishu write the server made
 * concerns a message it recorded, and no internal error is logged.
 * `CHAOS_SEED` replays; `FUZZ_ENVELOPES` scales.
 */

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import fc from "fast-check";
import {
  DEFAULT_IDS as D,
  type Emulator,
  encodeFrame,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, serverPid, startBridge, until } from "./_inbound.ts";
import { chaosRng, drainedJournal, envCount, printFigures } from "./_chaos.ts";

type Rec = Record<string, unknown>;
const FRAMES = envCount("FUZZ_ENVELOPES", 200);
/** The emulator's default `service_id`, which its own frames carry. */
const SERVICE_ID = 33554678;

/** Real envelopes of many kinds, built by the emulator and never pushed. */
function baseEnvelopes(emu: Emulator): Rec[] {
  const lost = { lost: true };
  const hello = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "base", push: lost });
  const root = emu.userSends({
    user: D.alice.openId,
    chat: D.topics,
    text: "root",
    mentions: ["bot"],
    push: lost,
  });
  const inbound = [
    hello,
    root,
    emu.userSends({
      user: D.bob.openId,
      chat: D.team,
      text: "hi @bot",
      mentions: ["bot"],
      push: lost,
    }),
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      post: { title: "t", content: [[{ tag: "text", text: "p" }]] },
      push: lost,
    }),
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      image: { bytes: new Uint8Array([1, 2, 3]) },
      push: lost,
    }),
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      file: { bytes: new Uint8Array([4]), name: "f.txt" },
      push: lost,
    }),
    emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "in topic",
      mentions: ["bot"],
      replyTo: root.messageId,
      inThread: true,
      push: lost,
    }),
  ];
  const passive = [
    emu.userReacts({ user: D.alice.openId, messageId: hello.messageId!, emoji: "SMILE" }),
    emu.userReads({ user: D.alice.openId, messageIds: [hello.messageId!] }),
    emu.addBotToChat({ chat: D.team, operator: D.alice.openId }),
  ];
  return [...inbound, ...passive].map((m) =>
    structuredClone(emu.event(m.eventId)!.envelope) as unknown as Rec
  );
}

/** One frame's payload and what was done to it. */
interface Payload {
  bytes: Uint8Array;
  what: string;
}

/** Awkward replacements for a node of an envelope. */
const NASTY: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    "",
    0,
    -1,
    1e308,
    "99999999999999999999",
    true,
    [],
    {},
    "\u0000\u202e",
    "x".repeat(20_000),
    "@_user_1 @_all",
    '{"text":',
    JSON.stringify({ text: 7 }),
    "__proto__",
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 30 }),
  fc.nat({ max: 200 }).map((d) => {
    let v: unknown = "deep";
    for (let i = 0; i < d; i++) v = { a: [v] };
    return v;
  }),
);

/** Every path to a node of a JSON value. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  }
  return out;
}

/** Replaces (or with `remove`, deletes) the node at `path`. */
function mutateAt(root: Rec, path: (string | number)[], value: unknown, remove: boolean): Rec {
  if (path.length === 0) return remove ? {} : { value } as Rec;
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove && Array.isArray(node)) node.splice(Number(last), 1);
  else if (remove) delete node[last];
  else node[last] = value;
  return root;
}

/** One frame's payload: a mutated envelope, or broken bytes now and then. */
function payloads(bases: Rec[]): fc.Arbitrary<Payload> {
  const envelope = fc.tuple(
    fc.constantFrom(...bases),
    fc.array(fc.tuple(fc.nat(), NASTY, fc.boolean()), { minLength: 1, maxLength: 3 }),
    fc.nat(),
  ).map(([base, mutations, n]) => {
    let env = structuredClone(base);
    // Fresh ids first, so dedupe does not hide what a mutation does.
    const header = env.header as Rec | undefined;
    if (header) header.event_id = `ev_fuzz_${n}_${crypto.randomUUID().slice(0, 8)}`;
    const message = (env.event as Rec | undefined)?.message as Rec | undefined;
    if (message) message.message_id = `om_fuzz_${n}_${crypto.randomUUID().slice(0, 8)}`;
    const what: string[] = [];
    for (const [pick, value, remove] of mutations) {
      const all = paths(env);
      const path = all[pick % all.length]!;
      what.push(`${remove ? "-" : "~"}${path.join(".")}`);
      env = mutateAt(env, path, value, remove);
    }
    return { bytes: new TextEncoder().encode(JSON.stringify(env)), what: what.join(" ") };
  });
  const broken = fc.tuple(fc.constantFrom(...bases), fc.nat(), fc.uint8Array({ maxLength: 64 }))
    .map(([base, cut, junk]) => {
      const text = new TextEncoder().encode(JSON.stringify(base));
      const bytes = new Uint8Array([...text.slice(0, cut % text.length), ...junk]);
      return { bytes, what: `bytes cut at ${cut % text.length} + ${junk.length} junk` };
    });
  return fc.oneof({ weight: 9, arbitrary: envelope }, { weight: 1, arbitrary: broken });
}

/**
 * Mutations every run makes, whatever the seed: ids and keys past any sane
 * size or of the wrong type, where the journal and the store key on them.
 */
function targeted(base: Rec): Payload[] {
  const long = "x".repeat(5000);
  const cases: [string, (string | number)[], unknown][] = [
    ["long event_id", ["header", "event_id"], `ev_${long}`],
    ["object event_id", ["header", "event_id"], { id: 1 }],
    ["long message_id", ["event", "message", "message_id"], `om_${long}`],
    ["long chat_id", ["event", "message", "chat_id"], `oc_${long}`],
    ["numeric chat_id", ["event", "message", "chat_id"], 7],
    ["long event_type", ["header", "event_type"], `im.${long}`],
    ["no header", ["header"], null],
    ["long create_time", ["event", "message", "create_time"], "9".repeat(400)],
  ];
  return cases.map(([what, path, value], i) => {
    const env = structuredClone(base);
    (env.header as Rec).event_id = `ev_target_${i}`;
    ((env.event as Rec).message as Rec).message_id = `om_target_${i}`;
    return {
      bytes: new TextEncoder().encode(JSON.stringify(mutateAt(env, path, value, false))),
      what,
    };
  });
}

/** The Feishu message ids the store holds (read-only, beside the running server). */
function storedMessageIds(workdir: string): Set<string> {
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"), { readOnly: true });
  try {
    return new Set(
      db.prepare("SELECT json_extract(record, '$.feishu_message_id') AS id FROM records").all()
        .map((r) => String(r.id)),
    );
  } finally {
    db.close();
  }
}

/**
 * Pushes `frames` as data frames to the running server, then a normal
 * message, and checks the invariants; prints the figures first.
 */
async function fuzzRun(
  suite: string,
  emu: Emulator,
  bridge: Bridge,
  frames: Payload[],
): Promise<void> {
  const pid = await serverPid(bridge.server.workdir);
  const sent = new Map<string, string>();
  for (const [i, p] of frames.entries()) {
    const frameId = `fm_${suite}_${i}`;
    sent.set(frameId, p.what);
    emu.ws.sendRaw(encodeFrame({
      SeqID: 0,
      LogID: 0,
      service: SERVICE_ID,
      method: 1,
      headers: [
        { key: "type", value: "event" },
        { key: "message_id", value: frameId },
        { key: "sum", value: "1" },
        { key: "seq", value: "0" },
        { key: "trace_id", value: frameId },
      ],
      payload: p.bytes,
    }));
  }
  // A normal message after the storm, in another chat, is recorded and the
  // journal drains while the server keeps answering (a short per-request guard).
  const after = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "after the storm" });
  const status = async () => {
    const res = await bridge.server.client.readResource({ uri: "lingtai://status" }, {
      timeout: 15_000,
    });
    return JSON.parse((res.contents[0] as { text: string }).text) as Rec;
  };
  const alive = await until(async () => {
    const j = (await status()).journal as Rec;
    return j.pending === 0 && j.in_flight === 0 && emu.event(after.eventId)?.status === "acked";
  }, { what: "the journal to drain" }).then(() => true, () => false);
  const acked = () => new Set(emu.ws.unmatchedAcks().map((a) => a.frameId));
  // Every envelope that parses as JSON is ACKed; broken bytes need only leave the server up.
  const envelopes = [...sent.keys()].filter((id) => !sent.get(id)!.startsWith("bytes"));
  if (alive) {
    await emu.waitFor(() => envelopes.every((id) => acked().has(id)), { timeoutMs: 30_000 })
      .catch(() => {});
  }
  const unacked = envelopes.filter((id) => !acked().has(id)).map((id) => sent.get(id));
  const failedAcks = emu.ws.unmatchedAcks().filter((a) => a.code !== 200).map((a) =>
    `${a.code} ${sent.get(a.frameId)}`
  );
  const codes: Record<string, number> = {};
  for (const a of emu.ws.unmatchedAcks()) codes[a.code] = (codes[a.code] ?? 0) + 1;
  if (!alive) {
    printFigures(suite, {
      inputs: frames.length,
      alive,
      ack_codes: codes,
      failed_acks: failedAcks,
      unacked,
    });
    assert.fail(
      `the server stopped answering (status timed out) after: ${
        frames.map((f) => f.what).join(", ")
      }; failed ACKs: ${failedAcks.join(", ")}`,
    );
  }
  await until(async () =>
    (await bridge.records(D.bobP2p)).some((r) => r.feishu_message_id === after.messageId)
  );
  const journal = await drainedJournal(bridge);
  const recorded = storedMessageIds(bridge.server.workdir);
  const writes = emu.requests().filter((r) => r.method !== "GET" && !r.path.includes("/auth/"));
  const strayWrites = writes.filter((r) => {
    const id = r.path.match(/\/messages\/([^/]+)\//)?.[1];
    return id !== undefined && !recorded.has(decodeURIComponent(id));
  });
  // The SDK's own warning for a frame that is not JSON is expected; anything else is not.
  const broken = [...sent.entries()].filter(([, w]) => w.startsWith("bytes")).map(([id]) => id);
  const internal = bridge.server.stderr().split("\n").filter((l) =>
    /unexpected|uncaught|TypeError|RangeError/i.test(l) &&
    !broken.some((id) => l.includes(`message_id: ${id};`))
  );
  printFigures(suite, {
    inputs: frames.length,
    broken_bytes: broken.length,
    ack_codes: codes,
    failed_acks: failedAcks,
    unacked: unacked.length,
    recorded: recorded.size,
    feishu_writes: writes.length,
    stray_writes: strayWrites.length,
    admission: (await bridge.account()).admission,
    journal_pending: journal.pending,
    dead_letters: journal.dead_letters,
    internal_errors: internal.length,
  });
  assert.deepEqual(unacked.slice(0, 5), [], "every envelope ACKed");
  assert.deepEqual(failedAcks.slice(0, 5), [], "no handler failure (ACK 500: Feishu pushes again)");
  assert.deepEqual(internal.slice(0, 5).map((l) => l.slice(0, 300)), []);
  assert.equal(await serverPid(bridge.server.workdir), pid, "the same server throughout");
  assert.deepEqual(strayWrites.map((r) => `${r.method} ${r.path}`), []);
  assert.equal(journal.dead_letters, 0);
}

Deno.test("fuzz inbound, targeted: oversized and mistyped ids, keys and times are refused or recorded, ACKed, and the server stays up", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    await fuzzRun("fuzz-inbound-targeted", emu, bridge, targeted(baseEnvelopes(emu)[0]!));
  } finally {
    await bridge.close();
  }
});

Deno.test("fuzz inbound envelopes over the long connection: every envelope ACKed, the server stays up and drains, writes only for what it recorded", async () => {
  const rng = chaosRng("fuzz-inbound");
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const frames = fc.sample(payloads(baseEnvelopes(emu)), { numRuns: FRAMES, seed: rng.seed | 0 });
    await fuzzRun("fuzz-inbound", emu, bridge, frames);
  } finally {
    await bridge.close();
  }
});
