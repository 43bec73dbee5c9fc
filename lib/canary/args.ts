/**
 * The canary's command line:
 * `canary --config F --to OPEN_ID [--account ALIAS] [--timeout S] [--json]`.
 * Parsed strictly here (the launcher leaves the canary's flags alone); a
 * relative `--config` resolves against the caller's directory, as `serve`'s
 * does. Pure.
 * @module
 */

import { resolve } from "node:path";
import { parseArgs } from "node:util";

/** The one-line usage. */
export const USAGE =
  "usage: deno task canary --config F --to OPEN_ID [--account ALIAS] [--timeout S] [--json]";

/** Default seconds to wait for the card click. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

/** What the flags asked for. */
export interface CanaryArgs {
  /** Absolute config path. */
  configPath: string;
  account: string | null;
  to: string;
  timeoutSeconds: number;
  json: boolean;
  /** The caller's directory (relative defaults resolve against it). */
  callerDir: string;
}

/** The parse: the arguments, `help`, or a usage error in one line. */
export type ParsedArgs =
  | { ok: true; args: CanaryArgs }
  | { ok: false; help: true }
  | { ok: false; help: false; error: string };

const OPEN_ID = /^ou_[A-Za-z0-9_-]+$/;

/**
 * Parses the canary's arguments (without the `canary` word itself).
 *
 * @example
 * ```ts
 * import { parseCanaryArgs } from "./args.ts";
 * const p = parseCanaryArgs(["--config", "f.json", "--to", "ou_x", "--timeout", "5"], {
 *   env: { INIT_CWD: "/caller" },
 *   cwd: "/app",
 * });
 * if (!p.ok || p.args.configPath !== "/caller/f.json" || p.args.timeoutSeconds !== 5) throw new Error();
 * ```
 */
export function parseCanaryArgs(
  argv: string[],
  where: { env: Record<string, string | undefined>; cwd: string },
): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: "string" },
        to: { type: "string" },
        account: { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    return usageError((err as Error).message.split("\n")[0]!.replace(/\.$/, ""));
  }
  if (values.help) return { ok: false, help: true };
  if (!values.config?.trim()) return usageError("Expected --config naming the config file");
  if (!values.to?.trim()) return usageError("Expected --to naming the test user's open_id");
  if (!OPEN_ID.test(values.to)) {
    return usageError(`Expected --to to be an open_id (ou_…) but found '${values.to}'`);
  }
  let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (values.timeout !== undefined) {
    timeoutSeconds = Number(values.timeout);
    if (!/^\d+$/.test(values.timeout) || timeoutSeconds < 1 || timeoutSeconds > 3600) {
      return usageError(
        `Expected --timeout to be whole seconds from 1 to 3600 but found '${values.timeout}'`,
      );
    }
  }
  const caller = where.env.INIT_CWD?.trim() ? where.env.INIT_CWD : where.cwd;
  return {
    ok: true,
    args: {
      configPath: resolve(caller, values.config),
      account: values.account?.trim() ? values.account : null,
      to: values.to,
      timeoutSeconds,
      json: values.json ?? false,
      callerDir: caller,
    },
  };
}

function usageError(error: string): ParsedArgs {
  return { ok: false, help: false, error };
}
