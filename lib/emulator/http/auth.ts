/**
 * Tenant tokens and app identity: `auth/v3/tenant_access_token/internal`
 * (top-level `tenant_access_token`/`expire`), bearer checks (99991661 missing,
 * 99991663 invalid, expired or revoked), `bot/v3/info` (top-level `bot`),
 * `application/v6/applications/:app_id` and the tenant's scope grants
 * (`application/v6/scopes`).
 * @module
 */

import type { Core } from "../core.ts";
import { DEFAULT_SCOPES } from "../fixtures.ts";
import { ID_PREFIX } from "../ids.ts";
import type { App } from "../world.ts";
import { ApiError, json, ok } from "./_envelope.ts";
import type { Route } from "./router.ts";

/** Resolves the bearer token of a request to its app, or throws. */
export function authenticate(core: Core, req: Request): App {
  const header = req.headers.get("authorization") ?? "";
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!m?.[1]) {
    throw new ApiError(
      99991661,
      "Missing access token for authorization. Please make a request with token attached.",
    );
  }
  const token = core.world.tokens.get(m[1]);
  const app = token ? core.world.apps.get(token.appId) : undefined;
  if (!token || !app || token.revoked || token.expiresAt <= core.clock.now()) {
    throw new ApiError(
      99991663,
      "Invalid access token for authorization. Please make a request with token attached.",
    );
  }
  return app;
}

/** Marks every issued token revoked (99991663 until a new one is fetched). */
export function revokeTokens(core: Core, appId?: string): number {
  let n = 0;
  for (const t of core.world.tokens.values()) {
    if (appId !== undefined && t.appId !== appId) continue;
    if (!t.revoked) n++;
    t.revoked = true;
  }
  return n;
}

function issueToken(core: Core, body: unknown): Response {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.app_id !== "string" || typeof b.app_secret !== "string") {
    throw new ApiError(10003, "invalid param");
  }
  const app = core.world.apps.get(b.app_id);
  if (!app) throw new ApiError(10003, `invalid param, app_id ${b.app_id} not found`);
  if (app.appSecret !== b.app_secret) throw new ApiError(10014, "app secret invalid");
  const expire = core.settings.tokenExpireSeconds;
  const token = core.ids.next(ID_PREFIX.token);
  core.world.tokens.set(token, {
    token,
    appId: app.appId,
    expiresAt: core.clock.now() + expire * 1000,
    revoked: false,
  });
  return json({ code: 0, msg: "ok", tenant_access_token: token, expire });
}

/** Grant status codes of `application/v6/scopes`. */
const GRANTED = 1;
const NOT_GRANTED = 2;

/**
 * The scopes an app requested with their grant status, as
 * `application/v6/scopes` lists them (`data.scopes[{scope_name, grant_status,
 * scope_type}]`, the node-sdk's `application.v6.scope.list` shape).
 */
function scopeList(app: App): { scope_name: string; grant_status: number; scope_type: string }[] {
  const withheld = new Set(app.scopes?.withhold ?? []);
  const omitted = new Set(app.scopes?.omit ?? []);
  const names = [...new Set([...DEFAULT_SCOPES, ...withheld])].filter((s) => !omitted.has(s));
  return names.map((scope_name) => ({
    scope_name,
    grant_status: withheld.has(scope_name) ? NOT_GRANTED : GRANTED,
    scope_type: "tenant",
  }));
}

/** Routes of this area. */
export const authRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/open-apis/auth/v3/tenant_access_token/internal",
    auth: false,
    handle: ({ core, body }) => issueToken(core, body),
  },
  {
    method: "GET",
    pattern: "/open-apis/bot/v3/info",
    handle: ({ app }) =>
      json({
        code: 0,
        msg: "ok",
        bot: {
          activate_status: 2,
          app_name: app.botName,
          avatar_url: "",
          ip_white_list: [],
          open_id: app.botOpenId,
        },
      }),
  },
  {
    method: "GET",
    pattern: "/open-apis/application/v6/applications/:app_id",
    handle: ({ app, params }) => {
      if (params.app_id !== app.appId) {
        throw new ApiError(210504, `The app ${params.app_id} is not visible to this app`);
      }
      return ok({
        app: {
          app_id: app.appId,
          app_name: app.botName,
          description: "",
          avatar_url: "",
          status: 1,
          primary_language: "zh_cn",
          i18n: [{ i18n_key: "zh_cn", name: app.botName, description: "" }],
        },
      });
    },
  },
  {
    method: "GET",
    pattern: "/open-apis/application/v6/scopes",
    handle: ({ app }) => ok({ scopes: scopeList(app) }),
  },
];
