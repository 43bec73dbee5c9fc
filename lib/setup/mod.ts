/**
 * `setup`: one-click registration of a new Feishu (Lark) app. It decides
 * which config file to write (refusing, before anything is registered, to
 * overwrite one or to reuse an alias), shows the registration link as a QR
 * code, waits for the person who scans it, then writes the app's id and
 * secret, the domain, that person as the first owner and pairing-based
 * access into the config (validated, atomic, mode 0600), checks the tenant
 * token and the bot identity with the bridge's own client, and prints what
 * is left to do by hand and the MCP client entry. Ctrl-C, a denial or an
 * expired code leave no file behind. Exit 0 when the config was written,
 * 1 when the registration ended without an app, 2 on a usage error, 130
 * when interrupted.
 * @module
 */

import { join } from "node:path";
import { type ConfigOptions, type LaunchOptions, loadConfig } from "../config/mod.ts";
import { createLogger, Redactor } from "../core/mod.ts";
import {
  createFeishuApi,
  type RegisteredApp,
  registerFeishuApp,
  RegistrationError,
} from "../feishu/mod.ts";
import type { App } from "../launch/mod.ts";
import { type ConfigPlan, planConfig, SetupUsageError, writeAccount } from "./config_file.ts";
import { type SetupDomain, setupDomain } from "./domain.ts";
import {
  callbacksToSubscribe,
  eventsToSubscribe,
  manualSteps,
  mcpEntry,
  scopesToGrant,
} from "./next_steps.ts";
import { qrLines } from "./qr.ts";

/** The file name `setup` writes in the workdir when no config is named. */
const DEFAULT_CONFIG_NAME = "feishu.json";

const redactor = new Redactor();
const out = (line: string) =>
  void Deno.stdout.writeSync(new TextEncoder().encode(redactor.redact(line) + "\n"));
const err = (line: string) =>
  void Deno.stderr.writeSync(
    new TextEncoder().encode(`feishu-mcp setup: ${redactor.redact(line)}\n`),
  );

/** Runs `setup`; resolves to the exit code. */
export async function runSetup(launch: LaunchOptions, app: App): Promise<number> {
  const options: ConfigOptions = {
    workdir: launch.workdir,
    lingtai: Boolean(Deno.env.get("LINGTAI_AGENT_DIR")),
  };
  let domain: SetupDomain;
  let plan: ConfigPlan;
  try {
    domain = setupDomain(launch.domain);
    plan = await planConfig(
      launch.configPath ?? join(launch.workdir, DEFAULT_CONFIG_NAME),
      launch.account ?? null,
      options,
    );
  } catch (e) {
    err((e as Error).message);
    return 2;
  }

  const registered = await waitForApp(domain, plan);
  if (typeof registered === "number") return registered;

  redactor.add(registered.appSecret);
  // The SDK switched to the Lark hosts when the scanner's tenant is on Lark.
  const configDomain = registered.brand === "lark" && domain.configDomain === "feishu"
    ? "lark"
    : domain.configDomain;
  try {
    await writeAccount(plan, {
      alias: plan.alias,
      app_id: registered.appId,
      app_secret: registered.appSecret,
      domain: configDomain,
      owners: registered.ownerOpenId ? [registered.ownerOpenId] : [],
      access: { dm: "pairing", outbound: "admitted", bots: "mention" },
    }, options);
  } catch (e) {
    err(`${(e as Error).message}; the app ${registered.appId} was created but not saved`);
    return e instanceof SetupUsageError ? 2 : 1;
  }
  out(
    `\nWrote ${plan.path} (mode 0600): account '${plan.alias}', app ${registered.appId}` +
      (registered.ownerOpenId ? `, owner ${registered.ownerOpenId}` : "") +
      ", access: DMs by pairing, sends only to admitted people, other bots only when they @-mention it.",
  );
  if (!registered.ownerOpenId) {
    out("Feishu did not say who scanned: add your open_id to `owners` by hand.");
  }
  const baseUrl = await checkIdentity(plan, options);
  out("");
  for (const line of manualSteps(baseUrl, registered.appId)) out(line);
  out("\nMCP client entry (Claude Code, LingTai, any client):");
  out(mcpEntry(app, { configPath: plan.path, workdir: launch.workdir }));
  return 0;
}

/** Shows the QR code and waits; the app, or the exit code when none came. */
async function waitForApp(domain: SetupDomain, plan: ConfigPlan): Promise<RegisteredApp | number> {
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const s of signals) Deno.addSignalListener(s, interrupt);
  out(
    `Registering a new Feishu app at https://${domain.accountsHost} for ${plan.path}` +
      (plan.adding ? ` (adding account '${plan.alias}')` : ""),
  );
  try {
    return await registerFeishuApp({
      accountsHost: domain.accountsHost,
      larkAccountsHost: domain.larkAccountsHost,
      signal: stop.signal,
      addons: {
        scopes: scopesToGrant().map((s) => s.scope),
        events: eventsToSubscribe(),
        callbacks: callbacksToSubscribe(),
      },
      onQrCode: (url, expiresIn) => {
        // The link goes out first so a script (or a test) can follow it before the QR draws.
        out(`Open this link, or scan the QR code with the Feishu app, within ${expiresIn} s:`);
        out(url);
        void qrLines(url)
          .then((qr) => out(qr), () => {/* the link above is enough */})
          .finally(() =>
            out("Waiting for the approval (Ctrl-C cancels; nothing is written until then)…")
          );
      },
      onStatus: (status) => {
        if (status === "domain_switched") out("The scanner's tenant is on Lark: following it.");
      },
    });
  } catch (e) {
    if (!(e instanceof RegistrationError)) throw e;
    err(`${e.message}; nothing was written`);
    return e.kind === "aborted" ? 130 : 1;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, interrupt);
  }
}

/** Asks Feishu for a tenant token and the bot identity; returns the account's base URL. */
async function checkIdentity(plan: ConfigPlan, options: ConfigOptions): Promise<string> {
  const loaded = await loadConfig(plan.path, options);
  const account = loaded.ok ? loaded.config.accounts.find((a) => a.alias === plan.alias) : null;
  if (!account) {
    err(`could not read back ${plan.path}`);
    return "";
  }
  const api = createFeishuApi({
    alias: account.alias,
    appId: account.appId,
    appSecret: account.appSecret,
    baseUrl: account.baseUrl,
    log: createLogger({ level: "error", redactor }),
  });
  try {
    const bot = await api.botInfo();
    out(
      `Checked: Feishu issues a tenant token, and the bot ${
        bot.name ?? ""
      } (${bot.openId}) answers.`,
    );
  } catch (e) {
    out(
      `Check failed: ${(e as Error).message}. This is expected until the steps below are done ` +
        "(a new app may need its Bot capability and a published version first); " +
        "`deno task canary` checks it all again.",
    );
  }
  return account.baseUrl;
}
