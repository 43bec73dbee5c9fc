/**
 * `canary`: an operator's end-to-end check of a real tenant, runnable
 * against the emulator. It validates the config as `serve` does, then asks
 * Feishu for a tenant token, the bot's identity and the granted scopes,
 * opens the long connection, DMs the test user and waits for the click on a
 * test card, and prints a pass/fail table (or `--json`) with redacted
 * evidence. It sits beside `serve` under `cli/`, reuses the bridge's own
 * Feishu client and long connection, and writes nothing: no store, no
 * workdir state. Exit 0 when every check passes, 1 otherwise, 2 on a usage
 * error.
 * @module
 */

import { createLogger, Redactor, systemClock } from "../core/mod.ts";
import { createFeishuApi, startLongConnection } from "../feishu/mod.ts";
import { parseCanaryArgs, USAGE } from "./args.ts";
import { type CanaryDeps, runChecks } from "./checks.ts";
import type { CanaryEnv } from "./_types.ts";
import { OutputGuard, renderJson, renderTable } from "./report.ts";

/**
 * Runs the canary with its arguments (the words after `canary`); resolves
 * to the exit code.
 *
 * @example A usage error exits 2 with one line
 * ```ts
 * import { runCanary } from "./mod.ts";
 * const err: string[] = [];
 * const code = await runCanary(["--config", "f.json"], {
 *   vars: {}, cwd: "/", stdout: () => {}, stderr: (t) => void err.push(t),
 * });
 * if (code !== 2 || err.join("").split("\n").filter(Boolean).length !== 1) throw new Error();
 * ```
 */
export async function runCanary(args: string[], env: CanaryEnv): Promise<number> {
  const parsed = parseCanaryArgs(args, { env: env.vars, cwd: env.cwd });
  if (!parsed.ok) {
    if (parsed.help) {
      env.stdout(USAGE + "\n");
      return 0;
    }
    env.stderr(`feishu-mcp canary: ${parsed.error} (${USAGE})\n`);
    return 2;
  }
  const a = parsed.args;
  const redactor = new Redactor();
  const guard = new OutputGuard(redactor);
  const say = (line: string) => env.stderr(guard.clean(`canary: ${line}`) + "\n");
  const log = createLogger({
    level: "warn",
    redactor,
    name: "feishu-mcp canary",
    sink: (line) => env.stderr(guard.clean(line) + "\n"),
  });
  const deps: CanaryDeps = {
    fetch: globalThis.fetch.bind(globalThis),
    clock: systemClock,
    log,
    newNonce: () => crypto.randomUUID(),
    progress: say,
    addSecret: (s) => guard.addSecret(s),
    createApi: (account, log) =>
      createFeishuApi({
        alias: account.alias,
        appId: account.appId,
        appSecret: account.appSecret,
        baseUrl: account.baseUrl,
        log,
      }),
    connect: startLongConnection,
    ...env.deps,
  };
  say(`checking ${a.configPath}` + (a.account ? ` (account ${a.account})` : ""));
  const results = await runChecks({
    configPath: a.configPath,
    account: a.account,
    to: a.to,
    timeoutSeconds: a.timeoutSeconds,
    workdir: a.callerDir,
    lingtai: Boolean(env.vars.LINGTAI_AGENT_DIR),
  }, deps);
  env.stdout(a.json ? renderJson(results, guard) : renderTable(results, guard));
  return results.every((r) => r.status === "pass") ? 0 : 1;
}
