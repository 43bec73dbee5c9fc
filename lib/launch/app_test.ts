import assert from "node:assert/strict";
import { type App, appCommand, bundleApp, sourceApp } from "./app.ts";

const DENO = "/usr/bin/deno";
const FLAGS = ["--no-prompt", "--allow-write=/w"];
const ARGS = ["serve", "--confined"];

const cases: { name: string; app: App; want: { command: string; args: string[] } }[] = [
  {
    name: "runs main.ts with the repository's deno.json",
    app: sourceApp("file:///repo/main.ts", DENO),
    want: {
      command: DENO,
      args: ["run", ...FLAGS, "--config", "/repo/deno.json", "/repo/main.ts", ...ARGS],
    },
  },
  {
    name: "runs the bundle with no config file and KV asked for explicitly",
    app: bundleApp("file:///opt/fm/feishu-mcp.js", { execPath: DENO, standalone: false }),
    want: {
      command: DENO,
      args: ["run", ...FLAGS, "--no-config", "--unstable-kv", "/opt/fm/feishu-mcp.js", ...ARGS],
    },
  },
  {
    name: "runs a compiled binary itself, its permissions baked in",
    app: bundleApp("file:///embedded/feishu-mcp.js", {
      execPath: "/opt/fm/feishu-mcp",
      standalone: true,
    }),
    want: { command: "/opt/fm/feishu-mcp", args: ARGS },
  },
];

for (const c of cases) {
  Deno.test(`appCommand() ${c.name}`, () => {
    assert.deepEqual(appCommand(c.app, { flags: FLAGS, args: ARGS }), c.want);
  });
}

Deno.test("bundleApp() reads the compiled binary's folder as the app's own", () => {
  const app = bundleApp("file:///embedded/x.js", { execPath: "/opt/fm/bin", standalone: true });
  assert.deepEqual([app.form, app.appDir], ["compiled", "/opt/fm"]);
});
