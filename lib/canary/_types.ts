/**
 * The canary's shared shapes: check names in order, results, the request,
 * the injected dependencies and the state the checks pass along.
 * @module
 */

import type { Config, ResolvedAccount } from "../config/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { FeishuApi, LongConnection, LongConnectionOptions } from "../feishu/mod.ts";
import type { ClickWatch } from "./_click.ts";
import type { RestDeps } from "./_rest.ts";

/** The checks, in the order they run. */
export const CHECK_NAMES = [
  "config",
  "tenant_token",
  "bot_identity",
  "scopes",
  "long_connection",
  "dm",
  "card_callback",
] as const;
/** One of {@link CHECK_NAMES}. */
export type CheckName = typeof CHECK_NAMES[number];

/** Evidence values: codes, log ids, counts, hosts; never content, secrets or tokens. */
export type Evidence = Record<string, string | number | boolean>;

/** The outcome of one check. */
export interface CheckResult {
  name: CheckName;
  status: "pass" | "fail" | "skip";
  /** One line. */
  detail: string;
  evidence?: Evidence;
  /** What to do about a failure (or a warning); may span lines. */
  fix?: string;
}

/** What the operator asked for. */
export interface CanaryRequest {
  /** Absolute path of the config file. */
  configPath: string;
  /** Account alias; null = the first account. */
  account: string | null;
  /** open_id of the test user. */
  to: string;
  timeoutSeconds: number;
  /** Directory the config's relative defaults resolve against (nothing is written there). */
  workdir: string;
  /** True when LINGTAI_AGENT_DIR is set (only changes a config default). */
  lingtai: boolean;
}

/** Everything with an effect outside, injected. */
export interface CanaryDeps extends RestDeps {
  clock: Clock;
  /** The SDK's diagnostics (stderr, redacted). */
  log: Logger;
  /** A fresh nonce for the card button. */
  newNonce(): string;
  /** One progress line (stderr). */
  progress(line: string): void;
  /** Registers a secret the output must never show, as soon as it is known. */
  addSecret(secret: string): void;
  createApi(account: ResolvedAccount, log: Logger): FeishuApi;
  connect(options: LongConnectionOptions): LongConnection;
  /** Budget of each REST call (default 15 s). */
  restTimeoutMs?: number;
  /** Budget of the long-connection handshake and first ping (default 30 s). */
  connectTimeoutMs?: number;
}

/** What the checks share as they go. */
export interface CanaryState {
  request: CanaryRequest;
  deps: CanaryDeps;
  config?: Config;
  account?: ResolvedAccount;
  token?: string;
  api?: FeishuApi;
  connection?: LongConnection;
  watch?: ClickWatch;
}

/** A failing result. */
export function failed(
  name: CheckName,
  detail: string,
  extra: Partial<CheckResult> = {},
): CheckResult {
  return { ...extra, name, status: "fail", detail };
}

/** Where the canary runs: its environment and its two output streams. */
export interface CanaryEnv {
  /** Environment variables (`INIT_CWD`, `LINGTAI_AGENT_DIR`, proxies). */
  vars: Record<string, string | undefined>;
  cwd: string;
  /** The report (the canary is not an MCP server: stdout is free). */
  stdout(text: string): void;
  /** Progress and diagnostics. */
  stderr(text: string): void;
  /** Replacements for the real clock, fetch, Feishu client or long connection. */
  deps?: Partial<CanaryDeps>;
}
