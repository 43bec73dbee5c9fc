/**
 * `sandbox`: the loopback Feishu emulator with its web chat page, the bridge
 * (spawned exactly as an agent runtime would, through `main.ts serve`) and a
 * demo agent that answers, so the whole loop runs with no tenant and no LLM.
 *
 * Every run answers like the first: the workdir keeps the bridge's state and
 * the emulator's world together (`world_file.ts`), and each run's new ids are
 * its own. Ctrl-C stops it all within two seconds (`shutdown.ts`).
 * @module
 */

import { join } from "node:path";
import type { LaunchOptions } from "../config/mod.ts";
import { type App, serveCommand } from "../launch/mod.ts";
import { DEFAULT_IDS, type Emulator, startEmulator } from "../emulator/mod.ts";
import { Client, StdioClientTransport } from "../mcp/client.ts";
import { answer, type ChannelPush, toolCaller } from "./demo_agent.ts";
import { eventsLoggingCaller } from "./events_log.ts";
import { Shutdown } from "./shutdown.ts";
import { claimWorkdir, SANDBOX_CONFIG, setAsideBridgeState } from "./workdir.ts";
import { keepWorld, loadWorld } from "./world_file.ts";
import { seedDemoAgent } from "../../commands/mod.ts";

/** The page's port when `--port` is not given (any free one when it is busy). */
const DEFAULT_PORT = 8787;

function say(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}

/** Runs the sandbox until interrupted (Ctrl-C); `app` is what runs (source, bundle, binary). */
export async function runSandbox(launch: LaunchOptions, app: App): Promise<void> {
  const shutdown = new Shutdown(say);
  try {
    await start(launch, app, shutdown);
  } catch (err) {
    if (!shutdown.stopping) {
      say(`feishu-mcp sandbox: ${(err as Error).message}`);
      await shutdown.stop(1);
    }
  }
  // Runs until a signal: `stop` exits the process.
  await new Promise(() => {});
}

async function start(launch: LaunchOptions, app: App, shutdown: Shutdown): Promise<void> {
  const running = shutdown.running;
  const workdir = launch.workdirExplicit ? launch.workdir : join(app.appDir, ".work", "sandbox");
  await Deno.mkdir(workdir, { recursive: true });
  const claimed = claimWorkdir(workdir);
  running.workdir = claimed;

  const saved = await loadWorld(claimed.emulatorDir);
  const emu = await listen(launch.port, {
    chatRateLimit: 5,
    world: saved.world,
    // This run's ids (`om_emu_<run>_0001`) cannot repeat an id the bridge stored earlier.
    idNamespace: `${saved.run}_`,
  });
  running.emulator = emu;
  const setAside = saved.world ? null : setAsideBridgeState(workdir, saved.run);
  claimed.describe(emu.url);
  running.world = await keepWorld(emu, claimed.emulatorDir, saved.run, (err) => {
    say(`feishu-mcp sandbox: the emulator world could not be saved: ${err.message}`);
  });

  // A small agent directory, so /status, /kanban, /system and /brief show real content.
  // The default workdir's parent is the sandbox's own folder: a sibling agent may live there.
  const seeded = await Deno.stat(join(workdir, ".agent.json")).then(() => true, () => false);
  if (!seeded) {
    await seedDemoAgent(workdir, launch.workdirExplicit ? {} : { sibling: "scout" });
  }
  const configPath = join(workdir, SANDBOX_CONFIG);
  await Deno.writeTextFile(
    configPath,
    JSON.stringify(
      {
        accounts: [{
          alias: "sandbox",
          app_id: DEFAULT_IDS.appId,
          app_secret: DEFAULT_IDS.appSecret,
          domain: emu.url,
          // Alice owns the demo agent (its controls); Bob shows what anyone else gets.
          owners: [DEFAULT_IDS.alice.openId],
        }],
      },
      null,
      2,
    ) + "\n",
  );
  const bridge = serveCommand(app, { configPath, workdir });
  const noAgent = Deno.env.get("FEISHU_SANDBOX_NO_AGENT") === "1";
  say(`\nFeishu emulator + web chat: ${emu.url}/`);
  say(`Workdir: ${workdir}`);
  say(`Config:  ${configPath}`);
  say(saved.note);
  if (setAside) say(setAside);
  say("\nTo drive the bridge from your own MCP client instead of the demo agent, run");
  say("FEISHU_SANDBOX_NO_AGENT=1 deno task sandbox and use:");
  say(JSON.stringify({ mcpServers: { feishu: bridge } }, null, 2));
  if (noAgent) {
    say("\nNo demo agent (FEISHU_SANDBOX_NO_AGENT=1). Ctrl-C stops the sandbox.\n");
    return;
  }

  // "auto" opens with `server/discover` (2026-07-28) and would fall back to `initialize`.
  const client = new Client({ name: "feishu-sandbox-demo-agent", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
  });
  const agent = eventsLoggingCaller(workdir, toolCaller(client));
  await agent.open();
  client.fallbackNotificationHandler = (n) => {
    if (n.method === "notifications/claude/channel") {
      const push = n.params as unknown as ChannelPush;
      agent.round(
        `Answering ${push.meta.user ?? "someone"}: ${push.content.slice(0, 80)}`,
        () => answer(push, agent.call),
      ).catch((err) => {
        if (!shutdown.stopping) say(`demo agent: ${String(err)}`);
      });
    }
    return Promise.resolve();
  };
  const transport = new StdioClientTransport({
    command: bridge.command,
    args: bridge.args,
    cwd: app.appDir,
    stderr: "inherit",
  });
  if (shutdown.stopping) return; // a Ctrl-C during the start: spawn nothing more
  let pid: number | null = null;
  running.bridge = {
    close: () => client.close(),
    pid: () => (pid = transport.pid ?? pid),
  };
  await shutdown.unlessStopped(client.connect(transport));
  running.bridge.pid();
  client.onclose = () => {
    if (shutdown.stopping) return;
    say("feishu-mcp sandbox: the bridge stopped (its log is above), so the sandbox stops too");
    void shutdown.stop(1);
  };
  await shutdown.unlessStopped(client.listTools());
  say(
    "\nDemo agent connected. Open the page, pick Alice's DM and say hello (try: help, progress, card, table).\n",
  );
}

/**
 * The emulator on `port`: a busy port that was asked for is an error naming
 * it; the default one, when busy, gives way to any free port, said so.
 */
async function listen(
  port: number | null,
  options: Parameters<typeof startEmulator>[0],
): Promise<Emulator> {
  const at = async (p: number) => {
    try {
      return await startEmulator({ ...options, port: p });
    } catch (err) {
      if (err instanceof Deno.errors.AddrInUse) return null;
      throw new Error(`Cannot listen on 127.0.0.1:${p}: ${(err as Error).message}`);
    }
  };
  if (port !== null) {
    const emu = await at(port);
    if (emu) return emu;
    throw new Error(
      `Port ${port} is already in use on 127.0.0.1: stop what listens there, ` +
        "or pick another with --port (0 = any free port).",
    );
  }
  const emu = await at(DEFAULT_PORT) ?? await at(0);
  if (!emu) throw new Error("Cannot find a free port on 127.0.0.1");
  if (emu.port !== DEFAULT_PORT) {
    say(
      `Port ${DEFAULT_PORT} is busy, so the sandbox uses ${emu.port} (choose one with --port).`,
    );
  }
  return emu;
}
