/**
 * Launching the confined server: permission flags computed from the launch
 * options and the config, then a child `deno run` with exactly those.
 * @module
 */

export * from "./permissions.ts";
