/**
 * A small, realistic agent directory for demos and tests.
 * @module
 */

import { basename, dirname, join } from "node:path";

/** Options of {@link seedDemoAgent}. */
export interface SeedOptions {
  /**
   * Also create a sibling agent with this directory name next to the
   * workdir (in its parent folder). Off by default, since the parent may be
   * shared.
   */
  sibling?: string;
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

/**
 * Seeds `workdir` with an English-speaking agent: identity, runtime status
 * with token usage, a briefing, two system documents, one knowledge entry
 * and a short token ledger; with `sibling`, one more agent beside it.
 */
export async function seedDemoAgent(workdir: string, options: SeedOptions = {}): Promise<void> {
  const name = basename(workdir);
  await write(
    join(workdir, ".agent.json"),
    json({
      nickname: "Demo Agent",
      agent_id: "agent-7f3c9a1e5b2d4c60",
      language: "en",
      llm: { model: "claude-sonnet-4", provider: "anthropic", context_limit: 200000 },
      created_at: "2025-01-15T09:30:00Z",
      molt_count: 2,
      capabilities: ["bash", "web_search", "email"],
      state: "idle",
    }),
  );
  await write(
    join(workdir, ".status.json"),
    json({
      runtime: { state: "active", uptime_seconds: 7500, started_at: "2025-01-20T08:00:00Z" },
      tokens: { context: { total_tokens: 45200, window_size: 200000, usage_pct: 22.6 } },
    }),
  );
  await write(
    join(workdir, "init.json"),
    json({
      manifest: { language: "en", llm: { model: "claude-sonnet-4", provider: "anthropic" } },
      addons: ["feishu", "telegram"],
      mcp: {},
    }),
  );
  await write(join(workdir, ".secrets", "feishu.json"), "{}");
  await write(
    join(workdir, "system", "brief.md"),
    `# Brief for ${name}\n\nKeep the release notes up to date and answer questions in the team chat.\n`,
  );
  await write(
    join(workdir, "system", "principle.md"),
    "# Principles\n\n- Be concise.\n- Cite sources.\n",
  );
  await write(
    join(workdir, "system", "covenant.md"),
    "# Covenant\n\nAsk before deleting anything.\n",
  );
  await write(
    join(workdir, "knowledge", "release", "KNOWLEDGE.md"),
    "# Release process\n\nTag, build, publish.\n",
  );
  await write(
    join(workdir, "logs", "token_ledger.jsonl"),
    [
      { input: 1200, output: 300, thinking: 100, cached: 800 },
      { input: 2400, output: 500, thinking: 0, cached: 1600 },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  if (options.sibling) {
    const dir = join(dirname(workdir), options.sibling);
    await write(
      join(dir, ".agent.json"),
      json({ agent_id: "agent-0b1c2d3e4f5a6b7c", llm: { model: "gpt-5-mini" }, molt_count: 0 }),
    );
    await write(join(dir, ".status.json"), json({ runtime: { state: "asleep" } }));
    await write(
      join(dir, "logs", "token_ledger.jsonl"),
      JSON.stringify({ input: 900, output: 100, thinking: 0, cached: 0 }) + "\n",
    );
  }
}
