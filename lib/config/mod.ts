/**
 * Configuration: the launch contract (flags and environment), the strict config
 * file and its validation. First stage of start-up; nothing here talks to Feishu.
 * @module
 */

export * from "./launch.ts";
export * from "./schema.ts";
export * from "./load.ts";
