/**
 * Feishu at the edge: the only folder that imports the node-sdk. It exports our
 * narrow {@link FeishuApi} (REST, one attempt per call, classified failures),
 * the error classifier, the proxy resolver shared by REST and WS, and the
 * long-connection wrapper (`ws/`).
 * @module
 */

export * from "./api.ts";
export * from "./classify.ts";
export { createFeishuApi, type FeishuApiOptions, fileNameFromDisposition } from "./client.ts";
export { sdkLogger, summariseSdkArgs } from "./sdk_logger.ts";
export {
  type AxiosProxy,
  axiosProxy,
  describeProxy,
  noProxyMatches,
  processProxyEnv,
  type ProxyEnv,
  proxyEnvOf,
  proxyForUrl,
  validateProxyEnv,
} from "./proxy.ts";
export * from "./ws/mod.ts";
