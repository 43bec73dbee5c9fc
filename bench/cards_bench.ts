// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * Card callback ACK latency while the agent is busy, measured in one run on
 * the loopback emulator (our server over stdio exactly as an agent spawns
 * it). One chat's worker is held by an image whose download the emulator
 * delays (on its manual clock), then N clicks on a card in that chat arrive
 * at a steady rate: each click's wall time from the click to its ACK, p50 and
 * p99, against a bare node-sdk `WSClient` whose `card.action.trigger` handler
 * returns the same toast at once (its own process, like ours), in alternating
 * batches so a shared machine's noise falls on both alike. Sanity: none
 * of the N clicks is recorded before the image is released, and exactly N
 * `card_action` records are written after it (the module throws otherwise).
 */

import * as lark from "@larksuiteoapi/node-sdk";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "../tests/_inbound.ts";
import { type BenchResult, formatResults, percentile } from "./_types.ts";
import { startBareClient } from "./_inbound_load.ts";

const N = 200;
const WARM = 20;
const RATE = 100;
const ROUNDS = 4;
const HOLD_MS = 60_000;
const CHAT = D.aliceP2p;
const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";
const TOAST = "Sent to the agent.";
/** Past 10 wakes a minute per person, a click is recorded without a wake, answered at once too. */
const THROTTLED = "Too many clicks: this one is recorded, but it does not wake the agent.";
const CARD = {
  schema: "2.0",
  body: {
    elements: [{
      tag: "button",
      text: { tag: "plain_text", content: "Go" },
      behaviors: [{ type: "callback", value: { n: 1 } }],
    }],
  },
};
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/**
 * Alice clicks the card `n` times at `RATE` per second; resolves with each
 * click's latency (ms) from the click to its applied ACK. Throws on a click
 * that was not answered with 200 and one of the expected toasts.
 */
async function clickStream(emu: Emulator, cardId: string, n: number): Promise<number[]> {
  const latencies: number[] = [];
  const done: Promise<unknown>[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = performance.now();
    const click = emu.clickCard({ user: D.alice.openId, messageId: cardId, value: { n: i } });
    done.push(click.result.then((r) => {
      latencies.push(performance.now() - t);
      const content = r.toast?.content;
      if (r.timedOut || r.ackCode !== 200 || (content !== TOAST && content !== THROTTLED)) {
        throw new Error(`Expected a 200 ACK with a toast but found ${JSON.stringify(r)}`);
      }
    }));
  }
  await Promise.all(done);
  return latencies;
}

/** Holds the chat: Alice sends an image whose download waits until the clock is advanced. */
async function holdChat(emu: Emulator, expectDownload: boolean): Promise<void> {
  emu.faults.add({ method: "GET", path: RESOURCE, times: 1, respond: { delayMs: HOLD_MS } });
  const image = emu.userSends({
    user: D.alice.openId,
    chat: CHAT,
    image: { bytes: crypto.getRandomValues(new Uint8Array(2048)) },
  });
  await image.ack;
  if (expectDownload) {
    await emu.waitFor(() => emu.requests({ method: "GET", path: RESOURCE }).length === 1);
  }
}

/** The card_action records of the chat. */
async function cardActions(bridge: Bridge): Promise<number> {
  const records = await bridge.records(CHAT);
  return records.filter((r) => r.message_type === "card_action").length;
}

/** Resolves once the chat holds at least `n` card_action records. */
async function recorded(bridge: Bridge, n: number): Promise<void> {
  await until(async () => (await cardActions(bridge)) >= n || undefined, {
    guardMs: 60_000,
    what: `${n} card_action records`,
  });
}

/** One side of the comparison, its chat held and its card ready to click. */
interface Side {
  emu: Emulator;
  cardId: string;
  close(): Promise<void>;
}

/** Our server with its card sent, warmed up, and its chat held by the image. */
async function oursSide(clock: ManualEmuClock): Promise<Side & { bridge: Bridge }> {
  const emu = await startEmulator({ clock });
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  const close = async () => {
    await bridge.close();
    await emu.close();
  };
  try {
    await emu.ws.whenReady();
    const out = await bridge.call("send", {
      receive_id: CHAT,
      receive_id_type: "chat_id",
      content: { type: "card", card: CARD },
    });
    if (out.status !== "sent") throw new Error(`Expected the card sent but found ${out.status}`);
    const cardId = emu.lastSent(CHAT)!.messageId;
    await clickStream(emu, cardId, WARM); // warm up, handled at once
    // Counted as records: past 10 a minute, one person's clicks no longer wake the agent.
    await recorded(bridge, WARM);
    await holdChat(emu, true);
    return { emu, cardId, bridge, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The bot's card in the chat, sent through the node-sdk (the bare client sends nothing). */
async function sdkCard(emu: Emulator): Promise<string> {
  const tokens = new Map<string, unknown>();
  const client = new lark.Client({
    appId: D.appId,
    appSecret: D.appSecret,
    domain: emu.url,
    logger: { error() {}, warn() {}, info() {}, debug() {}, trace() {} },
    cache: {
      get: (key) => Promise.resolve(tokens.get(String(key))),
      set: (key, value) => Promise.resolve(tokens.set(String(key), value) && true),
    },
  });
  const sent = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: CHAT, msg_type: "interactive", content: JSON.stringify(CARD) },
  });
  return sent.data!.message_id!;
}

/** The bare client with the bot's card, warmed up, and the same image pushed. */
async function bareSide(): Promise<Side> {
  const emu = await startEmulator({ clock: new ManualEmuClock(Date.now()) });
  const client = startBareClient(emu);
  const close = async () => {
    await client.stop();
    await emu.close();
  };
  try {
    await emu.ws.whenReady();
    const cardId = await sdkCard(emu);
    await clickStream(emu, cardId, WARM);
    await holdChat(emu, false); // the same pushes; the bare client downloads nothing
    return { emu, cardId, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Both sides' latencies, in alternating batches (noise on a shared machine
 * falls on both alike), then our chat released and its records counted.
 */
async function measure() {
  const clock = new ManualEmuClock(Date.now());
  const b = await bareSide();
  try {
    const o = await oursSide(clock);
    try {
      const ours: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        bare.push(...await clickStream(b.emu, b.cardId, N / ROUNDS));
        ours.push(...await clickStream(o.emu, o.cardId, N / ROUNDS));
      }
      const before = await cardActions(o.bridge) - WARM;
      const t0 = performance.now();
      clock.advance(HOLD_MS);
      await recorded(o.bridge, WARM + N);
      const drainMs = performance.now() - t0;
      const written = await cardActions(o.bridge) - WARM;
      if (before !== 0 || written !== N) {
        throw new Error(
          `Expected 0 card_action records before the image and ${N} after but found ${before} and ${written}`,
        );
      }
      return { ours, bare, before, written, drainMs };
    } finally {
      await o.close();
    }
  } finally {
    await b.close();
  }
}

/** Runs the card callback benchmark (about 25 s). */
export async function run(): Promise<BenchResult[]> {
  const m = await measure();
  const over = (xs: number[]) => xs.filter((x) => x > 3000).length;
  const figure = (p: number): BenchResult => {
    const value = percentile(m.ours, p);
    const baseline = percentile(m.bare, p);
    return {
      name: `card callback ACK latency p${p}, ${N} clicks in one busy chat at ${RATE}/s`,
      value: round(value),
      unit: "ms",
      baseline: round(baseline),
      ratio: round(value / baseline),
      note: `worker held by an image download; baseline: bare node-sdk WSClient toasting at ` +
        `once; over 3 s (Feishu's 200341): ${over(m.ours)} vs ${over(m.bare)}`,
    };
  };
  return [
    figure(50),
    figure(99),
    {
      name: "card_action records written after the chat was released",
      value: m.written,
      unit: "records",
      note: `expected ${N}; ${m.before} written while held; drained with the image in ${
        (m.drainMs / 1000).toFixed(2)
      } s`,
    },
  ];
}

if (import.meta.main) console.log(formatResults(await run()));
