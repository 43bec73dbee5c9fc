/**
 * Configuration: the launch contract (flags and environment), the strict config
 * file and its validation. First stage of start-up; nothing here talks to Feishu.
 * @module
 */

export { type LaunchOptions, resolveLaunch } from "./launch.ts";
export {
  type AccessRules,
  type Config,
  type ConfigOptions,
  DEFAULT_BOT_WAKES,
  loadConfig,
  parseConfig,
  type ResolvedAccount,
} from "./load.ts";
