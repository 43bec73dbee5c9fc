/**
 * Secret scrubbing for every text the Task Card shows. The card is a public
 * surface in a chat, so reasoning and response text are passed through a
 * fixed, deterministic set of regular expressions before they are rendered:
 *
 * - well-known credential shapes (Telegram bot tokens, OpenAI, GitHub, Slack,
 *   AWS, Google keys, JWTs, `Bearer` tokens) become `<REDACTED:kind>`;
 * - assignments such as `password=…`, `api_key: "…"` or `"token": "…"` whose
 *   key names a secret and whose value has 8 or more characters keep their
 *   key and quotes but get `<REDACTED:secret>` as value.
 *
 * The pass is conservative on purpose (prose must stay readable), never
 * throws, and is idempotent: scrubbing scrubbed text changes nothing, so the
 * card may redact again what the events log writer already redacted.
 * @module
 */

/** The value put in place of a secret assignment's value. */
export const SECRET_PLACEHOLDER = "<REDACTED:secret>";

/**
 * Credential shapes, tried in this order (the OpenAI project-key shape must
 * come before the generic `sk-` one, which would otherwise claim it).
 * Thresholds are minimum lengths of the random part, kept low enough to
 * catch real tokens and high enough to leave ordinary words alone.
 */
const TOKEN_SHAPES: readonly (readonly [RegExp, string])[] = [
  // `<digits>:<secret>`, standalone or inside a Bot API URL path (`/bot<id>:…`).
  [/(?:\b|(?<=\/bot))\d{6,12}:[A-Za-z0-9_-]{30,}\b/g, "<REDACTED:telegram_bot_token>"],
  [/\bsk-proj-[A-Za-z0-9_-]{40,}\b/g, "<REDACTED:openai_project_key>"],
  [/\bsk-[A-Za-z0-9_-]{20,}\b/g, "<REDACTED:api_key>"],
  [/\bgh[po]_[A-Za-z0-9]{30,}\b/g, "<REDACTED:github_token>"],
  [/\bgithub_pat_[A-Za-z0-9_]{50,}\b/g, "<REDACTED:github_token>"],
  [/\bxox[baprs]-[A-Za-z0-9-]{20,}\b/g, "<REDACTED:slack_token>"],
  [/\bAKIA[0-9A-Z]{16}\b/g, "<REDACTED:aws_access_key_id>"],
  [/\bAIza[0-9A-Za-z_-]{30,}\b/g, "<REDACTED:google_api_key>"],
  [/\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\b/g, "<REDACTED:jwt>"],
  // At least 20 token characters, one of them not a letter, so that
  // "bearer" followed by a long English word is left alone.
  [
    /\bBearer\s+(?=[A-Za-z]*[0-9._~+\/-])[A-Za-z0-9._~+\/-]{20,}=*/gi,
    "Bearer <REDACTED:bearer_token>",
  ],
];

/**
 * Words that name a secret when they end a key. A key may carry any prefix
 * segments joined by `_` or `-` (`client_secret`, `OPENAI_API_KEY`,
 * `x-api-key`), but the word must end the key: `tokenizer` or `max_tokens`
 * are not secrets.
 */
const SECRET_WORDS = [
  "api[_-]?key",
  "secret",
  "token",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "credentials?",
  "auth",
  "authorization",
  "cookie",
  "session",
  "private[_-]?key",
  "signing[_-]?key",
  "pem",
  "certificate",
  "cert",
  "connection[_-]?string",
  "dsn",
  "database[_-]?url",
].join("|");

// A key starts neither inside a word nor right after `word-` (so `a-b-c`
// is scanned once, keeping the pass linear), but may follow `--` or ` -`.
const KEY = `(?<![A-Za-z0-9_])(?<![A-Za-z0-9_]-)(?:[A-Za-z0-9]+[_-])*(?:${SECRET_WORDS})` +
  `(?![A-Za-z0-9_])`;

/** `"key": "value"` (JSON or a Python dict literal). */
const QUOTED_KEY_QUOTED_VALUE = new RegExp(
  `(["'])(${KEY})\\1(\\s*:\\s*)(["'])[^"']{8,}\\4`,
  "gi",
);
/** `key = "value"` / `key: 'value'`. */
const QUOTED_VALUE = new RegExp(`(${KEY}\\s*[=:]\\s*)(["'])[^"']{8,}\\2`, "gi");
/** `key=value`, `KEY: value`, `"key": value`; the value ends at a space, `,`, `;`, `}` or a quote. */
const BARE_VALUE = new RegExp(`(["']?${KEY}["']?\\s*[=:]\\s*)[^\\s,;}"']{8,}`, "gi");

/**
 * Replaces secrets in `text` by `<REDACTED:kind>` placeholders. Never
 * throws; a non-string argument (from untyped JSON) is treated as text.
 *
 * @example
 * ```ts
 * import { redactText } from "./redact.ts";
 * const token = "ghp_" + "a1B2".repeat(9);
 * if (redactText(`push with ${token}`) !== "push with <REDACTED:github_token>") throw new Error();
 * if (redactText('password: "hunter2hunter2"') !== 'password: "<REDACTED:secret>"') throw new Error();
 * if (redactText("tokenizer=bert-base-uncased") !== "tokenizer=bert-base-uncased") throw new Error();
 * ```
 */
export function redactText(text: string): string {
  try {
    let out = typeof text === "string" ? text : String(text ?? "");
    for (const [shape, placeholder] of TOKEN_SHAPES) out = out.replace(shape, placeholder);
    out = out.replace(QUOTED_KEY_QUOTED_VALUE, `$1$2$1$3$4${SECRET_PLACEHOLDER}$4`);
    out = out.replace(QUOTED_VALUE, `$1$2${SECRET_PLACEHOLDER}$2`);
    return out.replace(BARE_VALUE, `$1${SECRET_PLACEHOLDER}`);
  } catch {
    // Only reachable for exotic non-string input (e.g. a symbol); show nothing.
    return "";
  }
}
