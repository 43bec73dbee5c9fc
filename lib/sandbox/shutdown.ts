/**
 * How the sandbox stops: on Ctrl-C (SIGINT) or SIGTERM, at any point of its
 * start, it stops the bridge (stdin closed, as an agent runtime would; then
 * SIGTERM, then SIGKILL), closes the emulator, saves the world a last time and
 * exits, all within {@linkcode STOP_BUDGET_MS}. A second Ctrl-C, or a stop
 * that runs out of time, kills the bridge and exits at once.
 * @module
 */

/** How long a stop may take before the bridge is killed and the process exits. */
export const STOP_BUDGET_MS = 1800;
/** How long the bridge gets to exit after its stdin closed. */
const BRIDGE_GRACE_MS = 1000;
/** How long the bridge gets after SIGTERM. */
const BRIDGE_TERM_MS = 300;

/** What runs, as far as the start got; `stop` takes each down in order. */
export interface Running {
  /** The bridge: `close()` ends its stdin and waits for it; `pid()` is its process. */
  bridge?: { close(): Promise<void>; pid(): number | null };
  emulator?: { close(): Promise<void> };
  world?: { close(): Promise<void> };
  workdir?: { release(): void };
}

/** The stop sequence; one per process. */
export class Shutdown {
  readonly running: Running = {};
  #stopping = false;
  readonly #aborted = new AbortController();
  readonly #say: (line: string) => void;

  /** Listens for SIGINT and SIGTERM from now on. */
  constructor(say: (line: string) => void) {
    this.#say = say;
    for (const sig of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(sig, () => void this.stop(0));
    }
  }

  /** True once a stop began. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Races `work` against a stop: rejects as soon as one begins (the start then gives up). */
  unlessStopped<T>(work: Promise<T>): Promise<T> {
    const signal = this.#aborted.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const off = () => reject(signal.reason);
      signal.addEventListener("abort", off, { once: true });
      work.then(resolve, reject).finally(() => signal.removeEventListener("abort", off));
    });
  }

  /** Stops what runs and exits with `code`; a second call kills the bridge and exits at once. */
  async stop(code: number): Promise<never> {
    if (this.#stopping) {
      this.#kill();
      Deno.exit(code === 0 ? 130 : code);
    }
    this.#stopping = true;
    this.#aborted.abort(new Error("The sandbox is stopping"));
    if (code === 0) this.#say("\nstopping…");
    const watchdog = setTimeout(() => {
      this.#say("the stop took too long: killing the bridge");
      this.#kill();
      Deno.exit(code || 1);
    }, STOP_BUDGET_MS);
    const { bridge, emulator, world, workdir } = this.running;
    const step = async (name: string, work: () => Promise<void> | void) => {
      try {
        await work();
      } catch (err) {
        this.#say(`while stopping the ${name}: ${(err as Error).message}`);
      }
    };
    if (bridge) await step("bridge", () => stopBridge(bridge));
    if (emulator) await step("emulator", () => emulator.close());
    if (world) await step("world's last save", () => world.close());
    if (workdir) await step("workdir lock", () => workdir.release());
    clearTimeout(watchdog);
    // Explicit: an upgraded socket the bridge dropped can keep Deno's server alive for seconds.
    Deno.exit(code);
  }

  #kill(): void {
    const pid = this.running.bridge?.pid();
    if (pid) signal(pid, "SIGKILL");
  }
}

/** Closes the bridge's stdin and waits; then SIGTERM, then SIGKILL. */
async function stopBridge(bridge: NonNullable<Running["bridge"]>): Promise<void> {
  const pid = bridge.pid();
  const closed = bridge.close().then(() => true, () => true);
  const within = (ms: number) =>
    Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  if (await within(BRIDGE_GRACE_MS) || !pid) return;
  signal(pid, "SIGTERM"); // it forwards this to the confined server and waits for it
  if (await within(BRIDGE_TERM_MS)) return;
  signal(pid, "SIGKILL");
}

function signal(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(pid, sig);
  } catch {
    // already gone
  }
}
