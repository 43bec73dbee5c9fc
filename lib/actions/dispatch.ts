/**
 * Runs one validated `feishu` call: the action gets only its input; any
 * `BridgeError` becomes the stable failure shape; unexpected errors become
 * `UNKNOWN` failures (and are logged as bugs).
 * @module
 */

import { BridgeError, toFailure } from "../core/mod.ts";
import type { ValidatedCall } from "../mcp/family/mod.ts";
import { accounts } from "./accounts.ts";
import { addContact, contacts, removeContact } from "./contacts.ts";
import type { ActionContext } from "./context.ts";
import { check, read, search } from "./inbox.ts";
import { manualResult } from "./manual.ts";

/** The actions that need more than the store (later capabilities plug in here). */
export type LiveActions = {
  [A in "send" | "reply" | "react" | "delete" | "edit"]: (
    ctx: ActionContext,
    input: Extract<ValidatedCall, { action: A }>["input"],
  ) => Promise<Record<string, unknown>>;
};

/** Dispatches a validated call. */
export async function dispatch(
  ctx: ActionContext,
  call: ValidatedCall,
  live: Partial<LiveActions>,
): Promise<Record<string, unknown>> {
  try {
    switch (call.action) {
      case "manual":
        return manualResult();
      case "accounts":
        return accounts(ctx);
      case "contacts":
        return contacts(ctx, call.input);
      case "add_contact":
        return addContact(ctx, call.input);
      case "remove_contact":
        return removeContact(ctx, call.input);
      case "check":
        return check(ctx, call.input);
      case "read":
        return read(ctx, call.input);
      case "search":
        return await search(ctx, call.input);
      default: {
        const fn = live[call.action] as
          | ((c: ActionContext, i: unknown) => Promise<Record<string, unknown>>)
          | undefined;
        if (!fn) {
          throw new BridgeError(
            "NOT_SUPPORTED",
            `Action '${call.action}' is not available in this build`,
          );
        }
        return await fn(ctx, call.input);
      }
    }
  } catch (err) {
    if (!(err instanceof BridgeError)) {
      ctx.deps.log.error("action failed unexpectedly", {
        action: call.action,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
    return toFailure(err);
  }
}
