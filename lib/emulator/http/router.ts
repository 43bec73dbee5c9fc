/**
 * A tiny path router: patterns with `:name` segments, matched on method and
 * path. Routes receive a {@linkcode RouteCtx} and answer with a `Response`
 * or throw an `ApiError`.
 * @module
 */

import type { Core } from "../core.ts";
import type { FaultGate, MultipartPart } from "../types.ts";
import type { App } from "../world.ts";
import type { WsHub } from "../ws/mod.ts";

/** What a route handler receives. */
export interface RouteCtx {
  core: Core;
  faults: FaultGate;
  hub: WsHub;
  req: Request;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when absent or not JSON). */
  body: unknown;
  /** Multipart parts, when the body was multipart. */
  parts?: MultipartPart[];
  /** The authenticated app (routes with `auth` only). */
  app: App;
}

/** One route. */
export interface Route {
  method: string;
  pattern: string;
  /** Requires a valid tenant token (default true). */
  auth?: boolean;
  handle(ctx: RouteCtx): Response | Promise<Response>;
}

/**
 * Matches a `:param` pattern against a path.
 *
 * @example
 * ```ts
 * import { matchPath } from "./router.ts";
 * const p = matchPath("/im/v1/messages/:message_id/reply", "/im/v1/messages/om_1/reply");
 * if (p?.message_id !== "om_1") throw new Error();
 * if (matchPath("/a/:b", "/a/b/c") !== undefined) throw new Error();
 * ```
 */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith(":")) {
      if (g === "") return undefined;
      params[w.slice(1)] = decodeURIComponent(g);
    } else if (w !== g) return undefined;
  }
  return params;
}

/** Finds the route for a method and path; `pathOnly` tells a 404 from a 405. */
export function findRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | { pathOnly: boolean } {
  let pathOnly = false;
  for (const route of routes) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { route, params };
    pathOnly = true;
  }
  return { pathOnly };
}
