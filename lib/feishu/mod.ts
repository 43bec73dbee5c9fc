/**
 * Feishu at the edge: the only folder that imports the node-sdk. It exports our
 * narrow {@link FeishuApi} (REST, one attempt per call, classified failures),
 * the error classifier and the long-connection wrapper.
 * @module
 */

export * from "./api.ts";
export * from "./classify.ts";
export { createFeishuApi, type FeishuApiOptions, fileNameFromDisposition } from "./client.ts";
export { sdkLogger, summariseSdkArgs } from "./sdk_logger.ts";
