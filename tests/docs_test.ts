/**
 * The operator docs are held to the code: every action, error code we
 * return, provider code we classify, local command and config field the
 * code knows, every canary check and every scope the canary asks for must
 * appear in the reference page that documents it, so a new one cannot ship
 * undocumented.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { LOCAL_COMMANDS } from "../commands/names.ts";
import { CHECK_NAMES } from "../lib/canary/_types.ts";
import { FEATURE_SCOPES } from "../lib/canary/scopes.ts";
import { configSchema } from "../lib/config/schema.ts";
import { ERROR_CODES } from "../lib/core/errors.ts";
import { PROVIDER_CODE_TABLE } from "../lib/feishu/classify.ts";
import { FEISHU_ACTIONS } from "../lib/mcp/family/actions.ts";
import { REPO } from "./_server.ts";

const page = (name: string) => Deno.readTextFileSync(join(REPO, "reference", name));
const SETUP = page("setup.md");
const DIAGNOSTICS = page("diagnostics.md");
const MATRIX = page("capability-matrix.md");

/** The names missing from `text`, each looked for as `` `name` `` (or a bare number). */
function missing(text: string, names: readonly string[], quoted = true): string[] {
  return names.filter((n) => !text.includes(quoted ? `\`${n}\`` : n));
}

// deno-lint-ignore no-explicit-any -- walks zod's own schema description
type Def = any;

/** Every field path of a zod schema: `accounts[].app_id`, `limits.inbound_download_bytes`. */
function fieldPaths(schema: Def, prefix = ""): string[] {
  const def = schema?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return fieldPaths(def.innerType, prefix);
    case "pipe":
      return fieldPaths(def.in, prefix);
    case "array":
      return fieldPaths(def.element, `${prefix}[]`);
    case "object": {
      const out: string[] = [];
      for (const [key, value] of Object.entries(def.shape)) {
        const path = prefix ? `${prefix}.${key}` : key;
        out.push(path, ...fieldPaths(value, path));
      }
      return out;
    }
    default:
      return [];
  }
}

Deno.test("the field walker sees nested objects and arrays of the config", () => {
  const paths = fieldPaths(configSchema);
  for (const p of ["accounts", "accounts[].app_id", "transcriber.command", "limits"]) {
    assert.ok(paths.includes(p), `${p} in ${paths.join(", ")}`);
  }
});

Deno.test("setup.md documents every config field", () => {
  assert.deepEqual(missing(SETUP, fieldPaths(configSchema)), []);
});

Deno.test("the capability matrix names every action and every local command", () => {
  assert.deepEqual(missing(MATRIX, FEISHU_ACTIONS), []);
  assert.deepEqual(missing(MATRIX, LOCAL_COMMANDS.map((c) => `/${c}`), false), []);
});

Deno.test("diagnostics.md explains every error code we return and every provider code we classify", () => {
  assert.deepEqual(missing(DIAGNOSTICS, ERROR_CODES), []);
  const codes = PROVIDER_CODE_TABLE.flatMap((row) => row.codes.map(String));
  assert.deepEqual(missing(DIAGNOSTICS, codes), []);
});

Deno.test("setup.md and diagnostics.md name every canary check, setup.md every scope it asks for", () => {
  assert.deepEqual(missing(SETUP, CHECK_NAMES), []);
  assert.deepEqual(missing(DIAGNOSTICS, CHECK_NAMES), []);
  const scopes = FEATURE_SCOPES.flatMap((f) => f.scopes.map((s) => s.scope));
  assert.deepEqual(missing(SETUP, scopes), []);
});
