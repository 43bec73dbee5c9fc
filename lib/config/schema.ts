/**
 * The config file schema (zod, strict: unknown keys are errors) and the types
 * derived from it. `app_secret` is a secret: it is never printed or returned.
 * @module
 */

import { z } from "zod";
import { TOOL_SCHEMA_SETTINGS } from "./peek.ts";
import { APP_ID_PATTERN } from "../core/mod.ts";

const APP_ID = APP_ID_PATTERN;
/** Aliases name folders and the first segment of compound ids. */
const ALIAS = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** The DM admission rules an account may name (`access.dm`). */
export const ACCESS_DM = ["open", "allowlist", "pairing"] as const;
/** The outbound rules an account may name (`access.outbound`). */
export const ACCESS_OUTBOUND = ["any", "admitted"] as const;
/** Which messages of other bots an account admits (`access.bots`). */
export const ACCESS_BOTS = ["ignore", "mention", "all"] as const;
/** A user's open_id as Feishu writes them. */
const OPEN_ID = /^ou_[A-Za-z0-9_-]{1,64}$/;

/**
 * Deno's permission flags separate entries with commas and have no escape, so
 * a comma inside a granted path or host would widen the grant.
 */
const noComma = (what: string) => ({
  message: `Expected ${what} without ',' (a comma would widen the server's permissions)`,
});

const domain = z.string().refine(
  (d) => d === "feishu" || d === "lark" || /^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(d),
  { message: "Expected 'feishu', 'lark' or an http(s) base URL" },
).refine((d) => !d.includes(","), noComma("domain"));

/** A string field whose absence reads "required" and whose wrong type says so. */
const str = (name: string) =>
  z.string({
    error: (iss) => iss.input === undefined ? "required" : `Expected ${name} to be a string`,
  });

const account = z.strictObject({
  alias: str("alias").regex(ALIAS, {
    message:
      "Expected alias to be 1-64 letters, digits, '_' or '-' starting with a letter or digit (no ':' or path characters)",
  }),
  app_id: str("app_id").regex(APP_ID, {
    message: "Expected app_id to look like cli_ followed by 16 hex digits",
  }),
  app_secret: str("app_secret").min(1, {
    message: "Expected app_secret to be non-empty",
  }),
  allowed_users: z.array(z.string().min(1)).nullable().optional(),
  /** Who may control the agent (local commands, control cards); see `controllers` in lib/account. */
  owners: z.array(
    z.string().regex(OPEN_ID, { message: "Expected an owner to be an open_id (ou_…)" }),
  ).nullable().optional(),
  domain: domain.optional(),
  access: z.strictObject({
    /** Who may DM the bot: anyone, `allowed_users` only, or people an owner paired. */
    dm: z.enum(ACCESS_DM, { error: () => `Expected one of ${ACCESS_DM.join(", ")}` }).optional(),
    /** Where `send` may go: anywhere, or only to people and chats already admitted. */
    outbound: z.enum(ACCESS_OUTBOUND, {
      error: () => `Expected one of ${ACCESS_OUTBOUND.join(", ")}`,
    }).optional(),
    /** Other bots' messages: never, when they @-mention this bot, or all of them. */
    bots: z.enum(ACCESS_BOTS, { error: () => `Expected one of ${ACCESS_BOTS.join(", ")}` })
      .optional(),
    /** The loop guard: bot messages that may wake the agent per chat and sliding window. */
    bot_wakes: z.strictObject({
      max: z.number().int().min(1).max(10_000).optional(),
      window_seconds: z.number().int().min(1).max(86_400).optional(),
    }).optional(),
  }).optional(),
});

const transcriber = z.strictObject({
  command: z.array(z.string()).min(1, { message: "Expected a non-empty argv array" })
    .refine((c) => c.length === 0 || c[0]!.trim() !== "", {
      message: "Expected the program (the first element) to be a non-empty string",
    })
    .refine((c) => !c[0]?.includes(","), noComma("the program")),
  timeout_seconds: z.number().positive().max(3600).optional(),
});

const notify = z.strictObject({
  licc: z.boolean().optional(),
  claude_channel: z.boolean().optional(),
});

/** A positive whole number no larger than `max`. */
const cap = (name: string, max: number) =>
  z.number({ error: `Expected ${name} to be a number` }).refine(
    (n) => Number.isInteger(n) && n >= 1 && n <= max,
    { message: `Expected ${name} to be a whole number from 1 to ${max}` },
  );

/** Size caps; each has a default (see `DEFAULT_LIMITS` in load.ts). */
const limits = z.strictObject({
  outbound_text_code_points: cap("outbound_text_code_points", 10_000_000).optional(),
  inbound_download_bytes: cap("inbound_download_bytes", 2 ** 40).optional(),
});

/** The app's monthly API call quota, when known; counting happens either way. */
const quota = z.strictObject({
  monthly_calls: cap("monthly_calls", 1_000_000_000).optional(),
});

/** A positive number no larger than `max` (fractions allowed). */
const span = (name: string, max: number) =>
  z.number({ error: `Expected ${name} to be a number` }).refine(
    (n) => Number.isFinite(n) && n > 0 && n <= max,
    { message: `Expected ${name} to be a number above 0 and at most ${max}` },
  );

/** The resident Task Cards: whose work a card shows, and how long routes count. */
const taskcard = z.strictObject({
  scope: z.enum(["conversation", "agent"], {
    error: () => "Expected conversation or agent",
  }).optional(),
  active_hours: span("active_hours", 24 * 365).optional(),
  retention_days: span("retention_days", 3650).optional(),
});

/** What the bridge keeps of what people take back. */
const privacy = z.strictObject({
  keep_recalled: z.boolean({ error: "Expected true or false" }).optional(),
});

/** Which projection of the tool schema clients are shown (see peek.ts). */
const toolSchema = z.enum(TOOL_SCHEMA_SETTINGS, {
  error: () => `Expected one of ${TOOL_SCHEMA_SETTINGS.join(", ")}`,
});

/** The whole config file. */
export const configSchema = z.strictObject({
  accounts: z.array(account, {
    error: (iss) => iss.input === undefined ? "required (a non-empty list)" : "Expected a list",
  }).min(1, { message: "Expected at least one account" }),
  media_roots: z.array(
    z.string().refine((p) => p.startsWith("/"), { message: "Expected an absolute path" })
      .refine((p) => !p.includes(","), noComma("a media root")),
  ).optional(),
  transcriber: transcriber.optional(),
  notify: notify.optional(),
  limits: limits.optional(),
  quota: quota.optional(),
  tool_schema: toolSchema.optional(),
  taskcard: taskcard.optional(),
  privacy: privacy.optional(),
});

/** The transcriber command config. */
export type TranscriberConfig = z.infer<typeof transcriber>;
/** The validated config file. */
export type FileConfig = z.infer<typeof configSchema>;
