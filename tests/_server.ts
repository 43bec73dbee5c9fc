/**
 * Test helpers: spawn the real server the way an agent does (the `start`
 * task's command line, through the confining launcher) and talk to it with
 * the real MCP SDK client over stdio.
 *
 * `FEISHU_MCP_ENTRY` picks what runs: `main.ts` (default) or the single-file
 * bundle (`FEISHU_MCP_ENTRY=dist/feishu-mcp.js`, relative to the repository),
 * so the same end-to-end files run against either.
 * @module
 */

import { fileURLToPath } from "node:url";
import { dirname, join, resolve } from "node:path";
import {
  type Client,
  defaultEra,
  eraClient,
  StdioClientTransport,
  subscribeResource,
  type TestEra,
} from "./_mcp_client.ts";

/** The repository root. */
export const REPO = dirname(dirname(fileURLToPath(import.meta.url)));

/** The module the tests start: `FEISHU_MCP_ENTRY`, else `main.ts`. */
export const ENTRY: string = resolve(REPO, Deno.env.get("FEISHU_MCP_ENTRY") || "main.ts");

/** True when {@link ENTRY} is the single-file bundle rather than the source tree. */
export const BUNDLED: boolean = ENTRY.endsWith(".js");

/** The app's own directory, which the confined server may read. */
export const APP_DIR: string = dirname(ENTRY);

/**
 * The argv of `deno task start` without the task runner; for the bundle, the
 * command an agent runtime uses (`--no-config`: no project file applies).
 */
export function startArgs(extra: string[]): string[] {
  return [
    "run",
    "--no-prompt",
    "--allow-read",
    "--allow-run",
    "--allow-env",
    "--allow-write",
    ...(BUNDLED ? ["--no-config"] : []),
    ENTRY,
    "serve",
    ...extra,
  ];
}

/** A running server with a connected client. */
export interface TestServer {
  client: Client;
  workdir: string;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Reads a resource's text. */
  resource(uri: string): Promise<string>;
  /** Subscribes to a resource's updates in the client's era; returns the unsubscribe. */
  subscribe(uri: string): Promise<() => Promise<void>>;
  /** One `feishu` tool call; returns `structuredContent`. */
  call(
    action: string,
    input: Record<string, unknown>,
    extra?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** Config object written to `<workdir>/config.json`, or a raw string; omitted = no config. */
  config?: unknown;
  workdir?: string;
  env?: Record<string, string>;
  args?: string[];
  /** The client's protocol era ({@link defaultEra} when absent). */
  era?: TestEra;
  /** The client's name in its handshake or envelope. */
  clientName?: string;
}

/** Spawns the server and connects a client. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const workdir = options.workdir ?? await Deno.makeTempDir({ prefix: "feishu-mcp-test-" });
  const args: string[] = ["--workdir", workdir];
  if (options.config !== undefined) {
    const path = join(workdir, "config.json");
    await Deno.writeTextFile(
      path,
      typeof options.config === "string" ? options.config : JSON.stringify(options.config),
    );
    args.push("--config", path);
  }
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? "/tmp",
    ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    ...(options.env ?? {}),
  };
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: startArgs([...args, ...(options.args ?? [])]),
    env,
    stderr: "pipe",
    cwd: REPO,
  });
  let err = "";
  transport.stderr?.on("data", (d: Uint8Array) => (err += new TextDecoder().decode(d)));
  const client = eraClient(options.clientName ?? "feishu-mcp-tests", options.era ?? defaultEra());
  await client.connect(transport);
  // A dual-era client may connect on a throwaway probe's answer; one request
  // that the light modules answer proves the session's own server is up.
  await client.listResources();
  return {
    client,
    workdir,
    stderr: () => err,
    async resource(uri) {
      const res = await client.readResource({ uri });
      const first = res.contents[0] as { text?: string } | undefined;
      return first?.text ?? "";
    },
    subscribe: (uri) => subscribeResource(client, uri),
    async call(action, input, extra = {}) {
      const res = await client.callTool({
        name: "feishu",
        arguments: { action, input, reasoning: "test", ...extra },
      });
      return res.structuredContent as Record<string, unknown>;
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * A raw `initialize`-era opening (request `id`, then `notifications/initialized`)
 * for tests that speak JSON-RPC lines themselves.
 */
export function legacyOpening(id: number): Record<string, unknown>[] {
  return [
    {
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ];
}

/** A valid app id for tests (the node-sdk ignores others silently). */
export const APP_ID = "cli_a1b2c3d4e5f6a7b8";

/**
 * What the server has stored: every row of the store's tables (records,
 * contacts, typing, identities) and the list of files in the workdir. Two
 * equal digests mean no disk effect.
 */
export async function storeDigest(workdir: string): Promise<string> {
  const { DatabaseSync } = await import("node:sqlite");
  const files = (await snapshotTree(workdir)).map((l) => l.split(" ")[0]);
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"), { readOnly: true });
  try {
    const rows: Record<string, unknown[]> = {};
    for (const t of ["records", "record_chunks", "contacts", "typing"]) {
      rows[t] = db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all().map((r) => ({ ...r }));
    }
    return JSON.stringify({ files, rows });
  } finally {
    db.close();
  }
}

/** Lists every file under a directory with size and mtime (for "no disk effect" checks). */
export async function snapshotTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else {
        const s = await Deno.stat(p);
        out.push(`${p.slice(dir.length)} ${s.size} ${s.mtime?.getTime()}`);
      }
    }
  };
  await walk(dir);
  return out.sort();
}
