/**
 * The Open API side: the front door (`handleApi`: body parsing, request log,
 * faults, auth, limiter, routing), Feishu's envelopes and the routes per
 * area (auth, contacts and chats, messages, edits, history, reactions,
 * media), plus the raw multipart parser and content validation.
 * @module
 */

export { ApiError, errorResponse, json, ok } from "./_envelope.ts";
export { authenticate, revokeTokens } from "./auth.ts";
export { checkCard, checkContent, type CheckedContent } from "./content.ts";
export { type ApiEnv, handleApi, ROUTES } from "./dispatch.ts";
export { download, sniffContentType } from "./media.ts";
export { multipartBoundary, type MultipartPart, parseMultipart, partText } from "./multipart.ts";
export { findRoute, matchPath, type Route, type RouteCtx } from "./router.ts";
