/**
 * The one redactor: every log line and every text a card shows passes
 * through it. It removes the secrets registered with it (each account's
 * `app_secret`, registered when the config is read) wherever they appear,
 * PEM private key blocks, URL passwords, webhook paths, known credential
 * shapes (Feishu `t-`/`u-` tokens, GitHub, Slack, OpenAI, Anthropic, AWS,
 * Google, Telegram, JWTs, Bearer and Basic credentials), the values of
 * secret flags (`--token VALUE`, `--db-password=VALUE`) and of `key=value` /
 * `"key": "value"` pairs whose key names a secret (`export GITHUB_TOKEN=…`).
 *
 * One implementation, two placeholder styles sharing the same registered
 * secrets: logs write `[REDACTED]`, cards `<REDACTED:kind>` (readable, and
 * it says what was there). A prefix that tells the reader what kind of
 * thing it was stays (`Bearer `, `t-`, `password=`, the URL's user).
 *
 * Linear time on any input (see `redact_rules.ts`), never throws, and
 * idempotent: redacting redacted text changes nothing.
 * @module
 */

import { redactPem, RULES } from "./redact_rules.ts";

/** How placeholders look: `[REDACTED]` in logs, `<REDACTED:kind>` on cards. */
export type RedactionStyle = "log" | "card";

/** Shortest literal secret registered (shorter ones would eat ordinary words). */
export const MIN_SECRET_LENGTH = 4;

const placeholderOf = (style: RedactionStyle, kind: string) =>
  style === "log" ? "[REDACTED]" : `<REDACTED:${kind}>`;

/** The literal secrets one or more redactors share (sorted longest first when used). */
class SecretSet {
  readonly #secrets = new Set<string>();
  #sorted: string[] | null = [];

  add(secret: unknown): void {
    if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) return;
    // As written, and as it reads inside a JSON string (quotes, backslashes escaped).
    for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
      if (form.length >= MIN_SECRET_LENGTH && !this.#secrets.has(form)) {
        this.#secrets.add(form);
        this.#sorted = null;
      }
    }
  }

  list(): readonly string[] {
    this.#sorted ??= [...this.#secrets].sort((a, b) => b.length - a.length);
    return this.#sorted;
  }
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return String(value ?? "");
  } catch {
    return "";
  }
}

/**
 * Removes secrets from text (see the module doc for what it covers).
 *
 * @example Logs keep `[REDACTED]`; a card view of the same redactor says what was there
 * ```ts
 * import { Redactor } from "./redact.ts";
 * const r = new Redactor(["s3cr3t-value"]);
 * const out = r.redact("GET /ws?access_key=abc&trace=ok s3cr3t-value");
 * if (out !== "GET /ws?access_key=[REDACTED]&trace=ok [REDACTED]") throw new Error(out);
 * const card = r.forCards();
 * r.add("added-later-secret");
 * const shown = card.redact("export GITHUB_TOKEN=hunter2hunter2 added-later-secret");
 * if (shown !== "export GITHUB_TOKEN=<REDACTED:secret> <REDACTED:secret>") throw new Error(shown);
 * ```
 */
export class Redactor {
  #secrets: SecretSet;
  readonly #style: RedactionStyle;

  constructor(secrets: Iterable<string> = [], style: RedactionStyle = "log") {
    this.#secrets = new SecretSet();
    this.#style = style;
    for (const s of secrets) this.add(s);
  }

  /** The placeholder style of this redactor. */
  get style(): RedactionStyle {
    return this.#style;
  }

  /** Registers a literal secret (e.g. an `app_secret`) to strip everywhere, in every view. */
  add(secret: string): void {
    this.#secrets.add(secret);
  }

  /** A redactor with `<REDACTED:kind>` placeholders sharing these registered secrets. */
  forCards(): Redactor {
    return this.#view("card");
  }

  /** A redactor with `[REDACTED]` placeholders sharing these registered secrets. */
  forLogs(): Redactor {
    return this.#view("log");
  }

  #view(style: RedactionStyle): Redactor {
    if (style === this.#style) return this;
    const view = new Redactor([], style);
    view.#secrets = this.#secrets;
    return view;
  }

  /** `text` without secrets. Non-string input is turned into text; never throws. */
  redact(text: string): string {
    try {
      return this.#run(asText(text));
    } catch {
      // Only reachable for pathological engine failures: show nothing rather than a secret.
      return this.#style === "log" ? "[redaction failed]" : "";
    }
  }

  #run(text: string): string {
    const style = this.#style;
    let out = text;
    for (const secret of this.#secrets.list()) {
      if (out.includes(secret)) out = out.split(secret).join(placeholderOf(style, "secret"));
    }
    if (out.includes("-----BEGIN ")) out = redactPem(out, placeholderOf(style, "private_key"));
    for (const rule of RULES) {
      const placeholder = placeholderOf(style, rule.kind);
      out = out.replace(rule.re, (match: string, ...args: unknown[]) => {
        const last = args.at(-1);
        const groups = (typeof last === "object" && last !== null ? last : {}) as Record<
          string,
          string | undefined
        >;
        if (rule.when && !rule.when(groups)) return match;
        return (groups.pre ?? "") + placeholder + (groups.post ?? "");
      });
    }
    return out;
  }
}

const DEFAULT_CARD = new Redactor([], "card");

/**
 * Card-style redaction with no registered secrets: for pure renderers and
 * tests. The running server passes its configured redactor instead.
 *
 * @example
 * ```ts
 * import { redactText } from "./redact.ts";
 * if (redactText("pass --token abc123def") !== "pass --token <REDACTED:secret>") throw new Error();
 * ```
 */
export function redactText(text: string): string {
  return DEFAULT_CARD.redact(text);
}
