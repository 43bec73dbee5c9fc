/**
 * zod's issues on one action input, told in the terms of the published
 * schema: each problem is a path and what was expected there ("required for
 * action 'send'", "not allowed when operation is 'add'", "expected an
 * integer >= 0 or null"). Unions are resolved to the branch the input is
 * closest to; "exactly one of" rules are said as such. Messages name keys,
 * never the values given.
 * @module
 */

import type { z } from "zod";
import type { FeishuAction } from "./actions.ts";
import type { JsonSchema } from "./_json_schema.ts";
import { isJsonObject } from "./_json_value.ts";
import { describeExpected, nodeAt, viewAt } from "./_schema_view.ts";

/** One problem of a refused call: where, and what was expected there. */
export interface Problem {
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];
interface Found {
  path: Path;
  message: string;
  kind: "unknown" | "required" | "expected" | "rule";
}

/** What the translation reads: the action, its `ltp` input schema and the input given. */
interface Context {
  action: FeishuAction;
  schema: JsonSchema;
  input: unknown;
}

/**
 * Every problem of `input` zod found, in issue order, each once.
 *
 * @example
 * ```ts
 * import { inputProblems } from "./_problems.ts";
 * import { ReadInputSchema } from "./inputs.ts";
 * import { actionInputSchema } from "./schema.ts";
 * import assert from "node:assert/strict";
 * const input = { limit: -1 };
 * const issues = ReadInputSchema.safeParse(input).error!.issues;
 * assert.deepEqual(inputProblems("read", actionInputSchema("read"), input, issues), [
 *   { path: "input.chat_id", message: "required for action 'read'" },
 *   { path: "input.limit", message: "expected an integer >= 0 or null" },
 * ]);
 * ```
 */
export function inputProblems(
  action: FeishuAction,
  schema: JsonSchema,
  input: unknown,
  issues: readonly Issue[],
): Problem[] {
  const found = translate({ action, schema, input }, issues, []);
  const seen = new Map<string, Problem>();
  for (const f of found) {
    const p = { path: renderPath(["input", ...f.path]), message: f.message };
    seen.set(`${p.path}\n${p.message}`, p);
  }
  return [...seen.values()];
}

/**
 * A path as `input.content.source`, with odd keys quoted and long ones cut.
 *
 * @example
 * ```ts
 * import { renderPath } from "./_problems.ts";
 * import assert from "node:assert/strict";
 * assert.equal(renderPath(["input", "content", "a b"]), 'input.content["a b"]');
 * ```
 */
export function renderPath(path: Path): string {
  return path.map((key, i) => {
    const k = String(key).length > 64 ? `${String(key).slice(0, 64)}…` : String(key);
    if (/^[A-Za-z_$][\w$]*$/.test(k)) return i === 0 ? k : `.${k}`;
    return `[${JSON.stringify(k)}]`;
  }).join("");
}

function translate(ctx: Context, issues: readonly Issue[], base: Path): Found[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    switch (issue.code) {
      case "invalid_union":
        return union(ctx, issue, path);
      case "unrecognized_keys":
        return issue.keys.map((key) => ({
          path: [...path, key],
          message: unknown(ctx, path, key),
          kind: "unknown" as const,
        }));
      case "invalid_type":
        if (missing(ctx.input, path)) {
          return [{ path, message: required(ctx, path), kind: "required" as const }];
        }
        return [{ path, message: expected(ctx, path), kind: "expected" as const }];
      default:
        return [{ path, message: expected(ctx, path), kind: "expected" as const }];
    }
  });
}

/**
 * A tag no branch has, or the branch closest to the input: for an "exactly
 * one of" pair, the branch of the one key given (or, with both or neither,
 * the rule itself and what else is wrong).
 */
function union(ctx: Context, issue: Issue & { code: "invalid_union" }, path: Path): Found[] {
  const options = (issue as { options?: unknown }).options;
  if (issue.errors.length === 0 && Array.isArray(options)) {
    const list = options.map(String).join(", ");
    return [{
      path,
      message: `expected one of ${list} for action '${ctx.action}'`,
      kind: "expected",
    }];
  }
  const node = path.length ? nodeAt(ctx.schema, path, ctx.input) : ctx.schema;
  const pair = exclusivePair(node);
  const value = valueAt(ctx.input, path);
  const given = pair.filter((k) => isJsonObject(value) && Object.hasOwn(value, k));
  const branches = issue.errors.map((errors) => translate(ctx, errors, path));
  // Refusing or requiring one of the pair is the rule speaking, not a problem of its own.
  const ruleSays = (f: Found, keys: readonly string[]) =>
    f.kind !== "expected" && keys.some((k) => isAbout(f, path, k));
  if (given.length === 1) {
    const fits = branches.filter((b) => !b.some((f) => f.kind === "unknown" && ruleSays(f, given)));
    return closest(fits.length ? fits : branches).filter((f) => !ruleSays(f, pair));
  }
  const rest = closest(branches.map((b) => b.filter((f) => !ruleSays(f, pair))));
  if (!pair.length) return rest;
  const rule = `exactly one of ${pair.join(" or ")} for action '${ctx.action}'`;
  return [{ path, message: rule, kind: "rule" }, ...rest];
}

/** The branch with the fewest problems (the first of equals). */
function closest(branches: readonly Found[][]): Found[] {
  return branches.reduce((best, b) => b.length < best.length ? b : best, branches[0] ?? []);
}

/** Whether a problem is about key `key` of the object at `path`. */
function isAbout(f: Found, path: Path, key: string): boolean {
  return f.path.length === path.length + 1 && f.path.at(-1) === key &&
    path.every((k, i) => f.path[i] === k);
}

/** The two keys of an "exactly one of" rule (`oneOf` of `{required: [k]}`), or []. */
function exclusivePair(node: JsonSchema | undefined): string[] {
  const entries = (node?.oneOf ?? []) as JsonSchema[];
  const keys = entries.map((e) =>
    e.properties === undefined && Array.isArray(e.required) && e.required.length === 1
      ? String(e.required[0])
      : undefined
  );
  return entries.length === 2 && keys.every((k) => k !== undefined) ? keys as string[] : [];
}

function required(ctx: Context, path: Path): string {
  const parent = path.slice(0, -1);
  const tag = viewAt(ctx.schema, parent, ctx.input)?.tag;
  if (tag && !tag.common.has(String(path.at(-1)))) {
    return `required when ${tag.key} is '${tag.value}'`;
  }
  return parent.length === 0 ? `required for action '${ctx.action}'` : "required";
}

function unknown(ctx: Context, parent: Path, key: string): string {
  const tag = viewAt(ctx.schema, parent, ctx.input)?.tag;
  if (tag?.siblings.has(key)) return `not allowed when ${tag.key} is '${tag.value}'`;
  if (parent.length === 0) return `unknown key for action '${ctx.action}'`;
  return tag ? `unknown key for ${String(parent.at(-1))} ${tag.key} '${tag.value}'` : "unknown key";
}

function expected(ctx: Context, path: Path): string {
  const node = path.length ? nodeAt(ctx.schema, path, ctx.input) : ctx.schema;
  return `expected ${node ? describeExpected(node) : "a valid value"}`;
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => isJsonObject(v) ? v[String(k)] : undefined, value);
}

function missing(value: unknown, path: Path): boolean {
  const parent = valueAt(value, path.slice(0, -1));
  return path.length > 0 && isJsonObject(parent) && !Object.hasOwn(parent, String(path.at(-1)));
}
