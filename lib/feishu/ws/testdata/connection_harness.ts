/**
 * Test-only helpers: a long connection to an emulator on a manual clock, with
 * recorders for events, connections, statuses and log lines, and waits that
 * resolve on those records instead of sleeping.
 * @module
 */

import { createLogger, ManualClock } from "../../../core/mod.ts";
import { DEFAULT_IDS, type Emulator } from "../../../emulator/mod.ts";
import { startLongConnection } from "../connection.ts";
import type {
  ConnectedInfo,
  LongConnection,
  LongConnectionOptions,
  LongConnectionStatus,
  RawEnvelope,
} from "../types.ts";

/** A connection under test and what it saw. */
export interface Harness extends AsyncDisposable {
  conn: LongConnection;
  clock: ManualClock;
  envelopes: RawEnvelope[];
  connected: ConnectedInfo[];
  statuses: LongConnectionStatus[];
  logs: string[];
  /** Resolves with the current status, or the first later one, that satisfies `pred`. */
  waitStatus(pred: (s: LongConnectionStatus) => boolean): Promise<LongConnectionStatus>;
  /** Resolves once `onConnected` ran `n` times. */
  waitConnected(n: number): Promise<ConnectedInfo>;
}

/** Starts a long connection to `emu`; `onEvent` defaults to resolving undefined. */
export function connectTo(
  emu: Emulator,
  overrides: Partial<LongConnectionOptions> = {},
): Harness {
  const clock = new ManualClock(1_000_000);
  const envelopes: RawEnvelope[] = [];
  const connected: ConnectedInfo[] = [];
  const statuses: LongConnectionStatus[] = [];
  const logs: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  const until = <T>(probe: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = () => {
        const v = probe();
        if (v === undefined) return;
        waiters.delete(check);
        resolve(v);
      };
      waiters.add(check);
      check();
    });
  const userOnEvent = overrides.onEvent;
  const conn = startLongConnection({
    alias: "main",
    appId: DEFAULT_IDS.appId,
    appSecret: DEFAULT_IDS.appSecret,
    baseUrl: emu.url,
    clock,
    log: createLogger({ level: "debug", sink: (l) => logs.push(l), now: () => clock.now() }),
    proxyEnv: { get: () => undefined },
    watchdog: { random: () => 0.5 },
    ...overrides,
    onEvent: (envelope) => {
      envelopes.push(envelope);
      wake();
      return userOnEvent ? userOnEvent(envelope) : Promise.resolve(undefined);
    },
    onConnected: (info) => {
      connected.push(info);
      wake();
      return overrides.onConnected?.(info);
    },
    onStatus: (s) => {
      statuses.push(s);
      wake();
      overrides.onStatus?.(s);
    },
  });
  return {
    conn,
    clock,
    envelopes,
    connected,
    statuses,
    logs,
    waitStatus: (pred) => {
      const from = statuses.length;
      return until(() => {
        const s = conn.status();
        return pred(s) ? s : statuses.slice(from).find(pred);
      });
    },
    waitConnected: (n) => until(() => connected[n - 1]),
    [Symbol.asyncDispose]: () => conn.close(),
  };
}
