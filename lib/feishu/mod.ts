/**
 * Feishu at the edge: the only folder that imports the node-sdk. It exports our
 * narrow {@link FeishuApi} (REST, one attempt per call, classified failures),
 * the error classifier, the proxy resolver shared by REST and WS, the
 * long-connection wrapper (`ws/`), and the quota category of a call
 * (`category.ts`; every request is counted in `_http.ts`).
 * @module
 */

export type { FeishuApi, FeishuMessage, ReceiveIdType } from "./api.ts";
export { createFeishuApi } from "./client.ts";
export { type AuthStatus, authSummary } from "./token_guard.ts";
export {
  ACCOUNTS_HOSTS,
  type RegisteredApp,
  registerFeishuApp,
  RegistrationError,
} from "./registration.ts";
export {
  type LongConnection,
  type LongConnectionOptions,
  type LongConnectionStatus,
  type RawEnvelope,
  startLongConnection,
} from "./ws/mod.ts";
