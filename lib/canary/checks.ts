/**
 * The canary's checks, in order: config → tenant token → bot identity →
 * scopes → long connection → DM → card callback. Each returns a result; a
 * check runs only when the checks it depends on passed, otherwise it is
 * skipped naming the one that failed. A missing scope therefore does not
 * stop the live checks (they may well work), while a refused token stops
 * everything after it. The Feishu client and the long connection come from
 * injected factories so tests can drive the checks against the emulator or
 * fakes. Nothing here writes to disk.
 * @module
 */

import { loadConfig } from "../config/mod.ts";
import { checkCard, checkDm, checkLongConnection } from "./_live.ts";
import { callFeishu, describeAnswer, restEvidence } from "./_rest.ts";
import {
  type CanaryDeps,
  type CanaryRequest,
  type CanaryState,
  type CheckName,
  type CheckResult,
  type Evidence,
  failed,
} from "./_types.ts";
import { consoleScopeLink, requiredScopes } from "./scopes.ts";

export {
  type CanaryDeps,
  type CanaryRequest,
  CHECK_NAMES,
  type CheckName,
  type CheckResult,
  type Evidence,
} from "./_types.ts";

interface Step {
  name: CheckName;
  needs: readonly CheckName[];
  run(state: CanaryState): Promise<CheckResult>;
}

const STEPS: readonly Step[] = [
  { name: "config", needs: [], run: checkConfig },
  { name: "tenant_token", needs: ["config"], run: checkToken },
  { name: "bot_identity", needs: ["tenant_token"], run: checkBot },
  { name: "scopes", needs: ["tenant_token"], run: checkScopes },
  { name: "long_connection", needs: ["tenant_token"], run: checkLongConnection },
  { name: "dm", needs: ["bot_identity"], run: checkDm },
  { name: "card_callback", needs: ["long_connection", "dm"], run: checkCard },
];

/**
 * Runs every check in order and closes what it opened. Never throws: an
 * unexpected error becomes that check's failure.
 */
export async function runChecks(request: CanaryRequest, deps: CanaryDeps): Promise<CheckResult[]> {
  const state: CanaryState = { request, deps };
  const results: CheckResult[] = [];
  try {
    for (const [i, step] of STEPS.entries()) {
      const blocked = step.needs.find((n) => results.find((r) => r.name === n)?.status !== "pass");
      let result: CheckResult;
      if (blocked) {
        result = { name: step.name, status: "skip", detail: `skipped: ${blocked} did not pass` };
      } else {
        deps.progress(`[${i + 1}/${STEPS.length}] ${step.name} …`);
        result = await step.run(state).catch((err) => ({
          name: step.name,
          status: "fail" as const,
          detail: `unexpected error: ${err instanceof Error ? err.message : String(err)}`,
        }));
      }
      deps.progress(`[${i + 1}/${STEPS.length}] ${step.name}: ${result.status}`);
      results.push(result);
    }
  } finally {
    await state.connection?.close();
  }
  return results;
}

async function checkConfig(state: CanaryState): Promise<CheckResult> {
  const { request, deps } = state;
  const res = await loadConfig(request.configPath, {
    workdir: request.workdir,
    lingtai: request.lingtai,
  });
  for (const s of res.secrets) deps.addSecret(s);
  if (!res.ok) {
    return failed("config", res.errors.join("; "), {
      fix: "fix the config file (or the --config path): `serve` refuses it for the same reasons",
    });
  }
  for (const a of res.config.accounts) deps.addSecret(a.appSecret);
  const aliases = res.config.accounts.map((a) => a.alias);
  const account = request.account === null
    ? res.config.accounts[0]
    : res.config.accounts.find((a) => a.alias === request.account);
  if (!account) {
    return failed("config", `no account '${request.account}' (accounts: ${aliases.join(", ")})`, {
      fix: "name one of the configured aliases with --account",
    });
  }
  state.config = res.config;
  state.account = account;
  return {
    name: "config",
    status: "pass",
    detail: `account '${account.alias}' (${account.appId}) on ${account.baseUrl}`,
    evidence: { accounts: aliases.length, alias: account.alias, app_id: account.appId },
  };
}

function restTimeout(state: CanaryState): number {
  return state.deps.restTimeoutMs ?? 15_000;
}

const TOKEN_FIXES: Record<number, string> = {
  10003: "the app_id is unknown on this domain: check app_id, and domain (feishu or lark)",
  10014: "the app_secret is wrong: copy it again from the console (Credentials & Basic Info)",
};

async function checkToken(state: CanaryState): Promise<CheckResult> {
  const a = state.account!;
  let answer;
  try {
    answer = await callFeishu(state.deps, {
      baseUrl: a.baseUrl,
      method: "POST",
      path: "/open-apis/auth/v3/tenant_access_token/internal",
      body: { app_id: a.appId, app_secret: a.appSecret },
      timeoutMs: restTimeout(state),
    });
  } catch (err) {
    return failed("tenant_token", (err as Error).message, {
      fix: "check the account's domain, the network and HTTPS_PROXY / NO_PROXY",
    });
  }
  const token = answer.body.tenant_access_token;
  if (answer.code !== 0 || typeof token !== "string" || token === "") {
    return failed("tenant_token", `Feishu refused the credentials: ${describeAnswer(answer)}`, {
      evidence: restEvidence(answer),
      fix: TOKEN_FIXES[answer.code ?? -1] ??
        "check app_id and app_secret in the console (Credentials & Basic Info)",
    });
  }
  state.deps.addSecret(token);
  state.token = token;
  const expire = answer.body.expire;
  return {
    name: "tenant_token",
    status: "pass",
    detail: "Feishu issued a tenant access token",
    evidence: { ...restEvidence(answer), ...(typeof expire === "number" ? { expire } : {}) },
  };
}

async function checkBot(state: CanaryState): Promise<CheckResult> {
  const answer = await callFeishu(state.deps, {
    baseUrl: state.account!.baseUrl,
    method: "GET",
    path: "/open-apis/bot/v3/info",
    token: state.token,
    timeoutMs: restTimeout(state),
  }).catch((err: Error) => err);
  if (answer instanceof Error) return failed("bot_identity", answer.message);
  const bot = answer.body.bot as {
    open_id?: unknown;
    app_name?: unknown;
    activate_status?: unknown;
  };
  if (answer.code !== 0 || typeof bot?.open_id !== "string" || bot.open_id === "") {
    return failed("bot_identity", `no bot identity: ${describeAnswer(answer)}`, {
      evidence: restEvidence(answer),
      fix: "enable the Bot capability of the app, then publish a version",
    });
  }
  const evidence: Evidence = restEvidence(answer);
  if (typeof bot.activate_status === "number") evidence.activate_status = bot.activate_status;
  const name = typeof bot.app_name === "string" && bot.app_name ? ` '${bot.app_name}'` : "";
  return { name: "bot_identity", status: "pass", detail: `the bot${name} answers`, evidence };
}

async function checkScopes(state: CanaryState): Promise<CheckResult> {
  const a = state.account!;
  const answer = await callFeishu(state.deps, {
    baseUrl: a.baseUrl,
    method: "GET",
    path: "/open-apis/application/v6/scopes",
    token: state.token,
    timeoutMs: restTimeout(state),
  }).catch((err: Error) => err);
  if (answer instanceof Error) return failed("scopes", answer.message);
  const list = (answer.body.data as { scopes?: unknown } | undefined)?.scopes;
  if (answer.code !== 0 || !Array.isArray(list)) {
    return failed("scopes", `the scope list is not readable: ${describeAnswer(answer)}`, {
      evidence: restEvidence(answer),
      fix: "if Feishu names a scope in its message, grant it and publish a version",
    });
  }
  const status = new Map<string, number>();
  for (const s of list as { scope_name?: unknown; grant_status?: unknown }[]) {
    if (typeof s?.scope_name === "string") status.set(s.scope_name, Number(s.grant_status));
  }
  const needs = requiredScopes(state.config!);
  const missing = needs.filter((n) => status.get(n.scope) !== 1);
  const why = (scope: string) => status.has(scope) ? "not granted" : "not requested";
  const lines = missing.map((n) =>
    `${n.optional ? "optional: " : ""}grant ${n.scope} (${n.reason}) at ` +
    consoleScopeLink(a.baseUrl, a.appId, n.scope)
  );
  const fix = lines.length
    ? [...lines, "then publish a version (an administrator may have to approve it)"].join("\n")
    : undefined;
  const required = missing.filter((n) => !n.optional);
  const optional = missing.filter((n) => n.optional);
  const optionalNeeds = needs.filter((n) => n.optional).length;
  const evidence: Evidence = {
    ...restEvidence(answer),
    required: needs.length - optionalNeeds,
    optional: optionalNeeds,
    granted: needs.length - missing.length,
  };
  const note = optional.length
    ? `; optional missing: ${optional.map((n) => `${n.scope} (${why(n.scope)})`).join(", ")}`
    : "";
  if (required.length) {
    const names = required.map((n) => `${n.scope} (${why(n.scope)})`).join(", ");
    return failed("scopes", `missing required: ${names}${note}`, { evidence, fix });
  }
  const all = `all ${needs.length - optionalNeeds} required scopes granted` +
    (optional.length ? "" : `, and the ${optionalNeeds} optional ones`);
  return { name: "scopes", status: "pass", detail: all + note, evidence, ...(fix ? { fix } : {}) };
}
