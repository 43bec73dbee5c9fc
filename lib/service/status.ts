/**
 * The status resource (`lingtai://status`): config readability, accounts and
 * per-account connection state, admission counters. Never throws, never
 * contains a secret.
 * @module
 */

/** Per-account live facts the status shows (filled by later stages). */
export interface AccountStatus {
  alias: string;
  appId: string;
  allowedUsersCount: number | null;
  connection?: Record<string, unknown>;
  identity?: Record<string, unknown>;
  admission?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** Inputs of {@link buildStatus}. */
export interface StatusInputs {
  started: boolean;
  configPath: string | null;
  configReadable: boolean;
  configErrors: string[];
  accounts: AccountStatus[];
  notes: string[];
  extra?: Record<string, unknown>;
}

/**
 * Renders the status payload.
 *
 * @example Degraded without a config
 * ```ts
 * import { buildStatus } from "./status.ts";
 * const s = buildStatus({ started: false, configPath: null, configReadable: false, configErrors: [], accounts: [], notes: [] });
 * if (s.status !== "degraded" || s.config_path_set !== false) throw new Error();
 * ```
 */
export function buildStatus(i: StatusInputs): Record<string, unknown> {
  const notes = [...i.notes];
  if (i.configPath === null) {
    notes.push("No config file named (--config, FEISHU_MCP_CONFIG or LINGTAI_FEISHU_CONFIG).");
  }
  for (const e of i.configErrors) notes.push(e);
  return {
    status: i.started ? "ok" : "degraded",
    manager_initialized: i.started,
    service_started: i.started,
    config_path_set: i.configPath !== null,
    config_path: i.configPath,
    config_readable: i.configReadable,
    accounts_count: i.accounts.length,
    accounts: i.accounts.map((a) => ({
      alias: a.alias,
      app_id: a.appId,
      has_app_id: a.appId !== "",
      has_app_secret: true,
      allowed_users_count: a.allowedUsersCount,
      connection: a.connection ?? { state: "not_started" },
      identity: a.identity ?? null,
      admission: a.admission ?? {},
      ...(a.extra ?? {}),
    })),
    ...(i.extra ?? {}),
    notes,
  };
}
