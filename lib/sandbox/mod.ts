/**
 * `sandbox`: the loopback Feishu emulator with its web chat page, the bridge
 * (spawned exactly as an agent runtime would, through `main.ts serve`) and a
 * demo agent that answers, so the whole loop runs with no tenant and no LLM.
 * @module
 */

import { join } from "node:path";
import type { LaunchOptions } from "../config/mod.ts";
import { type App, serveCommand } from "../launch/mod.ts";
import { DEFAULT_IDS, startEmulator } from "../emulator/mod.ts";
import { Client, StdioClientTransport } from "../mcp/client.ts";
import { answer, type ChannelPush, toolCaller } from "./demo_agent.ts";
import { eventsLoggingCaller } from "./events_log.ts";
import { seedDemoAgent } from "../../commands/mod.ts";

function say(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}

/** Runs the sandbox until interrupted (Ctrl-C); `app` is what runs (source, bundle, binary). */
export async function runSandbox(launch: LaunchOptions, app: App): Promise<void> {
  const port = launch.port ?? 8787;
  const emu = await startEmulator({ port, chatRateLimit: 5 }).catch(() =>
    startEmulator({ chatRateLimit: 5 })
  );
  const workdir = launch.workdirExplicit ? launch.workdir : join(app.appDir, ".work", "sandbox");
  await Deno.mkdir(workdir, { recursive: true });
  // A small agent directory, so /status, /kanban, /system and /brief show real content.
  // The default workdir's parent is the sandbox's own folder: a sibling agent may live there.
  const seeded = await Deno.stat(join(workdir, ".agent.json")).then(() => true, () => false);
  if (!seeded) {
    await seedDemoAgent(workdir, launch.workdirExplicit ? {} : { sibling: "scout" });
  }
  const configPath = join(workdir, "sandbox-config.json");
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
  say("\nTo drive the bridge from your own MCP client instead of the demo agent, run");
  say("FEISHU_SANDBOX_NO_AGENT=1 deno task sandbox and use:");
  say(
    JSON.stringify(
      { mcpServers: { feishu: bridge } },
      null,
      2,
    ),
  );

  let client: Client | null = null;
  if (!noAgent) {
    // "auto" opens with `server/discover` (2026-07-28) and would fall back to `initialize`.
    client = new Client({ name: "feishu-sandbox-demo-agent", version: "1.0.0" }, {
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
        ).catch((err) => say(`demo agent: ${String(err)}`));
      }
      return Promise.resolve();
    };
    const transport = new StdioClientTransport({
      command: bridge.command,
      args: bridge.args,
      cwd: app.appDir,
      stderr: "inherit",
    });
    await client.connect(transport);
    await client.listTools();
    say(
      "\nDemo agent connected. Open the page, pick Alice's DM and say hello (try: help, progress, card, table).\n",
    );
  }

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  });
  say("\nstopping…");
  await client?.close();
  await emu.close();
}
