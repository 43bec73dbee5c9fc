/**
 * The canary's output: a pass/fail table for people, one JSON object for
 * machines, and the guard every printed string passes. The guard runs the
 * project's redactor (secret query parameters, bearer headers, `t-`/`u-`
 * tokens, secret-named fields, the registered secrets), then refuses any
 * string that still holds a configured secret, a token-shaped value or a
 * WebSocket ticket: a last line of defence against a redaction rule that
 * missed.
 * @module
 */

import { Redactor } from "../core/mod.ts";
import type { CheckResult, Evidence } from "./checks.ts";

/** What replaces a string the guard refuses. */
export const WITHHELD = "[withheld: this line would have shown a secret]";

const TOKEN_SHAPE = /\b[tu]-[A-Za-z0-9._-]{8,}/;
const TICKET = /[?&](?:access_key|ticket|token)=(?!\[REDACTED\])[^&\s"']/i;

/**
 * Redacts, then refuses what redaction left behind.
 *
 * @example A token the redactor removes, a secret it knows
 * ```ts
 * import { OutputGuard } from "./report.ts";
 * const g = new OutputGuard();
 * g.addSecret("s3cret-value");
 * if (g.clean("token t-abcdefgh1234 ok").includes("abcdefgh1234")) throw new Error();
 * if (g.clean("secret s3cret-value").includes("s3cret")) throw new Error();
 * ```
 */
export class OutputGuard {
  readonly #redactor: Redactor;
  readonly #secrets = new Set<string>();

  constructor(redactor: Redactor = new Redactor()) {
    this.#redactor = redactor;
  }

  /** Registers a secret (an app secret, a token) to strip and to refuse. */
  addSecret(secret: string): void {
    if (!secret) return;
    this.#secrets.add(secret);
    this.#redactor.add(secret);
  }

  /** True when `text` must not be printed as it is. */
  unsafe(text: string): boolean {
    if (TOKEN_SHAPE.test(text) || TICKET.test(text)) return true;
    for (const s of this.#secrets) if (text.includes(s)) return true;
    return false;
  }

  /** The redacted text, or {@link WITHHELD} when it is still unsafe. */
  clean(text: string): string {
    const out = this.#redactor.redact(text);
    return this.unsafe(out) ? WITHHELD : out;
  }
}

function cleanEvidence(guard: OutputGuard, e: Evidence): Evidence {
  const out: Evidence = {};
  for (const [k, v] of Object.entries(e)) out[k] = typeof v === "string" ? guard.clean(v) : v;
  return out;
}

function cleanResult(guard: OutputGuard, r: CheckResult): CheckResult {
  return {
    name: r.name,
    status: r.status,
    detail: guard.clean(r.detail),
    ...(r.evidence ? { evidence: cleanEvidence(guard, r.evidence) } : {}),
    ...(r.fix ? { fix: r.fix.split("\n").map((l) => guard.clean(l)).join("\n") } : {}),
  };
}

/** True when every check passed. */
export function allPassed(results: readonly CheckResult[]): boolean {
  return results.length > 0 && results.every((r) => r.status === "pass");
}

/**
 * The `--json` output: one object `{ok, checks}` on one line.
 *
 * @example
 * ```ts
 * import { OutputGuard, renderJson } from "./report.ts";
 * const out = JSON.parse(renderJson([{ name: "config", status: "pass", detail: "ok" }], new OutputGuard()));
 * if (out.ok !== true || out.checks[0].name !== "config") throw new Error();
 * ```
 */
export function renderJson(results: readonly CheckResult[], guard: OutputGuard): string {
  const text = JSON.stringify({
    ok: allPassed(results),
    checks: results.map((r) => cleanResult(guard, r)),
  });
  return guard.unsafe(text)
    ? JSON.stringify({ ok: false, checks: [], error: WITHHELD }) + "\n"
    : text + "\n";
}

const NAME_WIDTH = 16;
const STATUS_WIDTH = 7;

function evidenceLine(e: Evidence): string {
  return Object.entries(e).map(([k, v]) => `${k}=${v}`).join(" ");
}

/**
 * The table: a summary line, then per check its status and detail, the
 * evidence and any fix below it.
 *
 * @example
 * ```ts
 * import { OutputGuard, renderTable } from "./report.ts";
 * const t = renderTable([{ name: "config", status: "fail", detail: "bad", fix: "fix it" }], new OutputGuard());
 * if (!t.startsWith("feishu-mcp canary: FAIL") || !t.includes("fix: fix it")) throw new Error(t);
 * ```
 */
export function renderTable(results: readonly CheckResult[], guard: OutputGuard): string {
  const count = (s: CheckResult["status"]) => results.filter((r) => r.status === s).length;
  const lines = [
    `feishu-mcp canary: ${allPassed(results) ? "PASS" : "FAIL"} ` +
    `(${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped)`,
    "",
    `${"check".padEnd(NAME_WIDTH)}${"status".padEnd(STATUS_WIDTH)}detail`,
  ];
  const indent = " ".repeat(NAME_WIDTH + STATUS_WIDTH);
  for (const raw of results) {
    const r = cleanResult(guard, raw);
    const status = r.status === "fail" ? "FAIL" : r.status;
    lines.push(`${r.name.padEnd(NAME_WIDTH)}${status.padEnd(STATUS_WIDTH)}${r.detail}`);
    if (r.evidence && Object.keys(r.evidence).length) {
      lines.push(`${indent}evidence: ${evidenceLine(r.evidence)}`);
    }
    if (r.fix) {
      const [first, ...rest] = r.fix.split("\n");
      lines.push(`${indent}fix: ${first}`, ...rest.map((l) => `${indent}     ${l}`));
    }
  }
  return lines.map((l) => guard.clean(l)).join("\n") + "\n";
}
