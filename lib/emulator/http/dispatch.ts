/**
 * The Open API front door: reads the raw body (JSON or multipart), logs the
 * request, applies fault rules, serves `/callback/ws/endpoint`, checks the
 * bearer token and the app limiter, and runs the matching route.
 * @module
 */

import type { Core } from "../core.ts";
import { ID_PREFIX } from "../ids.ts";
import type { FaultGate, MultipartPart, RequestRecord } from "../types.ts";
import type { WsHub } from "../ws/mod.ts";
import { ApiError, errorResponse, json } from "./_envelope.ts";
import { authenticate, authRoutes } from "./auth.ts";
import { cardUpdateRoutes } from "./card_update.ts";
import { contactRoutes } from "./contacts.ts";
import { editRoutes } from "./edit.ts";
import { historyRoutes } from "./history.ts";
import { mediaRoutes } from "./media.ts";
import { messageRoutes } from "./messages.ts";
import { multipartBoundary, parseMultipart } from "./multipart.ts";
import { reactionRoutes } from "./reactions.ts";
import { findRoute, type Route } from "./router.ts";

/** Every Open API route. */
export const ROUTES: readonly Route[] = [
  ...authRoutes,
  ...contactRoutes,
  ...historyRoutes,
  ...messageRoutes,
  ...editRoutes,
  ...cardUpdateRoutes,
  ...reactionRoutes,
  ...mediaRoutes,
];

/** What the API handler works on. */
export interface ApiEnv {
  core: Core;
  faults: FaultGate;
  hub: WsHub;
}

interface Parsed {
  body?: unknown;
  parts?: MultipartPart[];
  error?: ApiError;
}

function parseBody(core: Core, req: Request, raw: Uint8Array): Parsed {
  if (raw.length === 0) return {};
  const type = req.headers.get("content-type");
  const boundary = multipartBoundary(type);
  if (boundary) {
    try {
      return { parts: parseMultipart(raw, boundary) };
    } catch (error) {
      core.recordError("http.multipart", error);
      return {
        error: new ApiError(234001, "Invalid request param. The multipart body is malformed"),
      };
    }
  }
  const text = new TextDecoder().decode(raw);
  try {
    return { body: JSON.parse(text) };
  } catch (error) {
    if (type?.includes("json")) {
      core.recordError("http.json", error);
      return {
        error: new ApiError(99992402, "field validation failed, the body is not valid JSON"),
      };
    }
    return { body: text };
  }
}

function logRequest(core: Core, req: Request, url: URL, parsed: Parsed): RequestRecord {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    query[key] = all.length === 1 ? all[0] ?? "" : all;
  }
  const record: RequestRecord = {
    seq: core.requests.length + 1,
    at: core.clock.now(),
    method: req.method,
    path: url.pathname,
    query,
    headers: Object.fromEntries(req.headers),
    body: parsed.body,
    parts: parsed.parts,
  };
  core.requests.push(record);
  core.feed.emit({ kind: "request.logged" });
  return record;
}

/** A response whose body fails mid-stream: the client sees a broken connection. */
function resetResponse(): Response {
  const body = new ReadableStream({
    start(controller) {
      controller.error(new Error("connection reset by the emulator"));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

/** Never answers until the emulator closes. */
async function hungResponse(core: Core): Promise<Response> {
  await core.untilClosed();
  return json({ code: 503, msg: "the emulator closed while the request hung" }, 503);
}

/** How the answer of a request that was carried out is lost ("hang-after", "reset-after"). */
type LostAnswer = "hang" | "reset";

async function applyFault(
  env: ApiEnv,
  record: RequestRecord,
  loseAnswer: (how: LostAnswer) => void,
): Promise<Response | undefined> {
  const rule = env.faults.take(record.method, record.path, record);
  if (!rule) return undefined;
  record.faulted = true;
  if (rule.respond === "reset") return resetResponse();
  if (rule.respond === "hang") return await hungResponse(env.core);
  if (rule.respond === "hang-after" || rule.respond === "reset-after") {
    loseAnswer(rule.respond === "hang-after" ? "hang" : "reset");
    return undefined;
  }
  const r = rule.respond;
  if (r.delayMs) await env.core.wait(r.delayMs);
  if (r.status === undefined && r.code === undefined) return undefined;
  return errorResponse(env.core, {
    code: r.code ?? 0,
    message: r.msg ?? "injected fault",
    status: r.status ?? 400,
    headers: r.headers,
  });
}

async function route(env: ApiEnv, req: Request, url: URL, parsed: Parsed): Promise<Response> {
  const { core } = env;
  if (parsed.error) throw parsed.error;
  if (url.pathname === "/callback/ws/endpoint" && req.method === "POST") {
    return env.hub.endpoint(url, parsed.body);
  }
  const found = findRoute(ROUTES, req.method, url.pathname);
  if (!("route" in found)) {
    return json({ code: 404, msg: "404 page not found" }, found.pathOnly ? 405 : 404);
  }
  const { route, params } = found;
  const app = route.auth === false ? core.world.primaryApp() : authenticate(core, req);
  if (route.auth !== false) env.faults.checkApp(app.appId);
  return await route.handle({
    core,
    faults: env.faults,
    hub: env.hub,
    req,
    url,
    params,
    query: url.searchParams,
    body: parsed.body,
    parts: parsed.parts,
    app,
  });
}

async function finish(record: RequestRecord, res: Response): Promise<void> {
  record.status = res.status;
  if (!res.headers.get("content-type")?.includes("json")) return;
  try {
    const body = await res.clone().json() as { code?: unknown };
    if (typeof body.code === "number") record.code = body.code;
  } catch {
    // A reset response has no readable body: the record keeps its status only.
    record.code = undefined;
  }
}

/** Handles one `/open-apis/…` or `/callback/…` request. */
export async function handleApi(env: ApiEnv, req: Request, url: URL): Promise<Response> {
  const { core } = env;
  const raw = new Uint8Array(await req.arrayBuffer());
  const parsed = parseBody(core, req, raw);
  const record = logRequest(core, req, url, parsed);
  let res: Response;
  let lost = undefined as LostAnswer | undefined;
  try {
    res = await applyFault(env, record, (how) => (lost = how)) ??
      await route(env, req, url, parsed);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      core.recordError(`http ${req.method} ${url.pathname}`, error);
      res = json({ code: 500, msg: `emulator error: ${String(error)}` }, 500);
    } else res = errorResponse(core, error);
  }
  // Feishu names every answer with a log id, not only the errors it explains.
  if (!res.headers.has("x-tt-logid")) res.headers.set("x-tt-logid", core.ids.next(ID_PREFIX.log));
  await finish(record, res);
  core.feed.emit({ kind: "request.logged" });
  // The record keeps what Feishu did; only the caller never hears of it.
  if (lost === "reset") return resetResponse();
  if (lost === "hang") return await hungResponse(core);
  return res;
}
