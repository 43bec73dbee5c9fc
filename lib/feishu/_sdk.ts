/**
 * The single import of `@larksuiteoapi/node-sdk` in the product. Everything
 * else in `lib/feishu/` goes through this file.
 * @module
 */

export * as lark from "@larksuiteoapi/node-sdk";
