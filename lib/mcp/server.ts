/**
 * The MCP server: one tool (`feishu`), the resources, and the push
 * notifications (Claude Code channel events, `resources/updated`). Knows
 * nothing about Feishu; the app behind it is injected.
 *
 * One handle serves both protocol eras: the stdio entry asks it for one SDK
 * instance per connection, bound to the era the client's opening picked
 * (`server/discover` with a 2026-07-28 envelope, or `initialize`).
 * @module
 */

import * as sdk from "./_sdk.ts";
// The tool definition alone, not the family's mod.ts: the handshake then loads
// no validation schemas (they come with the service, after `tools/list`).
import { feishuTool, type ToolProjection } from "./family/tool.ts";

/** One listed resource. */
export interface ResourceEntry {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
}

/** Who is on the other end, as far as the protocol tells. */
export interface ClientIdentity {
  name: string | null;
  version: string | null;
}

/** What the server serves; built by the composition root. */
export interface McpApp {
  name: string;
  version: string;
  instructions: string;
  /** Which projection of the tool's schema this client is shown. */
  toolProjection(client: ClientIdentity): ToolProjection | Promise<ToolProjection>;
  /** Validates and runs one `feishu` call; returns the result payload. */
  callTool(args: unknown): Promise<Record<string, unknown>>;
  listResources(): ResourceEntry[];
  /** Returns the resource text, or null when the URI is unknown. Never throws. */
  readResource(uri: string): Promise<{ mimeType: string; text: string } | null>;
  /**
   * The Claude Code permission relay: `enabled` says whether to declare
   * `claude/channel/permission` (someone authenticated can answer);
   * `request` takes a `permission_request`'s params.
   */
  permissionRelay?: { enabled(): boolean; request(params: unknown): void };
}

/** The protocol era a connection speaks. */
export type ProtocolEra = "modern" | "legacy";

/** A server that can be connected; pushes go to whichever instance is connected. */
export interface McpHandle {
  /** Builds the SDK instance for one connection of the given era. */
  instance(era: ProtocolEra): sdk.Server;
  /** The era of the connected instance, or null before the opening exchange. */
  era(): ProtocolEra | null;
  /** Pushes an inbound chat event to a Claude Code channel client. */
  notifyChannel(params: { content: string; meta: Record<string, string> }): Promise<void>;
  /** Tells subscribers that a resource changed. */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Sends a permission verdict to a Claude Code channel client. */
  notifyPermission(params: { request_id: string; behavior: "allow" | "deny" }): Promise<void>;
}

/** Whether a payload is a failure, which the tool result marks `isError`. */
export function isErrorPayload(p: Record<string, unknown>): boolean {
  return p.status === "error" || p.status === "failed" || ("error" in p && !("status" in p));
}

const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";

/** Client → server: a tool-permission prompt to relay. */
export const PERMISSION_REQUEST = "notifications/claude/channel/permission_request";
/** Server → client: the verdict. */
export const PERMISSION_VERDICT = "notifications/claude/channel/permission";

/** Passes any params through (the relay checks them itself, without zod on the handshake path). */
const ANY_PARAMS = {
  "~standard": { version: 1, vendor: "feishu-mcp", validate: (value: unknown) => ({ value }) },
} as unknown as sdk.StandardSchemaV1<unknown, unknown>;

/**
 * Builds the server around an app.
 */
export function createMcpServer(
  app: McpApp,
  hooks: { onToolsListed?: () => void } = {},
): McpHandle {
  let current: { server: sdk.Server; era: ProtocolEra } | null = null;
  // Legacy clients subscribe per URI; on 2026-07-28 the stdio entry routes
  // `resources/updated` onto the client's open `subscriptions/listen` streams.
  const subscriptions = new Set<string>();

  const instance = (era: ProtocolEra): sdk.Server => {
    const relay = app.permissionRelay?.enabled() ? app.permissionRelay : null;
    const server = new sdk.Server(
      { name: app.name, version: app.version },
      {
        capabilities: {
          tools: {},
          resources: { subscribe: true },
          experimental: {
            "claude/channel": {},
            ...(relay ? { "claude/channel/permission": {} } : {}),
          },
        },
        instructions: app.instructions,
      },
    );
    const mine = { server, era };
    current = mine;
    server.onclose = () => {
      if (current === mine) current = null;
    };
    installHandlers(server, era, app, subscriptions, hooks);
    if (relay) {
      server.setNotificationHandler(PERMISSION_REQUEST, { params: ANY_PARAMS }, (params) => {
        relay.request(params);
      });
    }
    return server;
  };

  return {
    instance,
    era: () => current?.era ?? null,
    notifyChannel: async (params) => {
      await current?.server.notification({ method: "notifications/claude/channel", params });
    },
    notifyPermission: async (params) => {
      await current?.server.notification({ method: PERMISSION_VERDICT, params });
    },
    notifyResourceUpdated: async (uri) => {
      if (!current) return;
      if (current.era === "legacy" && !subscriptions.has(uri)) return;
      await current.server.sendResourceUpdated({ uri });
    },
  };
}

function installHandlers(
  server: sdk.Server,
  era: ProtocolEra,
  app: McpApp,
  subscriptions: Set<string>,
  hooks: { onToolsListed?: () => void },
): void {
  server.setRequestHandler("tools/list", async (_req, ctx) => {
    const tool = feishuTool(await app.toolProjection(clientOf(server, ctx)));
    // Let the response go out first, then tell the host (it loads heavy modules).
    if (hooks.onToolsListed) queueMicrotask(hooks.onToolsListed);
    return {
      tools: [{
        name: tool.name,
        description: tool.description,
        // Our schema type is open (keyword → unknown); the SDK's is the JSON value type.
        inputSchema: tool.inputSchema as sdk.Tool["inputSchema"],
      }],
    };
  });

  server.setRequestHandler("tools/call", async (req) => {
    if (req.params.name !== "feishu") {
      throw new sdk.ProtocolError(
        sdk.ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${req.params.name}`,
        { requested: req.params.name },
      );
    }
    const payload = await app.callTool(req.params.arguments ?? {});
    return server.projectCallToolResult({
      content: [{ type: "text" as const, text: JSON.stringify(payload) }],
      structuredContent: payload,
      isError: isErrorPayload(payload),
    }, undefined);
  });

  server.setRequestHandler("resources/list", () => ({ resources: app.listResources() }));

  server.setRequestHandler("resources/read", async (req) => {
    const uri = normaliseUri(req.params.uri);
    const res = await app.readResource(uri);
    if (!res) {
      throw new sdk.ProtocolError(
        sdk.ProtocolErrorCode.InvalidParams,
        `Unknown resource: ${uri}`,
        { uri },
      );
    }
    return { contents: [{ uri, mimeType: res.mimeType, text: res.text }] };
  });

  // 2026-07-28 has no per-URI subscribe: its listen streams are served by the stdio entry.
  if (era === "legacy") {
    server.setRequestHandler("resources/subscribe", (req) => {
      subscriptions.add(normaliseUri(req.params.uri));
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", (req) => {
      subscriptions.delete(normaliseUri(req.params.uri));
      return {};
    });
  }
}

function normaliseUri(uri: string): string {
  return uri.replace(/\/+$/, "");
}

/** The client's name and version: from `initialize`, or the request's own envelope. */
function clientOf(server: sdk.Server, ctx: sdk.ServerContext): ClientIdentity {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = (envelope?.[CLIENT_INFO_KEY] ?? server.getClientVersion()) as
    | { name?: unknown; version?: unknown }
    | undefined;
  return {
    name: typeof info?.name === "string" ? info.name : null,
    version: typeof info?.version === "string" ? info.version : null,
  };
}
