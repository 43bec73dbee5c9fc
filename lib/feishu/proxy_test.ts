import assert from "node:assert/strict";
import { createLogger } from "../core/mod.ts";
import { DEFAULT_IDS, startEmulator } from "../emulator/mod.ts";
import { startTestProxy } from "./testdata/recording_proxy.ts";
import { createFeishuApi } from "./client.ts";
import { noProxyMatches, proxyEnvOf, proxyForUrl, validateProxyEnv } from "./proxy.ts";

const bypass: [string, number, string, boolean][] = [
  ["open.feishu.cn", 443, "*", true],
  ["open.feishu.cn", 443, "feishu.cn", true],
  ["open.feishu.cn", 443, ".feishu.cn", true],
  ["open.feishu.cn", 443, "*.feishu.cn", true],
  ["feishu.cn", 443, ".feishu.cn", true],
  ["open.feishu.cn", 443, "FEISHU.CN", true],
  ["openfeishu.cn", 443, "feishu.cn", false],
  ["open.feishu.cn", 443, "larksuite.com, localhost", false],
  ["open.feishu.cn", 443, "localhost open.feishu.cn", true],
  ["127.0.0.1", 8080, "127.0.0.1:8080", true],
  ["127.0.0.1", 8080, "127.0.0.1:9090", false],
  ["127.0.0.1", 8080, "127.0.0.1", true],
  ["::1", 80, "[::1]", true],
  ["open.feishu.cn", 443, "", false],
  ["open.feishu.cn", 443, " , ", false],
];

for (const [host, port, noProxy, want] of bypass) {
  Deno.test(`noProxyMatches() ${want ? "bypasses" : "proxies"} ${host}:${port} with NO_PROXY="${noProxy}"`, () => {
    assert.equal(noProxyMatches(host, port, noProxy), want);
  });
}

const resolve: [string, Record<string, string>, string | null][] = [
  ["https://open.feishu.cn/x", { HTTPS_PROXY: "http://p:1" }, "http://p:1/"],
  ["wss://msg-frontier.feishu.cn/ws/v2", { https_proxy: "p:2" }, "http://p:2/"],
  [
    "wss://msg-frontier.feishu.cn/ws/v2",
    { https_proxy: "http://a:1", HTTPS_PROXY: "http://b:1" },
    "http://a:1/",
  ],
  ["https://open.feishu.cn/x", { HTTP_PROXY: "http://p:1" }, null],
  ["http://127.0.0.1:9/x", { HTTP_PROXY: "http://p:1" }, "http://p:1/"],
  ["ws://127.0.0.1:9/ws", { http_proxy: "http://p:1" }, "http://p:1/"],
  ["ws://127.0.0.1:9/ws", { HTTPS_PROXY: "http://p:1" }, null],
  ["https://open.feishu.cn/x", { ALL_PROXY: "http://all:1" }, "http://all:1/"],
  ["https://open.feishu.cn/x", { HTTPS_PROXY: "http://p:1", NO_PROXY: ".feishu.cn" }, null],
  ["https://open.feishu.cn/x", { HTTPS_PROXY: "http://p:1", no_proxy: "*" }, null],
  [
    "https://open.feishu.cn/x",
    { HTTPS_PROXY: "http://p:1", NO_PROXY: "open.feishu.cn:8443" },
    "http://p:1/",
  ],
  ["https://open.feishu.cn/x", {}, null],
];

for (const [target, vars, want] of resolve) {
  Deno.test(`proxyForUrl() picks ${want ?? "no proxy"} for ${target} with ${JSON.stringify(vars)}`, () => {
    assert.equal(proxyForUrl(target, proxyEnvOf(vars))?.href ?? null, want);
  });
}

Deno.test("validateProxyEnv() rejects a SOCKS or malformed proxy with the variable's name", () => {
  assert.throws(
    () => validateProxyEnv(proxyEnvOf({ HTTPS_PROXY: "socks5://p:1080" })),
    /HTTPS_PROXY to use http:\/\/ or https:\/\/ but found socks5:/,
  );
  assert.throws(() => validateProxyEnv(proxyEnvOf({ http_proxy: "http://[bad" })), /HTTP_PROXY/);
  validateProxyEnv(proxyEnvOf({ HTTPS_PROXY: "http://u:p@proxy:3128", NO_PROXY: "*" }));
});

Deno.test("createFeishuApi() sends REST calls through HTTP_PROXY (absolute form) and around it with NO_PROXY", async () => {
  await using emu = await startEmulator();
  await using proxy = startTestProxy();
  const api = (vars: Record<string, string>) =>
    createFeishuApi({
      alias: "main",
      appId: DEFAULT_IDS.appId,
      appSecret: DEFAULT_IDS.appSecret,
      baseUrl: emu.url,
      log: createLogger({ sink: () => {} }),
      proxyEnv: proxyEnvOf(vars),
    });
  const via = await api({ HTTP_PROXY: proxy.url }).botInfo();
  assert.equal(via.openId, DEFAULT_IDS.botOpenId);
  assert.deepEqual(proxy.seen, [
    `POST ${emu.url}/open-apis/auth/v3/tenant_access_token/internal HTTP/1.1`,
    `GET ${emu.url}/open-apis/bot/v3/info HTTP/1.1`,
  ]);
  const direct = await api({ HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" }).botInfo();
  assert.equal(direct.openId, DEFAULT_IDS.botOpenId);
  assert.equal(proxy.seen.length, 2);
  assert.equal(emu.requests({ path: "/open-apis/bot/v3/info" }).length, 2);
});
