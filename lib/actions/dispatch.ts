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
import { deleteMessage, edit } from "./lifecycle.ts";
import { manualResult } from "./manual.ts";
import { react } from "./react.ts";
import { reply } from "./reply.ts";
import { send } from "./send.ts";

async function run(ctx: ActionContext, call: ValidatedCall): Promise<Record<string, unknown>> {
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
    case "send":
      return await send(ctx, call.input);
    case "reply":
      return await reply(ctx, call.input);
    case "react":
      return await react(ctx, call.input);
    case "delete":
      return await deleteMessage(ctx, call.input);
    case "edit":
      return await edit(ctx, call.input);
  }
}

/** Dispatches a validated call. */
export async function dispatch(
  ctx: ActionContext,
  call: ValidatedCall,
): Promise<Record<string, unknown>> {
  try {
    return await run(ctx, call);
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
