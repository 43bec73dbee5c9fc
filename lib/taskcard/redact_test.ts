import { equal } from "node:assert/strict";
import fc from "fast-check";
import { redactText, SECRET_PLACEHOLDER } from "./redact.ts";

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
  ["a bearer token whatever its case", `bearer ${alnum(24)}==`, "Bearer <REDACTED:bearer_token>"],
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
    `token=${SECRET_PLACEHOLDER}`,
  ],
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

Deno.test("redactText() stays fast on long pathological input", () => {
  const inputs = [
    "a-".repeat(50_000),
    "a_".repeat(50_000),
    '"'.repeat(100_000),
    "token".repeat(20_000),
  ];
  const started = performance.now();
  for (const input of inputs) redactText(input);
  const ms = performance.now() - started;
  if (ms > 2_000) throw new Error(`took ${ms} ms`);
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
];
const tricky = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 14 }).map((p) => p.join(""));

Deno.test("redactText() is idempotent on random text and pattern fragments", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), tricky), (text) => {
      const once = redactText(text);
      equal(redactText(once), once);
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
