/**
 * The MCP resources: the manual (verbatim), the `lingtai://` profile
 * resources LingTai reads (manifest, skill, docs, onboarding), the operator docs, the status and the inbox summary. Texts are
 * embedded through imports so a bundle carries them.
 * @module
 */

import setupText from "../../reference/setup.md" with { type: "text" };
import diagnosticsText from "../../reference/diagnostics.md" with { type: "text" };
import matrixText from "../../reference/capability-matrix.md" with { type: "text" };
// Deep imports: `serve` lists resources before the service (and its actions) loads.
import { FEISHU_ACTIONS } from "../mcp/family/actions.ts";
import type { ResourceEntry } from "../mcp/mod.ts";
import { MANUAL, MANUAL_URI } from "../actions/manual.ts";
import { INBOX_URI, STATUS_URI } from "../core/mod.ts";
import { SERVER_NAME } from "./about.ts";

/** Everything a resource read may need, provided by the service. */
export interface ResourceSources {
  version: string;
  mcpName: string;
  status(): object;
  inbox(): Record<string, unknown>;
}

const DOCS: Record<string, { name: string; description: string; text: string }> = {
  "feishu://docs/setup": {
    name: "setup",
    description: "Feishu app creation, permissions, config fields, canary and rollback",
    text: setupText,
  },
  "feishu://docs/diagnostics": {
    name: "diagnostics",
    description: "Status interpretation and symptom-based diagnosis",
    text: diagnosticsText,
  },
  "feishu://docs/capability-matrix": {
    name: "capability-matrix",
    description: "What this server supports, and explicit non-goals",
    text: matrixText,
  },
};

/** The resource list. */
export function resourceList(): ResourceEntry[] {
  return [
    {
      uri: MANUAL_URI,
      name: "manual",
      description: "Agent manual of the feishu tool",
      mimeType: "text/markdown",
    },
    {
      uri: INBOX_URI,
      name: "inbox",
      description: "Unread conversations per account",
      mimeType: "application/json",
    },
    ...Object.entries(DOCS).map(([uri, d]) => ({
      uri,
      name: d.name,
      description: d.description,
      mimeType: "text/markdown",
    })),
    {
      uri: "lingtai://manifest",
      name: "manifest",
      description: "LingTai MCP profile",
      mimeType: "application/vnd.lingtai.mcp-profile+json",
    },
    {
      uri: "lingtai://skills/feishu",
      name: "skill",
      description: "Pointer skill for agents",
      mimeType: "text/markdown; profile=lingtai-skill",
    },
    {
      uri: "lingtai://docs/configuration",
      name: "configuration",
      description: "Environment, config file, actions",
      mimeType: "text/markdown",
    },
    {
      uri: "lingtai://docs/troubleshooting",
      name: "troubleshooting",
      description: "Symptom → fix list",
      mimeType: "text/markdown",
    },
    {
      uri: STATUS_URI,
      name: "status",
      description: "Safe status (never secrets)",
      mimeType: "application/json",
    },
    {
      uri: "lingtai://onboarding/feishu",
      name: "onboarding",
      description: "Setup checklist recipe",
      mimeType: "text/markdown",
    },
    {
      uri: "lingtai://onboarding/html-template",
      name: "onboarding-template",
      description: "Self-contained setup checklist page",
      mimeType: "text/html",
    },
  ];
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";

/** Reads one resource; null for an unknown URI. Never throws. */
export function readResource(
  uri: string,
  src: ResourceSources,
): { mimeType: string; text: string } | null {
  try {
    if (uri === MANUAL_URI) return { mimeType: "text/markdown", text: MANUAL.text };
    if (uri === INBOX_URI) return { mimeType: "application/json", text: json(src.inbox()) };
    const doc = DOCS[uri];
    if (doc) return { mimeType: "text/markdown", text: doc.text };
    switch (uri) {
      case STATUS_URI:
        return { mimeType: "application/json", text: json(src.status()) };
      case "lingtai://manifest":
        return { mimeType: "application/vnd.lingtai.mcp-profile+json", text: json(manifest(src)) };
      case "lingtai://skills/feishu":
        return { mimeType: "text/markdown; profile=lingtai-skill", text: SKILL };
      case "lingtai://docs/configuration":
        return { mimeType: "text/markdown", text: CONFIGURATION };
      case "lingtai://docs/troubleshooting":
        return { mimeType: "text/markdown", text: TROUBLESHOOTING };
      case "lingtai://onboarding/feishu":
        return { mimeType: "text/markdown", text: ONBOARDING };
      case "lingtai://onboarding/html-template":
        return { mimeType: "text/html", text: ONBOARDING_HTML };
    }
    return null;
  } catch (err) {
    return { mimeType: "application/json", text: json({ status: "error", error: String(err) }) };
  }
}

function manifest(src: ResourceSources): Record<string, unknown> {
  return {
    schema: "lingtai.mcp.profile.v1",
    server: {
      name: SERVER_NAME,
      registry_name: src.mcpName,
      version: src.version,
      summary:
        "Feishu (Lark) bot bridge: inbound messages wake the agent; one strict tool acts in chats.",
      homepage: null,
    },
    ownership: { configuration: "operator", human_ui: "Feishu", agent_interface: "feishu tool" },
    resources: resourceList().map((r) => ({ uri: r.uri, mimeType: r.mimeType })),
    tools: [{ name: "feishu", actions: [...FEISHU_ACTIONS] }],
    agent_entrypoints: {
      skill: "lingtai://skills/feishu",
      configuration: "lingtai://docs/configuration",
      troubleshooting: "lingtai://docs/troubleshooting",
      status: STATUS_URI,
      onboarding: "lingtai://onboarding/feishu",
      onboarding_html_template: "lingtai://onboarding/html-template",
    },
    status: src.status(),
  };
}

const SKILL = `---
name: feishu
description: Talk to people on Feishu (Lark) through the feishu tool.
---
# feishu

Use the \`feishu\` tool (one tool, ${FEISHU_ACTIONS.length} actions) to read and answer Feishu chats. Call
\`feishu(action="manual")\` for the full manual. Read \`lingtai://status\` when something looks
broken, and \`lingtai://docs/configuration\` before touching configuration (operators own it).
`;

const CONFIGURATION = `# Configuration

The operator points the server at a JSON config file:

- \`deno task start --config <file> --workdir <dir>\`, or
- \`FEISHU_MCP_CONFIG\` / \`LINGTAI_FEISHU_CONFIG\` (relative paths resolve against the workdir) and
  \`FEISHU_MCP_WORKDIR\` / \`LINGTAI_AGENT_DIR\`.

\`\`\`json
{"accounts": [{"alias": "main", "app_id": "cli_…", "app_secret": "…",
  "allowed_users": ["ou_…"], "owners": ["ou_…"], "domain": "feishu"}],
 "media_roots": ["/abs/dir"], "transcriber": {"command": ["whisper-cli", "-f", "{wav}"]},
 "notify": {"licc": true, "claude_channel": true}}
\`\`\`

Actions: ${FEISHU_ACTIONS.join(", ")}. Message ids are compound:
\`{alias}:{chat_id}:{message_id}\` — pass them back verbatim. Voice messages are transcribed by the
operator's transcriber command when one is configured. Long answers: send a progress card with
\`placeholder=true\`, edit it at phase changes, send the final answer separately.
\`owners\` name who may use the local control commands (\`/clear\`, \`/sleep\`, \`/refresh\`, …);
without owners, the allowed users may; without either, nobody may.
\`access.dm\` (\`open\`, \`allowlist\`, \`pairing\`) says who may DM the bot: in pairing mode a stranger
gets a code that only an owner can approve (\`/pair CODE\` or the card's button) — the agent never
approves anyone. \`access.outbound: "admitted"\` limits where the agent may write
(\`TARGET_NOT_ALLOWED\` otherwise). \`access.bots\` (\`ignore\`, \`mention\` by default, \`all\`) says
which other bots' messages reach the agent; past 10 per chat in 10 minutes they are recorded without
a wake (\`access.bot_wakes\`).
See feishu://docs/setup for the whole procedure.
`;

const TROUBLESHOOTING = `# Troubleshooting

- **No config named** — set \`--config\` or \`FEISHU_MCP_CONFIG\`/\`LINGTAI_FEISHU_CONFIG\`; until
  then every action but \`manual\` answers \`NOT_CONNECTED\`.
- **Config not found / not readable / invalid** — \`lingtai://status\` lists one line per problem.
- **Bad credentials** — status shows the connection failing with code 514 or token errors.
- **Bot cannot message a person** — the person is outside the app's availability, or the bot is
  not in the group (\`TARGET_REVOKED\`).
- **No inbound messages** — check the event subscription (\`im.message.receive_v1\`, long
  connection mode) and \`allowed_users\`; in groups the bot must be @-mentioned.
- **Voice not transcribed** — no transcriber configured, or it failed; the audio file is kept.
- **Agent vs human** — the agent uses the \`feishu\` tool; the operator edits the config file.
See feishu://docs/diagnostics for the full symptom table.
`;

const ONBOARDING = `# Onboarding recipe (Feishu)

Build a local, secret-free HTML checklist for the operator from
\`lingtai://onboarding/html-template\` (replace \`{{SETUP}}\` with the steps below):

1. Create a custom app in the Feishu developer console and enable the Bot capability.
2. Grant the scopes listed in feishu://docs/setup and publish a version.
3. Subscribe to \`im.message.receive_v1\` (and the optional events) in long-connection mode;
   configure card callbacks over the long connection.
4. Write the config file outside any repository; never paste \`app_secret\` into chat.
5. Restart the agent and read \`lingtai://status\`.
`;

const ONBOARDING_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Feishu setup checklist</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:720px;margin:2em auto;padding:0 1em}
.warn{background:#fff3cd;border:1px solid #e0b000;padding:.8em 1em;border-radius:6px;font-weight:600}</style>
</head><body>
<h1>Feishu setup checklist</h1>
<p class="warn">Do not paste app_secret here. Keep it only in the config file on the agent's machine.</p>
{{SETUP}}
</body></html>
`;
