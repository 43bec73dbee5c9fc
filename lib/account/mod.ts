/**
 * One configured Feishu app at run time ({@link Account}): its api, outbox,
 * identity, sender names and long connection, built once by the service and
 * shared by actions, inbound, presence and status.
 * @module
 */

export { type Account, controlRight, createAccount } from "./account.ts";
