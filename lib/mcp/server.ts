/**
 * The MCP server: one tool (`feishu`), the resources, and the push
 * notifications (Claude Code channel events, `resources/updated`). Knows
 * nothing about Feishu; the app behind it is injected.
 * @module
 */

import * as sdk from "./_sdk.ts";
import { feishuTool } from "./family/mod.ts";

/** One listed resource. */
export interface ResourceEntry {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
}

/** What the server serves; built by the composition root. */
export interface McpApp {
  name: string;
  version: string;
  instructions: string;
  /** Validates and runs one `feishu` call; returns the result payload. */
  callTool(args: unknown): Promise<Record<string, unknown>>;
  listResources(): ResourceEntry[];
  /** Returns the resource text, or null when the URI is unknown. Never throws. */
  readResource(uri: string): Promise<{ mimeType: string; text: string } | null>;
}

/** A running MCP server. */
export interface McpHandle {
  connect(transport: sdk.Transport): Promise<void>;
  /** Pushes an inbound chat event to a Claude Code channel client. */
  notifyChannel(params: { content: string; meta: Record<string, string> }): Promise<void>;
  /** Tells subscribers that a resource changed. */
  notifyResourceUpdated(uri: string): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the transport closes (stdin EOF). */
  closed: Promise<void>;
}

/** Whether a payload is a failure, which the tool result marks `isError`. */
export function isErrorPayload(p: Record<string, unknown>): boolean {
  return p.status === "error" || p.status === "failed" || ("error" in p && !("status" in p));
}

/**
 * Builds the server around an app.
 */
export function createMcpServer(
  app: McpApp,
  hooks: { onToolsListed?: () => void } = {},
): McpHandle {
  const server = new sdk.Server(
    { name: app.name, version: app.version },
    {
      capabilities: {
        tools: {},
        resources: { subscribe: true },
        experimental: { "claude/channel": {} },
      },
      instructions: app.instructions,
    },
  );
  const tool = feishuTool();
  const subscriptions = new Set<string>();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  server.onclose = () => resolveClosed();

  server.setRequestHandler(sdk.ListToolsRequestSchema, () => {
    // Let the response go out first, then tell the host (it loads heavy modules).
    if (hooks.onToolsListed) queueMicrotask(hooks.onToolsListed);
    return {
      tools: [{ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }],
    };
  });

  server.setRequestHandler(sdk.CallToolRequestSchema, async (req) => {
    if (req.params.name !== tool.name) {
      throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`, {
        requested: req.params.name,
      });
    }
    const payload = await app.callTool(req.params.arguments ?? {});
    return {
      content: [{ type: "text" as const, text: JSON.stringify(payload) }],
      structuredContent: payload,
      isError: isErrorPayload(payload),
    };
  });

  server.setRequestHandler(
    sdk.ListResourcesRequestSchema,
    () => ({ resources: app.listResources() }),
  );

  server.setRequestHandler(sdk.ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri.replace(/\/+$/, "");
    const res = await app.readResource(uri);
    if (!res) {
      throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
    }
    return { contents: [{ uri, mimeType: res.mimeType, text: res.text }] };
  });

  server.setRequestHandler(sdk.SubscribeRequestSchema, (req) => {
    subscriptions.add(req.params.uri.replace(/\/+$/, ""));
    return {};
  });
  server.setRequestHandler(sdk.UnsubscribeRequestSchema, (req) => {
    subscriptions.delete(req.params.uri.replace(/\/+$/, ""));
    return {};
  });

  return {
    connect: (transport) => server.connect(transport),
    notifyChannel: (params) =>
      server.notification({ method: "notifications/claude/channel", params }),
    notifyResourceUpdated: async (uri) => {
      if (subscriptions.has(uri)) await server.sendResourceUpdated({ uri });
    },
    close: () => server.close(),
    closed,
  };
}
