/**
 * The one setting `tools/list` needs before the config is fully loaded:
 * which projection of the tool schema to publish. Read without the config's
 * validator, so answering the handshake stays light; the full load still
 * refuses a bad value (and the server then runs degraded).
 * @module
 */

/** The values of the config's `tool_schema` key. */
export const TOOL_SCHEMA_SETTINGS = ["auto", "ltp", "portable"] as const;

/** One of {@link TOOL_SCHEMA_SETTINGS}; `auto` when the config names none. */
export type ToolSchemaSetting = typeof TOOL_SCHEMA_SETTINGS[number];

/**
 * The config's `tool_schema`, or `auto` when the file is missing, unreadable,
 * not JSON, or holds no valid value.
 *
 * @example
 * ```ts
 * import { peekToolSchema } from "./peek.ts";
 * import assert from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, JSON.stringify({ accounts: [], tool_schema: "portable" }));
 * assert.equal(await peekToolSchema(path), "portable");
 * await Deno.writeTextFile(path, JSON.stringify({ tool_schema: "fancy" }));
 * assert.equal(await peekToolSchema(path), "auto");
 * assert.equal(await peekToolSchema(null), "auto");
 * ```
 */
export async function peekToolSchema(path: string | null): Promise<ToolSchemaSetting> {
  if (path === null) return "auto";
  try {
    const raw = JSON.parse(await Deno.readTextFile(path)) as { tool_schema?: unknown };
    const value = raw?.tool_schema;
    return (TOOL_SCHEMA_SETTINGS as readonly unknown[]).includes(value)
      ? value as ToolSchemaSetting
      : "auto";
  } catch {
    return "auto";
  }
}
