/**
 * Test helper: run `sandbox` (from source or from the bundle) as its own
 * process, wait until its demo agent reached the bridge, and hand back the
 * emulator URL; stopping drains the log and waits for the exit (of every
 * process that shares its stderr: the bridge and its confined server too).
 * @module
 */

/**
 * The `sandbox` task's command line (its permission flags) for `entry`, with
 * the emulator on a free port and state in `workdir`; `extra` flags go before
 * the entry (e.g. `--no-config` for the bundle).
 */
export function sandboxArgs(entry: string, workdir: string, extra: string[] = []): string[] {
  return [
    "run",
    "--no-prompt",
    "--allow-read",
    "--allow-write",
    "--allow-net",
    "--allow-env",
    "--allow-run",
    ...extra,
    entry,
    "sandbox",
    "--port",
    "0",
    "--workdir",
    workdir,
  ];
}

/** A running sandbox process. */
export interface SandboxProcess {
  /** The emulator's base URL (page, control plane). */
  url: string;
  /** Everything the sandbox logged so far. */
  log(): string;
  /**
   * Sends a signal and waits for the process (and all that share its stderr)
   * to end; true when it exited cleanly. Killed after `withinMs` (default 10 s).
   */
  stop(signal?: Deno.Signal, withinMs?: number): Promise<boolean>;
}

/** Spawns `deno <args>` (ending in `sandbox …`) and waits for the demo agent. */
export async function startSandbox(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<SandboxProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let log = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  while (!log.includes("Demo agent connected")) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`the sandbox ended before its agent connected:\n${log}`);
    }
    log += value;
  }
  const url = log.match(/web chat: (http:\/\/127\.0\.0\.1:\d+)\//)?.[1];
  if (!url) {
    child.kill("SIGKILL");
    await child.status;
    throw new Error(`the sandbox printed no URL:\n${log}`);
  }
  // Keep reading so the child never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      log += value;
    }
  })();
  return {
    url,
    log: () => log,
    async stop(signal = "SIGINT", withinMs = 10_000) {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      // A sandbox that does not stop is killed, so a test fails instead of hanging.
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch {
          // gone meanwhile
        }
      }, withinMs);
      try {
        await drained;
        return (await child.status).success;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Processes whose command line names `path` (Linux `/proc`, read by a shell:
 * Deno lets only `--allow-all` read it), as `pid: command line`. After a
 * sandbox on a workdir stopped, none may be left.
 */
export async function processesNaming(path: string): Promise<string[]> {
  // The path comes in the environment, so the shell's own command line does not name it.
  const script =
    'for f in /proc/[0-9]*/cmdline; do c=$(tr "\\0" " " < "$f" 2>/dev/null) || continue; ' +
    'case "$c" in *"$NEEDLE"*) p=${f#/proc/}; echo "${p%/cmdline}: $c";; esac; done';
  const out = await new Deno.Command("sh", {
    args: ["-c", script],
    env: { NEEDLE: path },
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.trim() !== "");
}
