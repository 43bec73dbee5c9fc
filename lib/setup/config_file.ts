/**
 * The config file `setup` writes: a new one with the registered app as its
 * first account, or an existing one with the app added under `--account`
 * (every other account and key kept). Decided before anyone scans (so a
 * refusal costs no app) and checked again at write time; the text is
 * validated with the server's own `parseConfig` and then written atomically
 * (temp file in the same folder, fsync, rename) with mode 0600, so a failed
 * or interrupted setup leaves the old file, or none, and no temp file.
 * @module
 */

import { type ConfigOptions, parseConfig } from "../config/mod.ts";
import { writeFileAtomic } from "../core/mod.ts";

/** The alias a new config's only account gets when `--account` is not given. */
export const DEFAULT_ALIAS = "main";

/** A refusal before anything was registered or written (exit 2). */
export class SetupUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SetupUsageError";
  }
}

/** What `setup` will write to, decided before the registration starts. */
export interface ConfigPlan {
  path: string;
  alias: string;
  /** True when the file exists and the account is added to it. */
  adding: boolean;
}

/** One account entry as the file spells it. */
export interface AccountEntry {
  alias: string;
  app_id: string;
  app_secret: string;
  domain: string;
  owners: string[];
  access: { dm: "pairing"; outbound: "admitted"; bots: "mention" };
}

/**
 * Decides the target: a new file (alias `--account` or {@link DEFAULT_ALIAS}),
 * or an existing valid file when `--account` names a new alias. Throws
 * {@link SetupUsageError} otherwise; never overwrites silently.
 */
export async function planConfig(
  path: string,
  account: string | null,
  options: ConfigOptions,
): Promise<ConfigPlan> {
  const text = await readIfPresent(path);
  if (text === null) return { path, alias: account ?? DEFAULT_ALIAS, adding: false };
  if (account === null) {
    throw new SetupUsageError(
      `${path} already exists: add this app to it with --account ALIAS, ` +
        "or write a new file with --config PATH",
    );
  }
  existingAccounts(path, text, options, account);
  return { path, alias: account, adding: true };
}

/**
 * Writes the account into the plan's file (re-reading it, so an account
 * added meanwhile is kept and a clash is still refused).
 */
export async function writeAccount(
  plan: ConfigPlan,
  entry: AccountEntry,
  options: ConfigOptions,
): Promise<void> {
  const text = await readIfPresent(plan.path);
  let raw: Record<string, unknown>;
  if (text === null) {
    raw = { accounts: [] };
  } else if (!plan.adding) {
    throw new SetupUsageError(`${plan.path} appeared while waiting; nothing was written`);
  } else {
    raw = existingAccounts(plan.path, text, options, entry.alias);
  }
  raw.accounts = [...(raw.accounts as unknown[]), entry];
  const out = JSON.stringify(raw, null, 2) + "\n";
  const checked = parseConfig(out, options);
  if (!checked.ok) {
    // A bug or an answer the schema refuses (e.g. a malformed app id): say which, keep the old file.
    throw new Error(`the config to write is not valid: ${checked.errors.join("; ")}`);
  }
  await writeFileAtomic(plan.path, out, { mode: 0o600 });
}

/** The parsed object of a valid existing file without `alias`; throws a usage error otherwise. */
function existingAccounts(
  path: string,
  text: string,
  options: ConfigOptions,
  alias: string,
): Record<string, unknown> {
  const checked = parseConfig(text, options);
  if (!checked.ok) {
    throw new SetupUsageError(
      `${path} is not a valid config (${checked.errors[0]}): fix it first, or use another --config`,
    );
  }
  if (checked.config.accounts.some((a) => a.alias === alias)) {
    throw new SetupUsageError(
      `${path} already has an account '${alias}': choose another --account`,
    );
  }
  return JSON.parse(text) as Record<string, unknown>;
}

async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw new SetupUsageError(`${path} is not readable (${(err as Error).name})`);
  }
}
