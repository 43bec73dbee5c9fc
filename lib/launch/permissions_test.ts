import assert from "node:assert/strict";
import { configuredProxies, proxyEnvOf } from "../feishu/proxy.ts";
import { permissionFlags } from "./permissions.ts";

const base = {
  appDir: "/app",
  workdir: "/w",
  configPath: "/w/c.json",
  domains: ["feishu"],
  mediaRoots: [],
  transcriber: null,
};

Deno.test("permissionFlags() grants a scheme-less HTTPS_PROXY and ALL_PROXY host, never an empty one", () => {
  const proxies = configuredProxies(
    proxyEnvOf({ HTTPS_PROXY: "proxy.corp:3128", ALL_PROXY: "http://all.corp" }),
  )
    .map((u) => u.origin);
  const net = permissionFlags({ ...base, proxies }).find((f) => f.startsWith("--allow-net="))!;
  const hosts = net.slice("--allow-net=".length).split(",");
  assert.ok(hosts.includes("proxy.corp:3128"));
  assert.ok(hosts.includes("all.corp"));
  assert.ok(!hosts.includes(""));
});

Deno.test("permissionFlags() scopes reads, writes and the transcriber", () => {
  const f = permissionFlags({
    ...base,
    mediaRoots: ["/media"],
    transcriber: "whisper-cli",
    proxies: [],
  });
  assert.ok(f.includes("--allow-read=/app,/w,/media,/w/c.json"));
  assert.ok(f.includes("--allow-write=/w"));
  assert.ok(f.includes("--allow-run=whisper-cli"));
  assert.ok(!f.some((x) => x === "--allow-all" || x === "-A"));
});

Deno.test("permissionFlags() grants sys only when NODE_EXTRA_CA_CERTS adds trusted CAs", () => {
  assert.ok(!permissionFlags({ ...base, proxies: [] }).some((x) => x.startsWith("--allow-sys")));
  const f = permissionFlags({ ...base, proxies: [], extraCaCerts: true });
  assert.ok(f.includes("--allow-sys"));
});

Deno.test("permissionFlags() grants nothing for a media root, domain or program holding a comma", () => {
  const f = permissionFlags({
    ...base,
    domains: ["http://127.0.0.1:9,evil.example", "http://127.0.0.1:7"],
    mediaRoots: ["/x,/etc", "/media"],
    transcriber: "whisper,sh",
    proxies: [],
  });
  assert.ok(f.includes("--allow-read=/app,/w,/media,/w/c.json"), f.join(" "));
  assert.ok(f.includes("--allow-net=127.0.0.1:7"), f.join(" "));
  assert.ok(
    !f.some((x) => x.includes("/etc") || x.includes("evil") || x.startsWith("--allow-run")),
  );
});
