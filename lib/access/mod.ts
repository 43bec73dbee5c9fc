/**
 * Access: who may talk to an account and where it may write. Pairing codes
 * and their limits (a pure ledger), the book that keeps approvals in
 * `feishu/access.json`, and the outbound gate (`access.outbound`).
 * @module
 */

export { type AccessBook, openAccessBook, type PairedLookup } from "./book.ts";
export { admittedSet, checkChat, checkSendTarget } from "./gate.ts";
