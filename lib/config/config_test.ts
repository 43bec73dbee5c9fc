import assert from "node:assert/strict";
import { parseConfig, resolveLaunch } from "./mod.ts";

const opts = { workdir: "/w", lingtai: false };
const acct = { alias: "main", app_id: "cli_a1b2c3d4e5f6a7b8", app_secret: "sec-ret-value" };

const rejections: { name: string; config: unknown; want: string[] }[] = [
  {
    name: "a missing accounts list",
    config: {},
    want: ["config accounts: required (a non-empty list)"],
  },
  {
    name: "an empty accounts list",
    config: { accounts: [] },
    want: ["config accounts: Expected at least one account"],
  },
  {
    name: "an unknown top-level key",
    config: { accounts: [acct], bogus: 1 },
    want: ["config: unknown key 'bogus'"],
  },
  {
    name: "an unknown account key",
    config: { accounts: [{ ...acct, secret: "x" }] },
    want: ["config accounts[0]: unknown key 'secret'"],
  },
  {
    name: "missing app_id and app_secret",
    config: { accounts: [{ alias: "main" }] },
    want: ["config accounts[0].app_id: required", "config accounts[0].app_secret: required"],
  },
  {
    name: "an app_id that is not cli_ + 16 hex",
    config: { accounts: [{ ...acct, app_id: "cli_123" }] },
    want: [
      "config accounts[0].app_id: Expected app_id to look like cli_ followed by 16 hex digits",
    ],
  },
  {
    name: "an alias with ':'",
    config: { accounts: [{ ...acct, alias: "a:b" }] },
    want: [
      "config accounts[0].alias: Expected alias to be 1-64 letters, digits, '_' or '-' starting with a letter or digit (no ':' or path characters)",
    ],
  },
  {
    name: "an alias with path characters",
    config: { accounts: [{ ...acct, alias: "../x" }] },
    want: [
      "config accounts[0].alias: Expected alias to be 1-64 letters, digits, '_' or '-' starting with a letter or digit (no ':' or path characters)",
    ],
  },
  {
    name: "a duplicate alias",
    config: { accounts: [acct, { ...acct, app_id: "cli_0000000000000000" }] },
    want: ["config accounts: duplicate alias 'main'"],
  },
  {
    name: "a domain that is neither feishu, lark nor a URL",
    config: { accounts: [{ ...acct, domain: "ftp://x" }] },
    want: ["config accounts[0].domain: Expected 'feishu', 'lark' or an http(s) base URL"],
  },
  {
    name: "a relative media root",
    config: { accounts: [acct], media_roots: ["media"] },
    want: ["config media_roots[0]: Expected an absolute path"],
  },
  {
    name: "an empty transcriber command",
    config: { accounts: [acct], transcriber: { command: [] } },
    want: ["config transcriber.command: Expected a non-empty argv array"],
  },
  {
    name: "a transcriber whose program is an empty string",
    config: { accounts: [acct], transcriber: { command: [""] } },
    want: [
      "config transcriber.command: Expected the program (the first element) to be a non-empty string",
    ],
  },
  {
    name: "a media root with a comma",
    config: { accounts: [acct], media_roots: ["/x,/etc"] },
    want: [
      "config media_roots[0]: Expected a media root without ',' (a comma would widen the server's permissions)",
    ],
  },
  {
    name: "a domain with a comma",
    config: { accounts: [{ ...acct, domain: "http://127.0.0.1:9,evil.example" }] },
    want: [
      "config accounts[0].domain: Expected domain without ',' (a comma would widen the server's permissions)",
    ],
  },
  {
    name: "a cap that is not a positive whole number",
    config: { accounts: [acct], limits: { outbound_text_code_points: 0 } },
    want: [
      "config limits.outbound_text_code_points: Expected outbound_text_code_points to be a whole number from 1 to 10000000",
    ],
  },
  {
    name: "an unknown limits key",
    config: { accounts: [acct], limits: { frames: 1 } },
    want: ["config limits: unknown key 'frames'"],
  },
  {
    name: "a monthly quota that is not a positive whole number",
    config: { accounts: [acct], quota: { monthly_calls: 2.5 } },
    want: [
      "config quota.monthly_calls: Expected monthly_calls to be a whole number from 1 to 1000000000",
    ],
  },
  {
    name: "an unknown quota key",
    config: { accounts: [acct], quota: { daily_calls: 1 } },
    want: ["config quota: unknown key 'daily_calls'"],
  },
  {
    name: "an owner that is not an open_id",
    config: { accounts: [{ ...acct, owners: ["alice@example.com"] }] },
    want: ["config accounts[0].owners[0]: Expected an owner to be an open_id (ou_…)"],
  },
  {
    name: "a tool_schema that is not auto, ltp or portable",
    config: { accounts: [acct], tool_schema: "openai" },
    want: ["config tool_schema: Expected one of auto, ltp, portable"],
  },
  {
    name: "a Task Card scope other than conversation or agent",
    config: { accounts: [acct], taskcard: { scope: "everyone" } },
    want: ["config taskcard.scope: Expected conversation or agent"],
  },
  {
    name: "Task Card hours that are not above 0",
    config: { accounts: [acct], taskcard: { active_hours: 0 } },
    want: [
      "config taskcard.active_hours: Expected active_hours to be a number above 0 and at most 8760",
    ],
  },
  {
    name: "an unknown taskcard key",
    config: { accounts: [acct], taskcard: { retention: 7 } },
    want: ["config taskcard: unknown key 'retention'"],
  },
  {
    name: "a keep_recalled that is not a boolean",
    config: { accounts: [acct], privacy: { keep_recalled: "yes" } },
    want: ["config privacy.keep_recalled: Expected true or false"],
  },
];

for (const c of rejections) {
  Deno.test(`parseConfig() rejects ${c.name} with one clear line each and no secret`, () => {
    const r = parseConfig(JSON.stringify(c.config), opts);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.errors, c.want);
    assert.ok(!r.errors.join("\n").includes(acct.app_secret));
  });
}

Deno.test("parseConfig() rejects text that is not JSON", () => {
  const r = parseConfig("{bad", opts);
  assert.equal(r.ok, false);
  assert.match(r.ok ? "" : r.errors[0]!, /^Feishu config is not valid JSON: /);
});

Deno.test("parseConfig() applies defaults and collects secrets for redaction", () => {
  const r = parseConfig(JSON.stringify({ accounts: [{ ...acct, allowed_users: [] }] }), opts);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.secrets, [acct.app_secret]);
  assert.deepEqual(r.config.accounts[0], {
    alias: "main",
    appId: acct.app_id,
    appSecret: acct.app_secret,
    allowedUsers: null,
    owners: [],
    baseUrl: "https://open.feishu.cn",
    access: {
      dm: "open",
      outbound: "any",
      bots: "mention",
      botWakes: { max: 10, windowSeconds: 600 },
    },
  });
  assert.deepEqual(r.config.mediaRoots, ["/w"]);
  assert.deepEqual(r.config.notify, { licc: false, claudeChannel: true });
  assert.deepEqual(r.config.limits, {
    outboundTextCodePoints: 100_000,
    inboundDownloadBytes: 100 * 1024 * 1024,
  });
  assert.equal(r.config.toolSchema, "auto");
  assert.deepEqual(r.config.quota, { monthlyCalls: null });
  assert.deepEqual(r.config.taskcard, { scope: "conversation", activeHours: 24, retentionDays: 7 });
  assert.deepEqual(r.config.privacy, { keepRecalled: false });
});

Deno.test("parseConfig() takes privacy.keep_recalled", () => {
  const r = parseConfig(
    JSON.stringify({ accounts: [acct], privacy: { keep_recalled: true } }),
    opts,
  );
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.config.privacy, { keepRecalled: true });
});

Deno.test("parseConfig() takes the Task Card scope, active hours and retention", () => {
  const taskcard = { scope: "agent", active_hours: 2.5, retention_days: 30 };
  const r = parseConfig(JSON.stringify({ accounts: [acct], taskcard }), opts);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.config.taskcard, { scope: "agent", activeHours: 2.5, retentionDays: 30 });
});

Deno.test("parseConfig() takes an account's owners, once each", () => {
  const owners = ["ou_owner_1", "ou_owner_2", "ou_owner_1"];
  const r = parseConfig(JSON.stringify({ accounts: [{ ...acct, owners }] }), opts);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.config.accounts[0]!.owners, ["ou_owner_1", "ou_owner_2"]);
});

Deno.test("parseConfig() takes an account's access rules; without them DMs follow allowed_users", () => {
  const parse = (extra: Record<string, unknown>) => {
    const r = parseConfig(JSON.stringify({ accounts: [{ ...acct, ...extra }] }), opts);
    if (!r.ok) return r.errors;
    const { dm, outbound } = r.config.accounts[0]!.access!;
    return { dm, outbound };
  };
  assert.deepEqual(parse({ access: { dm: "pairing", outbound: "admitted" } }), {
    dm: "pairing",
    outbound: "admitted",
  });
  assert.deepEqual(parse({ allowed_users: ["ou_a"] }), { dm: "allowlist", outbound: "any" });
  assert.deepEqual(parse({ access: {} }), { dm: "open", outbound: "any" });
  assert.deepEqual(parse({ access: { dm: "closed" } }), [
    "config accounts[0].access.dm: Expected one of open, allowlist, pairing",
  ]);
  assert.deepEqual(parse({ access: { outbound: "all", extra: 1 } }), [
    "config accounts[0].access.outbound: Expected one of any, admitted",
    "config accounts[0].access: unknown key 'extra'",
  ]);
});

Deno.test("parseConfig() takes the other-bots rule and the loop guard's cap, with defaults", () => {
  const parse = (access: Record<string, unknown>) => {
    const r = parseConfig(JSON.stringify({ accounts: [{ ...acct, access }] }), opts);
    if (!r.ok) return r.errors;
    const { bots, botWakes } = r.config.accounts[0]!.access!;
    return { bots, botWakes };
  };
  assert.deepEqual(parse({}), { bots: "mention", botWakes: { max: 10, windowSeconds: 600 } });
  assert.deepEqual(parse({ bots: "all", bot_wakes: { max: 3 } }), {
    bots: "all",
    botWakes: { max: 3, windowSeconds: 600 },
  });
  assert.deepEqual(parse({ bots: "ignore", bot_wakes: { window_seconds: 60 } }), {
    bots: "ignore",
    botWakes: { max: 10, windowSeconds: 60 },
  });
  assert.deepEqual(parse({ bots: "some" }), [
    "config accounts[0].access.bots: Expected one of ignore, mention, all",
  ]);
  const wrong = parse({ bot_wakes: { max: 0, every: 5 } });
  assert.ok(Array.isArray(wrong) && wrong.length === 2, JSON.stringify(wrong));
});

Deno.test("parseConfig() takes the monthly API call quota", () => {
  const r = parseConfig(
    JSON.stringify({ accounts: [acct], quota: { monthly_calls: 10_000 } }),
    opts,
  );
  assert.ok(r.ok && r.config.quota.monthlyCalls === 10_000);
});

Deno.test("parseConfig() takes the tool_schema projection", () => {
  for (const toolSchema of ["auto", "ltp", "portable"] as const) {
    const r = parseConfig(JSON.stringify({ accounts: [acct], tool_schema: toolSchema }), opts);
    assert.ok(r.ok && r.config.toolSchema === toolSchema);
  }
});

Deno.test("parseConfig() takes configured caps", () => {
  const limits = { outbound_text_code_points: 5, inbound_download_bytes: 1024 };
  const r = parseConfig(JSON.stringify({ accounts: [acct], limits }), opts);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.deepEqual(r.config.limits, { outboundTextCodePoints: 5, inboundDownloadBytes: 1024 });
});

Deno.test("parseConfig() turns LICC on by default under LingTai", () => {
  const r = parseConfig(JSON.stringify({ accounts: [acct] }), { workdir: "/w", lingtai: true });
  assert.ok(r.ok && r.config.notify.licc);
});

const launches: {
  name: string;
  args: string[];
  env: Record<string, string>;
  want: { configPath: string | null; workdir: string; mcpName: string };
}[] = [
  {
    name: "defaults the workdir to the caller's directory under deno task",
    args: [],
    env: { INIT_CWD: "/caller" },
    want: { configPath: null, workdir: "/caller", mcpName: "feishu" },
  },
  {
    name: "resolves a relative env config against the workdir",
    args: [],
    env: {
      LINGTAI_AGENT_DIR: "/agent",
      LINGTAI_FEISHU_CONFIG: ".secrets/feishu.json",
      LINGTAI_MCP_NAME: "fs",
    },
    want: { configPath: "/agent/.secrets/feishu.json", workdir: "/agent", mcpName: "fs" },
  },
  {
    name: "prefers FEISHU_MCP_* over LINGTAI_*",
    args: [],
    env: {
      FEISHU_MCP_WORKDIR: "/a",
      LINGTAI_AGENT_DIR: "/b",
      FEISHU_MCP_CONFIG: "/c.json",
      LINGTAI_FEISHU_CONFIG: "/d.json",
    },
    want: { configPath: "/c.json", workdir: "/a", mcpName: "feishu" },
  },
  {
    name: "resolves a relative --config against the caller, not the workdir",
    args: ["serve", "--config", "cfg.json", "--workdir", "w"],
    env: { INIT_CWD: "/caller" },
    want: { configPath: "/caller/cfg.json", workdir: "/caller/w", mcpName: "feishu" },
  },
];

for (const c of launches) {
  Deno.test(`resolveLaunch() ${c.name}`, () => {
    const l = resolveLaunch({ args: c.args, env: c.env, cwd: "/proc-cwd", home: "/home/u" });
    assert.deepEqual({ configPath: l.configPath, workdir: l.workdir, mcpName: l.mcpName }, c.want);
  });
}

Deno.test("resolveLaunch() rejects an unknown subcommand and unknown flags", () => {
  assert.throws(
    () => resolveLaunch({ args: ["bogus"], env: {}, cwd: "/" }),
    /Expected a subcommand/,
  );
  assert.throws(() => resolveLaunch({ args: ["--nope"], env: {}, cwd: "/" }));
});

Deno.test("resolveLaunch() leaves the canary's flags to the canary and keeps serve strict", () => {
  const args = ["canary", "--config", "c.json", "--to", "ou_x", "--timeout", "3", "--json"];
  assert.equal(resolveLaunch({ args, env: {}, cwd: "/" }).subcommand, "canary");
  assert.throws(
    () => resolveLaunch({ args: ["serve", "--to", "ou_x"], env: {}, cwd: "/" }),
    /--to/,
  );
});
