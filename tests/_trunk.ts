/**
 * Test rig for the composition root in-process: `startService` on a temp
 * workdir with a config pointing at the emulator, the workdir lock, a push
 * target that records every call, and the inbound seams and conversation
 * listeners a test plugs in.
 * Waits use the recorded pushes (one per notified message) and the
 * emulator's change feed.
 * @module
 */

import { join } from "node:path";
import { createLogger, type Deps, Redactor, stateDir, systemClock } from "../lib/core/mod.ts";
import type { RecordedListener } from "../lib/conversation/mod.ts";
import type { InboundSeams } from "../lib/inbound/mod.ts";
import type { PushTarget } from "../lib/notify/mod.ts";
import { type Service, startService } from "../lib/service/start.ts";
import { lockWorkdir } from "../lib/store/mod.ts";
import { bridgeConfig, type ChannelPush, Tally, until } from "./_inbound.ts";

/** A started service with what it pushed. */
export interface Trunk extends AsyncDisposable {
  service: Service;
  workdir: string;
  /** Claude channel pushes: one per notified message. */
  channel: Tally<ChannelPush>;
  /** `resources/updated` URIs. */
  updates: Tally<string>;
  /** One `feishu` call through the service's app. */
  call(action: string, input?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Every record of a chat, oldest first. */
  records(chatId: string): Promise<Record<string, unknown>[]>;
  /** Resolves once the journal holds and runs nothing. */
  drained(): Promise<void>;
  close(): Promise<void>;
}

/** What a test plugs into the service: inbound seams and conversation listeners. */
export interface TrunkPlugs {
  seams?: InboundSeams;
  listeners?: RecordedListener[];
}

/**
 * Starts the service against the emulator at `url` with one account `main`.
 * `plugs` may be a function of the service-to-be (for plugs that read
 * through it).
 */
export async function startTrunk(
  url: string,
  plugs: TrunkPlugs | ((trunk: () => Trunk) => TrunkPlugs),
): Promise<Trunk> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-trunk-" });
  const configPath = join(workdir, "config.json");
  await Deno.writeTextFile(configPath, JSON.stringify(bridgeConfig(url)));
  const channel = new Tally<ChannelPush>();
  const updates = new Tally<string>();
  const push: PushTarget = {
    notifyChannel: (params) => Promise.resolve(channel.push(params)),
    notifyResourceUpdated: (uri) => Promise.resolve(updates.push(uri)),
  };
  const redactor = new Redactor();
  const deps: Deps = {
    clock: systemClock,
    newId: () => crypto.randomUUID(),
    log: createLogger({ redactor, sink: () => {} }),
    redactor,
  };
  let trunk: Trunk | null = null;
  const self = () => {
    if (!trunk) throw new Error("Expected the service to have started");
    return trunk;
  };
  const service = await startService(
    {
      subcommand: "serve",
      configPath,
      configSource: "flag",
      workdir,
      workdirExplicit: true,
      mcpName: "feishu",
      port: null,
      confined: false,
    },
    deps,
    {
      lock: lockWorkdir(stateDir(workdir)),
      push,
      ...(typeof plugs === "function" ? plugs(self) : plugs),
    },
  );
  const call = (action: string, input: Record<string, unknown> = {}) =>
    service.app.callTool({ action, input, reasoning: "test" });
  let closed = false;
  trunk = {
    service,
    workdir,
    channel,
    updates,
    call,
    async records(chatId) {
      const out = await call("read", { chat_id: chatId, limit: null });
      if (out.status !== "ok") throw new Error(`read failed: ${JSON.stringify(out)}`);
      return (out.messages as Record<string, unknown>[]).reverse();
    },
    async drained() {
      await until(() => {
        const j = service.status().journal;
        return Promise.resolve(j !== undefined && j.pending === 0 && j.in_flight === 0);
      }, { what: "the journal to drain" });
    },
    async close() {
      if (closed) return;
      closed = true;
      channel.end("the service closed");
      updates.end("the service closed");
      await service.close();
      await Deno.remove(workdir, { recursive: true });
    },
    [Symbol.asyncDispose]: () => self().close(),
  };
  return trunk;
}
