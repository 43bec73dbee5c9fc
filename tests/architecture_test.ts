/**
 * Boundaries of the code base, checked on the real module graph of the
 * product entry point:
 * - only `lib/feishu/` imports the node-sdk, only `lib/mcp/` the MCP SDK, so
 *   the rest of the product sees only our own narrow interfaces;
 * - `lib/emulator/` imports nothing from the rest of the product, so it
 *   cannot share the product's bugs.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO } from "./_server.ts";

interface GraphModule {
  specifier: string;
  dependencies?: {
    specifier: string;
    code?: { specifier?: string };
    type?: { specifier?: string };
  }[];
}

async function graph(entry: string): Promise<GraphModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(REPO, entry)],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout)).modules as GraphModule[];
}

function edges(mods: GraphModule[]): [string, string][] {
  const prefix = `file://${REPO}/`;
  const list: [string, string][] = [];
  for (const m of mods) {
    if (!m.specifier.startsWith(prefix)) continue;
    const from = m.specifier.slice(prefix.length);
    for (const d of m.dependencies ?? []) {
      for (const to of [d.code?.specifier, d.type?.specifier]) {
        if (to) list.push([from, to.startsWith(prefix) ? to.slice(prefix.length) : to]);
      }
    }
  }
  return list;
}

const ENTRIES = [
  "main.ts",
  "lib/bundle/entry.ts",
  "lib/serve.ts",
  "lib/service/start.ts",
  "lib/sandbox/mod.ts",
];

Deno.test("only lib/feishu/ imports the node-sdk and only lib/mcp/ imports the MCP SDK", async () => {
  for (const entry of ENTRIES) {
    for (const [from, to] of edges(await graph(entry))) {
      if (to.includes("@larksuiteoapi/node-sdk")) {
        assert.ok(from.startsWith("lib/feishu/"), `${from} imports the node-sdk`);
      }
      if (to.includes("@modelcontextprotocol/sdk")) {
        assert.ok(from.startsWith("lib/mcp/"), `${from} imports the MCP SDK`);
      }
    }
  }
});

Deno.test("lib/emulator/ imports nothing from the rest of the product", async () => {
  for (const [from, to] of edges(await graph("lib/emulator/mod.ts"))) {
    if (!from.startsWith("lib/emulator/")) continue;
    if (to.startsWith("npm:") || to.startsWith("node:") || to.startsWith("data:")) continue;
    assert.ok(to.startsWith("lib/emulator/"), `${from} imports ${to}`);
  }
});

Deno.test("the product graph really contains both SDKs (the boundary test is not vacuous)", async () => {
  const all = edges(await graph("lib/service/start.ts")).map(([, to]) => to);
  assert.ok(all.some((t) => t.includes("@larksuiteoapi/node-sdk")));
  assert.ok(all.some((t) => t.includes("@modelcontextprotocol/sdk")));
});
