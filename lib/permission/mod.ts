/**
 * The permission relay for Claude Code channels: tool-permission prompts
 * answered from Feishu by an allowed user.
 * @module
 */

export { createPermissionRelay, type PermissionRelay } from "./relay.ts";
