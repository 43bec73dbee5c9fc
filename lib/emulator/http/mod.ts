/**
 * The Open API side: the front door (`handleApi`: body parsing, request log,
 * faults, auth, limiter, routing), Feishu's envelopes and the routes per
 * area (auth, contacts and chats, messages, edits, delayed card updates,
 * history, reactions, media), plus the raw multipart parser and content validation.
 * @module
 */

export { ApiError } from "./_envelope.ts";
export { revokeTokens } from "./auth.ts";
export { checkContent } from "./content.ts";
export { handleApi } from "./dispatch.ts";
export { download, sniffContentType } from "./media.ts";
export { matchPath } from "./router.ts";
