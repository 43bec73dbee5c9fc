/**
 * The shapes the redactor removes, as data: each rule is one global regular
 * expression whose named groups `pre` and `post` are kept around the
 * placeholder. Every pattern is written to run in linear time on any input:
 * runs are bounded or unambiguous, lookaheads are bounded, and nothing nests
 * a quantifier inside another over the same characters. Placeholders never
 * match a rule again (values that already are a placeholder are skipped),
 * so redacting twice changes nothing.
 * @module
 */

/** One shape: what it matches and the kind its placeholder names. */
export interface Rule {
  re: RegExp;
  kind: string;
  /** Replaces only when this says so (e.g. a flag's name names a secret). */
  when?: (groups: Record<string, string | undefined>) => boolean;
}

/** A value that is already a placeholder (card or log style) is never redacted again. */
const NOT_PLACEHOLDER = String.raw`(?!<REDACTED:|\[REDACTED\])`;

/**
 * Words that name a secret when they end a key. A key may carry any prefix
 * segments joined by `_` or `-` (`client_secret`, `OPENAI_API_KEY`,
 * `x-api-key`), but the word must end the key: `tokenizer` or `max_tokens`
 * are not secrets.
 */
const SECRET_WORDS = [
  "api[_-]?key",
  "access[_-]?key",
  "secret[_-]?(?:access[_-]?)?key",
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
  "webhook[_-]?url",
].join("|");

// A key starts neither inside a word nor right after `word-` (so `a-b-c` is
// scanned once, keeping the pass linear), but may follow `--` or ` -`.
const KEY = `(?<![A-Za-z0-9_])(?<![A-Za-z0-9_]-)(?:[A-Za-z0-9]+[_-])*(?:${SECRET_WORDS})` +
  `(?![A-Za-z0-9_])`;

/** Words that make a command-line flag secret: `--token`, `--bot-token=`, `--db-password`. */
const SECRET_FLAG = new RegExp(
  `(?:^|[_-])(?:secret|token|password|passwd|passphrase|api[_-]?key|apikey|access[_-]?key|` +
    `private[_-]?key|credentials?)(?:$|[_-])`,
  "i",
);

const g = (source: string, flags = "g") => new RegExp(source, flags);

/** Token shapes with a fixed prefix, tried before the key/value pass. */
const SHAPES: Rule[] = [
  // `<digits>:<secret>`, standalone or inside a Bot API URL path (`/bot<id>:…`).
  { re: /(?:\b|(?<=\/bot))\d{6,12}:[A-Za-z0-9_-]{30,}\b/g, kind: "telegram_bot_token" },
  { re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, kind: "anthropic_key" },
  { re: /\bsk-proj-[A-Za-z0-9_-]{40,}\b/g, kind: "openai_project_key" },
  { re: /\bsk-[A-Za-z0-9_-]{20,}\b/g, kind: "api_key" },
  { re: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, kind: "github_token" },
  { re: /\bgithub_pat_[A-Za-z0-9_]{50,}\b/g, kind: "github_token" },
  { re: /\bxox[abposre]-[A-Za-z0-9-]{20,}\b/g, kind: "slack_token" },
  { re: /\bxapp-[A-Za-z0-9-]{20,}\b/g, kind: "slack_token" },
  // A 40-character secret key shortly after an access key id (the pair AWS prints).
  {
    re:
      /(?<pre>\bA(?:KIA|SIA)[0-9A-Z]{16}\b[^\n]{0,80}?)(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    kind: "aws_secret_access_key",
  },
  { re: /\bA(?:KIA|SIA)[0-9A-Z]{16}\b/g, kind: "aws_access_key_id" },
  { re: /\bAIza[0-9A-Za-z_-]{30,}/g, kind: "google_api_key" },
  { re: /\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, kind: "jwt" },
];

/** Everything from URLs to flags to `key=value` pairs, in the order they run. */
export const RULES: readonly Rule[] = [
  // The password of a URL's userinfo: `https://user:pass@host`.
  {
    re: g(
      String.raw`(?<pre>\b[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s/?#@:]{0,256}:)` +
        String.raw`[^\s/?#@]{1,256}(?<post>@)`,
    ),
    kind: "password",
  },
  // Incoming-webhook paths: whoever has them can post.
  {
    re: /(?<pre>\bhooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_\/-]{8,}/g,
    kind: "slack_webhook",
  },
  {
    re: /(?<pre>\bdiscord(?:app)?\.com\/api\/webhooks\/)[A-Za-z0-9_\/-]{8,}/g,
    kind: "discord_webhook",
  },
  ...SHAPES,
  // At least 8 token characters, one of them not a letter, so that "Bearer"
  // followed by an English word is left alone.
  {
    re: /(?<pre>\b[Bb]earer\s+)(?=[A-Za-z]{0,512}[0-9._~+\/=-])[A-Za-z0-9._~+\/=-]{8,}/g,
    kind: "bearer_token",
  },
  {
    re:
      /(?<pre>\bBasic[ \t]+)(?=[A-Za-z0-9+\/]{0,512}(?:[0-9+\/=]|[a-z][A-Z]))[A-Za-z0-9+\/]{8,}={0,2}/g,
    kind: "basic_auth",
  },
  {
    re: /(?<pre>\bauthorization["']?\s*[:=]\s*["']?basic\s+)[A-Za-z0-9+\/]{4,}={0,2}/gi,
    kind: "basic_auth",
  },
  // Feishu tenant and user access tokens (`t-…`, `u-…`): a digit somewhere keeps `t-shirt` out.
  {
    re: /(?<pre>\b[tu]-)(?=[A-Za-z._-]{0,64}[0-9])[A-Za-z0-9._-]{8,}/g,
    kind: "feishu_token",
  },
  // Credentials in a query string, whatever their length.
  {
    re: g(
      String.raw`(?<pre>[?&](?:access_key|ticket|token|access_token|tenant_access_token|` +
        String.raw`app_access_token|app_secret|client_secret|api_key|password|sig|signature)=)` +
        NOT_PLACEHOLDER + String.raw`[^&\s"'<>#]+`,
      "gi",
    ),
    kind: "secret",
  },
  // `--token VALUE`, `--db-password=VALUE`, `--secret "a b"`.
  {
    re: g(
      String.raw`(?<pre>(?<![A-Za-z0-9_-])--?(?<name>[A-Za-z0-9][A-Za-z0-9_-]{0,63})` +
        String.raw`(?<sep>=|[ \t]+))` + NOT_PLACEHOLDER +
        String.raw`(?<value>"[^"\n]{1,512}"|'[^'\n]{1,512}'|(?!-)[^\s"']{1,512})`,
    ),
    kind: "secret",
    // After a space, a short plain word is prose ("pass --token to the CLI"), not a value.
    when: (gr) =>
      SECRET_FLAG.test(gr.name ?? "") &&
      (gr.sep === "=" || !/^[A-Za-z]{1,7}$/.test(gr.value ?? "")),
  },
  // Names a Feishu config or API response uses, whatever the value's length.
  {
    re: g(
      String.raw`(?<pre>"(?:app_secret|appSecret|AppSecret|tenant_access_token|app_access_token|` +
        String.raw`access_token|refresh_token|secret|encrypt_key|verification_token)"\s*:\s*")` +
        NOT_PLACEHOLDER + String.raw`[^"\n]{1,1024}(?<post>")`,
    ),
    kind: "secret",
  },
  {
    re: g(
      String.raw`(?<pre>\b(?:app_secret|appSecret|AppSecret|access_token|encrypt_key)\s*[=:]\s*)` +
        NOT_PLACEHOLDER + String.raw`[^\s,;&"'<>]+`,
    ),
    kind: "secret",
  },
  // `"key": "value"` (JSON or a Python dict literal).
  {
    re: g(
      String.raw`(?<pre>(["'])${KEY}\2\s*:\s*(["']))` + NOT_PLACEHOLDER +
        String.raw`[^"'\n]{8,1024}(?<post>\3)`,
      "gi",
    ),
    kind: "secret",
  },
  // `key = "value"` / `key: 'value'` / `export KEY="value"`.
  {
    re: g(
      String.raw`(?<pre>${KEY}\s*[=:]\s*(["']))` + NOT_PLACEHOLDER +
        String.raw`[^"'\n]{8,1024}(?<post>\2)`,
      "gi",
    ),
    kind: "secret",
  },
  // `key=value`, `KEY: value`, `"key": value`; the value ends at a space, `,`, `;`, `}` or a quote.
  {
    re: g(
      String.raw`(?<pre>["']?${KEY}["']?[ \t]*[=:][ \t]*)` + NOT_PLACEHOLDER +
        String.raw`[^\s,;}"']{8,}`,
      "gi",
    ),
    kind: "secret",
  },
];

/** Where a private key block starts and ends; the label must say `PRIVATE KEY`. */
const PEM_BEGIN = "-----BEGIN ";
const PEM_END = "-----END ";
const PEM_DASHES = "-----";

/**
 * Replaces PEM private key blocks by `placeholder`, scanning once. A block
 * without its END line (cut, or still being written) is hidden to the end of
 * the text: half a key is still a key.
 */
export function redactPem(text: string, placeholder: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const begin = text.indexOf(PEM_BEGIN, from);
    if (begin < 0) break;
    const labelEnd = text.indexOf(PEM_DASHES, begin + PEM_BEGIN.length);
    const label = labelEnd < 0 ? "" : text.slice(begin + PEM_BEGIN.length, labelEnd);
    if (labelEnd < 0 || label.length > 64 || !label.includes("PRIVATE KEY")) {
      out += text.slice(from, begin + PEM_BEGIN.length);
      from = begin + PEM_BEGIN.length;
      continue;
    }
    out += text.slice(from, begin) + placeholder;
    const end = text.indexOf(PEM_END, labelEnd + PEM_DASHES.length);
    if (end < 0) return out;
    const close = text.indexOf(PEM_DASHES, end + PEM_END.length);
    if (close < 0 || close - end > 80) return out;
    from = close + PEM_DASHES.length;
  }
  return out + text.slice(from);
}
