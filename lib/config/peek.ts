/**
 * Reading a config file without its validator, for what is needed before
 * (or without) the full load: the launcher's permission flags, and which
 * projection of the tool schema `tools/list` publishes. Light on purpose (no
 * zod), so the launcher and the handshake stay fast; the full load still
 * refuses anything invalid (and the server then runs degraded).
 * @module
 */

/** The values of the config's `tool_schema` key. */
export const TOOL_SCHEMA_SETTINGS = ["auto", "ltp", "portable"] as const;

/** One of {@link TOOL_SCHEMA_SETTINGS}; `auto` when the config names none. */
export type ToolSchemaSetting = typeof TOOL_SCHEMA_SETTINGS[number];

/**
 * The config file's top-level JSON object, or null when there is no path or
 * the file is missing, unreadable or not a JSON object. Never throws.
 *
 * @example
 * ```ts
 * import { readRawConfig } from "./peek.ts";
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, '{"accounts": []}');
 * assert.deepEqual(readRawConfig(path), { accounts: [] });
 * Deno.writeTextFileSync(path, "[1]");
 * assert.equal(readRawConfig(path), null);
 * assert.equal(readRawConfig(null), null);
 * ```
 */
export function readRawConfig(path: string | null): Record<string, unknown> | null {
  if (!path) return null;
  try {
    const raw = JSON.parse(Deno.readTextFileSync(path)) as unknown;
    return raw !== null && typeof raw === "object" && !Array.isArray(raw)
      ? raw as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}

/**
 * The config's `tool_schema`, or `auto` when the file is missing, unreadable,
 * not JSON, or holds no valid value.
 *
 * @example
 * ```ts
 * import { peekToolSchema } from "./peek.ts";
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, JSON.stringify({ accounts: [], tool_schema: "portable" }));
 * assert.equal(peekToolSchema(path), "portable");
 * Deno.writeTextFileSync(path, JSON.stringify({ tool_schema: "fancy" }));
 * assert.equal(peekToolSchema(path), "auto");
 * assert.equal(peekToolSchema(null), "auto");
 * ```
 */
export function peekToolSchema(path: string | null): ToolSchemaSetting {
  const value = readRawConfig(path)?.tool_schema;
  return (TOOL_SCHEMA_SETTINGS as readonly unknown[]).includes(value)
    ? value as ToolSchemaSetting
    : "auto";
}

/**
 * Whether some account names `allowed_users` (non-empty strings), read
 * without validation: the handshake declares the permission relay only then,
 * since someone authenticated must answer its prompts.
 *
 * @example
 * ```ts
 * import { peekAllowedUsers } from "./peek.ts";
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".json" });
 * Deno.writeTextFileSync(path, JSON.stringify({ accounts: [{ alias: "a" }, { allowed_users: ["ou_1"] }] }));
 * assert.equal(peekAllowedUsers(path), true);
 * Deno.writeTextFileSync(path, JSON.stringify({ accounts: [{ allowed_users: [] }] }));
 * assert.equal(peekAllowedUsers(path), false);
 * assert.equal(peekAllowedUsers(null), false);
 * ```
 */
export function peekAllowedUsers(path: string | null): boolean {
  const accounts = readRawConfig(path)?.accounts;
  if (!Array.isArray(accounts)) return false;
  return accounts.some((a) => {
    const list = (a as Record<string, unknown> | null)?.allowed_users;
    return Array.isArray(list) && list.some((u) => typeof u === "string" && u !== "");
  });
}
