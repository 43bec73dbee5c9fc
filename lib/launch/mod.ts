/**
 * Launching: the command line shared by every form of the app (source,
 * bundle, compiled), what the running app is and how it starts itself again,
 * and the permission flags of the confined server, computed from the launch
 * options and the config.
 * @module
 */

export * from "./app.ts";
export * from "./cli.ts";
export * from "./permissions.ts";
