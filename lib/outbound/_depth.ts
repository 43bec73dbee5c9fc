/**
 * The nesting depth of a post or card, measured without recursion before
 * anything recursive (a structured clone, a preview walk, JSON encoding)
 * touches it: a body nested thousands of levels deep would overflow the
 * stack there and end as an unclassified error.
 * @module
 */

import { BridgeError } from "../core/mod.ts";

/** The deepest a post or card body may nest (objects and arrays). */
export const MAX_BODY_DEPTH = 64;

/**
 * How deeply `value` nests (a scalar is 0, `{}` and `[]` are 1), stopping
 * early once it exceeds `stopAbove`. Iterative: any depth is safe.
 *
 * @example
 * ```ts
 * import { jsonDepth } from "./_depth.ts";
 * if (jsonDepth({ a: [1, { b: 2 }] }) !== 3) throw new Error();
 * if (jsonDepth("x") !== 0) throw new Error();
 * ```
 */
export function jsonDepth(value: unknown, stopAbove = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d > max) {
      max = d;
      if (max > stopAbove) return max;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, d + 1]);
    }
  }
  return max;
}

/**
 * Throws a `FORMAT_ERROR` naming the budget when a post or card nests deeper
 * than {@link MAX_BODY_DEPTH}.
 *
 * @example
 * ```ts
 * import { assertBodyDepth } from "./_depth.ts";
 * assertBodyDepth("card", { schema: "2.0", body: { elements: [] } });
 * ```
 */
export function assertBodyDepth(what: "post" | "card", body: unknown): void {
  const depth = jsonDepth(body, MAX_BODY_DEPTH);
  if (depth <= MAX_BODY_DEPTH) return;
  throw new BridgeError(
    "FORMAT_ERROR",
    `Expected the ${what} nested at most ${MAX_BODY_DEPTH} levels deep but found more than ` +
      `${MAX_BODY_DEPTH}; flatten the structure`,
  );
}
