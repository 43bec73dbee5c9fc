import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { Redactor, redactText } from "./redact.ts";

const SECRET_PLACEHOLDER = "<REDACTED:secret>";

// Credentials are assembled at run time so that no token-shaped literal sits
// in the repository (secret scanners would flag it).
const alnum = (n: number) => "A1b2C3d4E5".repeat(Math.ceil(n / 10)).slice(0, n);
const telegram = `123456789:AA${alnum(33)}`;
const jwt = `eyJ${alnum(20)}.eyJ${alnum(30)}.${alnum(43)}`;

const SHAPES: readonly (readonly [string, string, string])[] = [
  ["a Telegram bot token", `token ${telegram} here`, "token <REDACTED:telegram_bot_token> here"],
  [
    "a Telegram token inside a Bot API URL",
    `GET https://api.telegram.org/bot${telegram}/getMe`,
    "GET https://api.telegram.org/bot<REDACTED:telegram_bot_token>/getMe",
  ],
  ["an OpenAI project key", `key sk-proj-${alnum(48)}`, "key <REDACTED:openai_project_key>"],
  ["a short sk-proj key as a generic key", `sk-proj-${alnum(20)}`, "<REDACTED:api_key>"],
  ["an sk- key", `use sk-${alnum(40)}.`, "use <REDACTED:api_key>."],
  ["a classic GitHub token", `ghp_${alnum(36)}`, "<REDACTED:github_token>"],
  ["a GitHub OAuth token", `(gho_${alnum(36)})`, "(<REDACTED:github_token>)"],
  [
    "a fine-grained GitHub token",
    `github_pat_${alnum(22)}_${alnum(59)}`,
    "<REDACTED:github_token>",
  ],
  ["a Slack bot token", `xoxb-1234567890-${alnum(24)}`, "<REDACTED:slack_token>"],
  ["a Slack user token", `xoxp-${alnum(30)}`, "<REDACTED:slack_token>"],
  ["an AWS access key id", "id=AKIAIOSFODNN7EXAMPLE;", "id=<REDACTED:aws_access_key_id>;"],
  ["a Google API key", `AIza${alnum(35)}`, "<REDACTED:google_api_key>"],
  ["a JWT", `jwt ${jwt} end`, "jwt <REDACTED:jwt> end"],
  ["a bearer token", `Bearer ${alnum(30)}.x-y`, "Bearer <REDACTED:bearer_token>"],
  ["a bearer token whatever its case", `bearer ${alnum(24)}==`, "bearer <REDACTED:bearer_token>"],
  ["a JSON secret field", '{"api_key": "abcdefgh12"}', `{"api_key": "${SECRET_PLACEHOLDER}"}`],
  [
    "a single-quoted dict field",
    "{'password':'hunter2hunter2'}",
    `{'password':'${SECRET_PLACEHOLDER}'}`,
  ],
  [
    "a quoted assignment",
    'client_secret = "s3cr3t-value"',
    `client_secret = "${SECRET_PLACEHOLDER}"`,
  ],
  [
    "a bare assignment",
    "DATABASE_URL=postgres://u:p@h/db rest",
    `DATABASE_URL=${SECRET_PLACEHOLDER} rest`,
  ],
  [
    "a prefixed env variable",
    "OPENAI_API_KEY=abcdefgh1234",
    `OPENAI_API_KEY=${SECRET_PLACEHOLDER}`,
  ],
  ["a YAML line", "refresh-token: abcdefgh\nnext", `refresh-token: ${SECRET_PLACEHOLDER}\nnext`],
  ["a command-line flag", "run --password=correcthorse", `run --password=${SECRET_PLACEHOLDER}`],
  ["a header", "X-Api-Key: 0123456789abcdef", `X-Api-Key: ${SECRET_PLACEHOLDER}`],
  ["a cookie", "Cookie: sid=abcdefghijkl", `Cookie: ${SECRET_PLACEHOLDER}`],
  ["a key in upper case", "PASSWD: longenough", `PASSWD: ${SECRET_PLACEHOLDER}`],
  ["credentials", "credentials=abcd1234efgh", `credentials=${SECRET_PLACEHOLDER}`],
  ["a DSN", 'dsn: "mysql://root@db:3306"', `dsn: "${SECRET_PLACEHOLDER}"`],
  [
    "a token assignment whose value is a token shape",
    `token=ghp_${alnum(36)}`,
    `token=<REDACTED:github_token>`,
  ],
  [
    "an exported GitHub token",
    `export GITHUB_TOKEN=ghp_${alnum(36)}`,
    "export GITHUB_TOKEN=<REDACTED:github_token>",
  ],
  [
    "an exported variable",
    "export API_TOKEN=hunter2hunter2",
    `export API_TOKEN=${SECRET_PLACEHOLDER}`,
  ],
  ["Feishu tenant tokens", `auth t-g1044${alnum(20)} ok`, "auth t-<REDACTED:feishu_token> ok"],
  ["Feishu user tokens", `u-${alnum(30)}`, "u-<REDACTED:feishu_token>"],
  [
    "a PEM private key block",
    `key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIE${alnum(64)}\n-----END RSA PRIVATE KEY-----\nafter`,
    "key:\n<REDACTED:private_key>\nafter",
  ],
  [
    "a PEM block cut before its end",
    `-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn${alnum(40)}`,
    "<REDACTED:private_key>",
  ],
  [
    "a URL password",
    "git clone https://bob:hunter2@git.example.com/r.git",
    "git clone https://bob:<REDACTED:password>@git.example.com/r.git",
  ],
  [
    "a database URL password",
    "connect postgres://app:s3cr3t-pw@db:5432/x",
    "connect postgres://app:<REDACTED:password>@db:5432/x",
  ],
  [
    "Basic credentials",
    "Authorization: Basic dXNlcjpwYXNzd29yZA==",
    "Authorization: Basic <REDACTED:basic_auth>",
  ],
  [
    "Basic credentials after a lower-case header",
    "authorization: basic Zm9vOmJhcg==",
    "authorization: basic <REDACTED:basic_auth>",
  ],
  [
    "an AWS secret access key by name",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    `aws_secret_access_key = ${SECRET_PLACEHOLDER}`,
  ],
  [
    "an AWS key pair on one line",
    "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "<REDACTED:aws_access_key_id> <REDACTED:aws_secret_access_key>",
  ],
  [
    "a Slack webhook path",
    `POST https://hooks.slack.com/services/T0${alnum(8)}/B0${alnum(8)}/${alnum(24)} done`,
    "POST https://hooks.slack.com/services/<REDACTED:slack_webhook> done",
  ],
  ["an Anthropic key", `sk-ant-api03-${alnum(60)}`, "<REDACTED:anthropic_key>"],
  ["a secret flag and its value", "cli --secret s3cr3tvalue x", "cli --secret <REDACTED:secret> x"],
  ["a token flag with =", "cli --token=abc", "cli --token=<REDACTED:secret>"],
  ["a named token flag", "bot --bot-token 12345:abc", "bot --bot-token <REDACTED:secret>"],
  ["a quoted password flag", `db --db-password "a b c"`, "db --db-password <REDACTED:secret>"],
  ["a short bearer token", "Bearer t-emu_0001", "Bearer <REDACTED:bearer_token>"],
];

for (const [what, input, output] of SHAPES) {
  Deno.test(`redactText() hides ${what}`, () => {
    equal(redactText(input), output);
  });
}

const UNTOUCHED: readonly (readonly [string, string])[] = [
  ["ordinary prose", "Read the README, then run the build and report back."],
  ["Chinese prose", "先读取文件，然后运行测试。"],
  ["a value shorter than 8 characters", "password=hunter2"],
  ["a short quoted value", 'token: "abc1234"'],
  ["a word that merely starts with a key", "tokenizer=bert-base-uncased"],
  ["a key word inside a longer name", "max_tokens=4096000000 and session_cache_rate: 0.87803"],
  ["a key word that is not followed by a value", "the secret is out, the token expired"],
  ["a short sk- word", "sk-learn"],
  ["a ghp_ prefix with a short tail", "ghp_short"],
  ["AKIA with too few characters", "AKIA1234"],
  ["bearer followed by plain words", "Bearer of bad news, internationalization"],
  ["a JWT-like text without the second part", `eyJ${alnum(20)}.abc.def`],
  ["the status line of the card", "session · cache 87.8% · miss 170.6k/1.0M · calls 13"],
  ["an already redacted text", `token=${SECRET_PLACEHOLDER} and <REDACTED:github_token>`],
  ["a t-shirt", "a t-shirt-sized task, u-turns and at-least-once delivery"],
  ["a public certificate", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"],
  ["a URL with a port", "open http://localhost:8080/path?x=1"],
  ["a flag mentioned in prose", "pass --token to the CLI, or --max-tokens 4096"],
  ["Basic in prose", "Basic understanding of the Basic Input"],
];

for (const [what, input] of UNTOUCHED) {
  Deno.test(`redactText() leaves ${what} alone`, () => {
    equal(redactText(input), input);
  });
}

Deno.test("redactText() turns non-string input into text instead of throwing", () => {
  equal(redactText(undefined as unknown as string), "");
  equal(redactText(42 as unknown as string), "42");
  const hostile = {
    toString: () => {
      throw new Error("no");
    },
  };
  equal(redactText(hostile as unknown as string), "");
});

// Inputs built to make a backtracking pattern go quadratic or worse: each is
// 200 000 characters, so a super-linear pattern would run for minutes (the
// test would hang) while the linear passes take milliseconds.
const ADVERSARIAL = [
  "a-".repeat(100_000),
  "a_".repeat(100_000),
  '"'.repeat(200_000),
  "token".repeat(40_000),
  "--".repeat(100_000),
  "--token ".repeat(25_000),
  "sk-".repeat(66_000),
  "-".repeat(200_000),
  "t-".repeat(100_000),
  "t-a".repeat(66_000),
  "Bearer ".repeat(28_000),
  "Bearer " + "a".repeat(200_000),
  "Basic " + "Ab".repeat(100_000),
  "https://" + "a".repeat(200_000),
  "a://b:".repeat(33_000),
  "x:y@".repeat(50_000),
  "AKIAIOSFODNN7EXAMPLE ".repeat(9_000),
  "-----BEGIN ".repeat(18_000),
  "-----BEGIN RSA PRIVATE KEY-----".repeat(6_000),
  "password=".repeat(22_000),
  "'token': '".repeat(20_000),
  "a_token: ".repeat(22_000),
  "eyJa.".repeat(40_000),
  "hooks.slack.com/services/".repeat(8_000),
  "?token=&".repeat(25_000),
];

Deno.test("the redactor stays linear on adversarial input (no catastrophic backtracking)", () => {
  const r = new Redactor(["emulator-secret"], "card");
  for (const input of ADVERSARIAL) {
    const out = r.redact(input);
    // Idempotent on these too.
    equal(r.redact(out), out);
  }
});

// Fragments that sit on the edges of the patterns, so that random
// concatenations exercise overlaps between shapes and assignments.
const FRAGMENTS = [
  "token",
  "password",
  "api_key",
  "secret",
  "Bearer ",
  "=",
  ": ",
  '"',
  "'",
  " ",
  "\n",
  ",",
  "}",
  "-",
  "_",
  "/bot",
  "sk-",
  "sk-proj-",
  "ghp_",
  "github_pat_",
  "xoxb-",
  "AKIA",
  "AIza",
  "eyJ",
  ".",
  "123456789:",
  alnum(12),
  alnum(40),
  "abcdefgh",
  "ABCDEFGHIJKLMNOP",
  SECRET_PLACEHOLDER,
  "<REDACTED:github_token>",
  "[REDACTED]",
  "--token ",
  "--secret=",
  "https://u:",
  "@h",
  "Basic ",
  "t-",
  "-----BEGIN RSA PRIVATE KEY-----",
  "-----END RSA PRIVATE KEY-----",
  "hooks.slack.com/services/",
  "export GITHUB_TOKEN=",
  "s3cr3t-app",
];
const tricky = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 14 }).map((p) => p.join(""));

Deno.test("the redactor is idempotent on random text and pattern fragments, in both styles", () => {
  const card = new Redactor(["s3cr3t-app"], "card");
  const log = card.forLogs();
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), tricky), (text) => {
      for (const r of [card, log]) {
        const once = r.redact(text);
        equal(r.redact(once), once);
        ok(!once.includes("s3cr3t-app"), once);
      }
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("redactText() never throws and only ever grows by placeholders", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: "grapheme", maxLength: 200 }), tricky), (text) => {
      const out = redactText(text);
      // Each replacement swaps at least 8 characters for one placeholder of
      // at most 31, so growth is bounded by the number of placeholders.
      const placeholders = (out.match(/<REDACTED:[a-z_]+>/g) ?? []).length;
      if (out.length > text.length + 31 * placeholders) throw new Error(out);
    }),
    { numRuns: 1_000 },
  );
});

Deno.test("registered secrets: every view sees them, quoted or not, JSON-escaped too", () => {
  const log = new Redactor();
  const card = log.forCards();
  log.add('ab"cd\\ef-secret');
  log.add("app-secret-1234");
  log.add("abc"); // too short to register: it would eat words
  equal(card.redact("x app-secret-1234 y"), "x <REDACTED:secret> y");
  equal(card.redact('{"app_secret":"app-secret-1234"}'), '{"app_secret":"<REDACTED:secret>"}');
  equal(card.redact(JSON.stringify({ v: 'ab"cd\\ef-secret' })), '{"v":"<REDACTED:secret>"}');
  equal(log.redact("x app-secret-1234 y"), "x [REDACTED] y");
  equal(card.redact("abc"), "abc");
  equal(card.forLogs().redact("app-secret-1234"), "[REDACTED]");
});

Deno.test("log style keeps the prefixes logs always had", () => {
  const r = new Redactor(["emulator-secret"]);
  equal(
    r.redact("refused (Bearer t-emu_0001, token t-emu_0001, secret emulator-secret)"),
    "refused (Bearer [REDACTED], token t-[REDACTED], secret [REDACTED])",
  );
  equal(r.redact('{"app_secret": "x"}'), '{"app_secret": "[REDACTED]"}');
  equal(r.redact("wss://h/ws?ticket=abc&x=1"), "wss://h/ws?ticket=[REDACTED]&x=1");
});
