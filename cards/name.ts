/**
 * The agent's name as a card header shows it: one line (control and line
 * separator characters become a space), trimmed. Pure.
 * @module
 */

/**
 * `name` fit for a one-line plain-text header; `""` when there is none.
 *
 * @example
 * ```ts
 * import { headerName } from "./name.ts";
 * if (headerName(" scribe\n2 ") !== "scribe 2" || headerName(null) !== "") throw new Error();
 * ```
 */
export function headerName(name: unknown): string {
  if (typeof name !== "string") return "";
  // deno-lint-ignore no-control-regex -- control characters are exactly what is removed
  return name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
}
