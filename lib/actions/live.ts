/**
 * The actions that talk to Feishu, bound to one outbound runtime: the
 * `LiveActions` the dispatcher routes `send`, `reply`, `react`, `delete` and
 * `edit` to.
 * @module
 */

import type { LiveActions } from "./dispatch.ts";
import { deleteMessage, edit } from "./lifecycle.ts";
import type { OutboundRuntime } from "./outbound_runtime.ts";
import { react } from "./react.ts";
import { reply } from "./reply.ts";
import { send } from "./send.ts";

/**
 * Binds the live actions to a runtime.
 *
 * @example
 * ```ts
 * import { systemClock } from "../core/mod.ts";
 * import { liveActions } from "./live.ts";
 * import { createOutboundRuntime } from "./outbound_runtime.ts";
 * const rt = createOutboundRuntime({ clock: systemClock });
 * if (Object.keys(liveActions(rt)).sort().join() !== "delete,edit,react,reply,send") throw new Error();
 * rt.close();
 * ```
 */
export function liveActions(rt: OutboundRuntime): LiveActions {
  return {
    send: (ctx, input) => send(ctx, rt, input),
    reply: (ctx, input) => reply(ctx, rt, input),
    react: (ctx, input) => react(ctx, input),
    delete: (ctx, input) => deleteMessage(ctx, input),
    edit: (ctx, input) => edit(ctx, rt, input),
  };
}
