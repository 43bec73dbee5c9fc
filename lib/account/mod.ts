/**
 * One configured Feishu app at run time ({@link Account}): its api, outbox,
 * identity, sender names and long connection, built once by the service and
 * shared by actions, inbound, presence and status.
 * @module
 */

export {
  type Account,
  type AccountConnection,
  type AccountDeps,
  type AccountIdentity,
  type ConnectionHandlers,
  createAccount,
  findAccount,
} from "./account.ts";
export type { NameResolver } from "./names.ts";
