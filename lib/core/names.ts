/**
 * Names several folders must spell the same way, each in one place: the
 * state folder below the workdir, the inbox resource the notifier announces
 * and the service serves, and the pattern of a Feishu app id.
 * @module
 */

import { join } from "node:path";

/** The folder below the workdir that holds all of the bridge's state. */
export const STATE_DIR_NAME = "feishu";

/**
 * The state folder of a workdir.
 *
 * @example
 * ```ts
 * import { stateDir } from "./names.ts";
 * if (stateDir("/agent") !== "/agent/feishu") throw new Error();
 * ```
 */
export function stateDir(workdir: string): string {
  return join(workdir, STATE_DIR_NAME);
}

/** The resource listing unread conversations (announced by `resources/updated`). */
export const INBOX_URI = "feishu://inbox";

/** The status resource. */
export const STATUS_URI = "lingtai://status";

/** A Feishu app id: `cli_` and 16 hex digits (the node-sdk silently does nothing otherwise). */
export const APP_ID_PATTERN = /^cli_[0-9a-fA-F]{16}$/;
