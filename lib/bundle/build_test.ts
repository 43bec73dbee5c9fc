import assert from "node:assert/strict";
import { join } from "node:path";
import { confinedFlags } from "../launch/mod.ts";
import { compileFlags } from "./build.ts";

async function configWith(body: Record<string, unknown>): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "feishu-mcp-compile-" });
  const path = join(dir, "feishu.json");
  await Deno.writeTextFile(path, JSON.stringify(body));
  return { dir, path };
}

Deno.test("compile --config bakes exactly the permissions start confines the server to, transcriber included", async () => {
  const { dir, path } = await configWith({
    accounts: [{ alias: "main", app_id: "cli_0123456789abcdef", app_secret: "s", domain: "lark" }],
    media_roots: ["/srv/media"],
    transcriber: { command: ["whisper-cli", "-f", "{input}"] },
  });
  const workdir = join(dir, "agent");
  const env = { HTTPS_PROXY: "http://proxy.example:3128" };
  const flags = compileFlags({ configPath: path, workdir, env });
  const start = confinedFlags({ appDir: workdir, workdir, configPath: path, env });
  assert.deepEqual(
    flags.filter((f) => f.startsWith("--allow")),
    start.filter((f) => f.startsWith("--allow")),
  );
  assert.ok(flags.includes("--allow-run=whisper-cli"));
  assert.ok(flags.includes(`--allow-write=${workdir}`));
  assert.ok(
    flags.some((f) =>
      f.startsWith("--allow-read=") && f.includes("/srv/media") && f.includes(path)
    ),
  );
  const net = flags.find((f) => f.startsWith("--allow-net="))!;
  assert.match(net, /open\.larksuite\.com/);
  assert.match(net, /proxy\.example:3128/);
  assert.ok(!net.includes("feishu.cn"), "only the configured domain");
  assert.ok(flags.includes("--no-config") && flags.includes("--unstable-kv"));
  assert.ok(!flags.some((f) => f === "--allow-all" || f === "-A"));
});

Deno.test("compile without a config gives a binary the workdir it starts in and both Feishu clouds, no programs", () => {
  const flags = compileFlags();
  assert.ok(flags.includes("--allow-read=.") && flags.includes("--allow-write=."));
  assert.ok(!flags.some((f) => f.startsWith("--allow-run")));
  assert.match(
    flags.find((f) => f.startsWith("--allow-net="))!,
    /open\.feishu\.cn.*open\.larksuite\.com/,
  );
});
