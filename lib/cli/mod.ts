/**
 * The command line, shared by every form of the app (source, bundle,
 * compiled): `serve` (default) confines itself, then serves MCP over stdio;
 * `sandbox` runs the emulator, the web page, the bridge and a demo agent;
 * `canary` checks a real tenant end to end and exits with its verdict;
 * `doctor` reports on a workdir read-only and exits 0 (healthy) or 1;
 * `setup` registers a new Feishu app by QR code and writes its config.
 * `--help` (`-h`) of any of them prints its text (`help.ts`) and starts nothing.
 * This router sits above `launch/`, `service/` and `sandbox/`, so none of
 * them imports another to start it.
 * @module
 */

import { type LaunchOptions, resolveLaunch } from "../config/launch.ts";
import { type App, ensureConfined, fail } from "../launch/mod.ts";
// Each command's modules load by URL (see lazy.ts): the others' graphs are never prepared.
import { loadLazy } from "../core/lazy.ts";
import { helpFor } from "./help.ts";

/** Runs the program named by `Deno.args`; returns when it is done (or exits). */
export async function runCli(app: App): Promise<void> {
  // Before anything reads the environment or a config: help needs neither.
  const help = helpFor(Deno.args);
  if (help !== null) {
    Deno.stdout.writeSync(new TextEncoder().encode(help));
    return;
  }
  let launch: LaunchOptions;
  try {
    launch = resolveLaunch({ args: Deno.args, env: Deno.env.toObject(), cwd: Deno.cwd() });
  } catch (err) {
    fail((err as Error).message);
  }
  switch (launch.subcommand) {
    case "sandbox": {
      const { runSandbox } = await loadLazy<typeof import("../sandbox/mod.ts")>(
        "sandbox",
        new URL("../sandbox/mod.ts", import.meta.url),
      );
      return await runSandbox(launch, app);
    }
    case "canary": {
      // Unconfined but read-only: it opens no store and writes no workdir state.
      const { runCanary } = await loadLazy<typeof import("../canary/mod.ts")>(
        "canary",
        new URL("../canary/mod.ts", import.meta.url),
      );
      const out = (stream: typeof Deno.stdout) => (text: string) =>
        void stream.writeSync(new TextEncoder().encode(text));
      const words = [...Deno.args];
      words.splice(words.indexOf("canary"), 1);
      const code = await runCanary(words, {
        vars: Deno.env.toObject(),
        cwd: Deno.cwd(),
        stdout: out(Deno.stdout),
        stderr: out(Deno.stderr),
      });
      // Explicit, as for serve: a socket the SDK still holds must not keep the process alive.
      return Deno.exit(code);
    }
    case "doctor": {
      const { runDoctor } = await loadLazy<typeof import("../doctor/mod.ts")>(
        "doctor",
        new URL("../doctor/mod.ts", import.meta.url),
      );
      // A report, then its verdict as the exit code (0 healthy, 1 attention).
      return Deno.exit(await runDoctor(launch));
    }
    case "setup": {
      const { runSetup } = await loadLazy<typeof import("../setup/mod.ts")>(
        "setup",
        new URL("../setup/mod.ts", import.meta.url),
      );
      return Deno.exit(await runSetup(launch, app));
    }
    case "serve": {
      await ensureConfined(app, launch);
      const { serve } = await loadLazy<typeof import("../service/mod.ts")>(
        "service",
        new URL("../service/mod.ts", import.meta.url),
      );
      await serve(launch);
      // Everything durable is closed by now. Exit explicitly: an HTTP request the
      // shutdown aborted (a stalled download) can keep Deno's node:http socket, and
      // so the process, alive until the host loses patience and kills it.
      Deno.exit(0);
    }
  }
}
