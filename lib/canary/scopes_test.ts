import assert from "node:assert/strict";
import type { Config } from "../config/mod.ts";
import { consoleScopeLink, FEATURE_SCOPES, requiredScopes } from "./scopes.ts";

const config = {} as Config;

Deno.test("requiredScopes() lists every scope the bridge needs, each once, optional ones marked", () => {
  const got = requiredScopes(config).map((n) => [n.scope, n.optional]);
  assert.deepEqual(got, [
    ["im:message", false],
    ["im:message:send_as_bot", false],
    ["im:message.p2p_msg:readonly", false],
    ["im:message.group_at_msg:readonly", false],
    ["im:resource", false],
    ["im:message.reactions:write_only", false],
    ["im:message.reactions:read", false],
    ["contact:user.base:readonly", true],
    ["im:chat:readonly", true],
  ]);
});

Deno.test("requiredScopes() gives every scope a one-line reason and its feature", () => {
  for (const n of requiredScopes(config)) {
    assert.ok(n.reason.length > 0 && !n.reason.includes("\n"), n.scope);
    assert.ok(FEATURE_SCOPES.some((f) => f.feature === n.feature), n.scope);
  }
});

Deno.test("FEATURE_SCOPES names four features, each on for every config today", () => {
  const table = FEATURE_SCOPES.map((f) => f.feature);
  assert.deepEqual(table, ["messaging", "reaction_events", "sender_names", "chat_info"]);
  assert.ok(FEATURE_SCOPES.every((f) => f.enabled(config)));
});

const links = [
  ["https://open.feishu.cn", "https://open.feishu.cn/app/cli_a/auth?q=im:message"],
  ["https://open.larksuite.com", "https://open.larksuite.com/app/cli_a/auth?q=im:message"],
  ["http://127.0.0.1:8787/", "http://127.0.0.1:8787/app/cli_a/auth?q=im:message"],
] as const;
for (const [base, want] of links) {
  Deno.test(`consoleScopeLink() points ${base} at the app's permission page`, () => {
    assert.equal(consoleScopeLink(base, "cli_a", "im:message"), want);
  });
}
