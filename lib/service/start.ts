/**
 * The composition root of `serve`, in two phases: the config is read and
 * the store opened, then either the fully built running service starts
 * (`running.ts`) or, when anything on the way fails, a degraded service
 * answers: `manual` works, every other action is `NOT_CONNECTED`, and the
 * status says why.
 * @module
 */

import type { Config, LaunchOptions } from "../config/mod.ts";
import { loadConfig } from "../config/mod.ts";
import { type Deps, failure } from "../core/mod.ts";
import { openStore, type Store } from "../store/mod.ts";
import { probeConfinement } from "./confinement.ts";
import { startRunning } from "./running.ts";
import { type Service, serviceApp, type ServiceOptions } from "./service.ts";
import { buildStatus } from "./status.ts";

export type { Service, ServiceApp, ServiceOptions } from "./service.ts";

interface Loaded {
  config: Config | null;
  readable: boolean;
  errors: string[];
}

async function readConfig(launch: LaunchOptions, deps: Deps): Promise<Loaded> {
  if (!launch.configPath) {
    deps.log.warn("no config named; serving in degraded mode (only manual works)");
    return { config: null, readable: false, errors: [] };
  }
  const res = await loadConfig(launch.configPath, {
    workdir: launch.workdir,
    lingtai: Boolean(Deno.env.get("LINGTAI_AGENT_DIR")),
  });
  for (const s of res.secrets) deps.redactor.add(s);
  if (res.ok) return { config: res.config, readable: res.readable, errors: [] };
  for (const e of res.errors) deps.log.error(e);
  return { config: null, readable: res.readable, errors: res.errors };
}

const message = (err: unknown) => err instanceof Error ? err.message : String(err);

/**
 * Starts the service. Imports the heavy parts (the node-sdk, zod schemas);
 * `serve` loads it after answering `tools/list`.
 */
export async function startService(
  launch: LaunchOptions,
  deps: Deps,
  options: ServiceOptions,
): Promise<Service> {
  const { config, readable, errors } = await readConfig(launch, deps);
  if (!config) return degradedService(launch, options, { readable, errors, notes: [] });
  let store: Store;
  try {
    store = openStore(launch.workdir, deps.clock);
  } catch (err) {
    deps.log.error(`store unavailable; serving in degraded mode: ${message(err)}`);
    return degradedService(launch, options, { readable, errors, notes: [message(err)] });
  }
  try {
    return await startRunning(launch, deps, config, store, {
      ...options,
      configReadable: readable,
    });
  } catch (err) {
    deps.log.error(`service failed to start; serving in degraded mode: ${message(err)}`);
    store.close();
    return degradedService(launch, options, {
      readable,
      errors,
      notes: [`service unavailable: ${message(err)}`],
    });
  }
}

/** The answerer without a usable config or store: `manual` works, the rest is `NOT_CONNECTED`. */
function degradedService(
  launch: LaunchOptions,
  options: ServiceOptions,
  why: { readable: boolean; errors: readonly string[]; notes: readonly string[] },
): Service {
  const permissions = probeConfinement(launch.workdir, launch.confined);
  const status = () =>
    buildStatus({
      configPath: launch.configPath,
      configReadable: why.readable,
      configErrors: why.errors,
      accounts: [],
      store: null,
      inbound: null,
      permissions,
      notes: why.notes,
      mcp: options.mcp,
    });
  return {
    app: serviceApp(launch, {
      act: () => Promise.resolve(failure("NOT_CONNECTED", "Feishu manager is not initialized")),
      status,
      inbox: () => ({ status: "degraded", accounts: [] }),
    }),
    permission: null,
    status,
    close() {
      options.lock.release();
      return Promise.resolve();
    },
  };
}
