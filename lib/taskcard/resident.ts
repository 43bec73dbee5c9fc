/**
 * The resident Task Card of one route, as a transaction over a transport:
 * edit the bound card in place while it is still the last message of its
 * route; once something newer is seen below it, rotate old-first (delete it,
 * or confirm it is gone, then send one replacement and bind that); with no
 * card bound yet, send one. A binding that does not read back as valid
 * fails closed: nothing is sent. The transport makes exactly one attempt
 * per operation.
 * @module
 */

import type { BindingRead, TaskCardRoute } from "../store/mod.ts";

/** How an edit of the bound card went. */
export type EditResult = { kind: "ok" } | { kind: "gone" } | { kind: "failed"; error: string };
/** How a delete of the bound card went (`gone`: it was not there any more). */
export type DeleteResult = { kind: "ok" } | { kind: "gone" } | { kind: "failed"; error: string };
/** How a send went; `indeterminate` when Feishu may have sent it anyway. */
export type SendResult =
  | { kind: "sent"; residentId: string }
  | { kind: "failed"; error: string; indeterminate?: boolean };

/** What the transaction needs of the world. */
export interface ResidentTransport {
  binding(route: TaskCardRoute): BindingRead;
  /** Whether a message newer than `residentId` was seen in the route. */
  superseded(route: TaskCardRoute, residentId: string): boolean;
  edit(route: TaskCardRoute, residentId: string, text: string): Promise<EditResult>;
  delete(route: TaskCardRoute, residentId: string): Promise<DeleteResult>;
  /** Sends a new card; `replaces` is the card it takes the place of (for an idempotent uuid). */
  send(route: TaskCardRoute, text: string, replaces: string | null): Promise<SendResult>;
  /** Binds the route to its new card; false when that could not be stored. */
  persist(route: TaskCardRoute, residentId: string): boolean;
}

/** How one delivery ended. */
export interface ResidentOutcome {
  status: "ok" | "error";
  /** The card that now shows the frame. */
  message_id?: string;
  /** What was done to get there. */
  action?: "edited" | "sent" | "rotated" | "adopted";
  error?: string;
  /** The binding could not be read: nothing was attempted. */
  blocked?: boolean;
  resident_persist_failed?: boolean;
  indeterminate_send?: boolean;
  stale_delete_failed?: boolean;
  /** The old card was deleted but no replacement went out: the route has no card now. */
  old_resident_deleted?: boolean;
}

/** The label of a failed delivery. */
export const DELIVERY_FAILED = "Failed to update Feishu Task Card";

/** The text of a route's card: the automatic frame, then the programmable one under its heading. */
export function composeFrame(
  automatic: string,
  programmable: string | null,
  heading = "— TASK CARD —",
): string {
  if (!programmable) return automatic;
  const watch = `${heading}\n${programmable}`;
  return automatic ? `${automatic}\n\n${watch}` : watch;
}

/**
 * Delivers `text` to the route's card. With `create` false a route without
 * a card is left alone (only messages that reach the agent create cards).
 * With `rotate` false a superseded card is edited in place all the same (the
 * caller decides when a card may move; a card found gone is replaced anyway).
 */
export async function deliverResident(
  t: ResidentTransport,
  route: TaskCardRoute,
  text: string,
  create: boolean,
  rotate = true,
): Promise<ResidentOutcome | null> {
  const bound = t.binding(route);
  if (bound.state === "invalid") {
    return { status: "error", blocked: true, error: `${DELIVERY_FAILED}: ${bound.reason}` };
  }
  if (bound.state === "none") {
    if (!create) return null;
    return await sendAndBind(t, route, text, null, false);
  }
  const id = bound.residentId;
  if (rotate && t.superseded(route, id)) return await replace(t, route, id, text);
  const edited = await t.edit(route, id, text);
  if (edited.kind === "ok") return { status: "ok", message_id: id, action: "edited" };
  if (edited.kind === "failed") return { status: "error", error: edited.error };
  return await replace(t, route, id, text);
}

/** Old first: the stale card goes (or is confirmed gone) before its replacement is sent. */
async function replace(
  t: ResidentTransport,
  route: TaskCardRoute,
  stale: string,
  text: string,
): Promise<ResidentOutcome> {
  const removed = await t.delete(route, stale);
  if (removed.kind === "failed") {
    return { status: "error", error: removed.error, stale_delete_failed: true };
  }
  const now = t.binding(route);
  if (now.state === "bound" && now.residentId !== stale) {
    // Someone bound a newer card meanwhile: show the frame there instead of adding one.
    const edited = await t.edit(route, now.residentId, text);
    if (edited.kind === "ok") {
      return { status: "ok", message_id: now.residentId, action: "adopted" };
    }
    if (edited.kind === "failed") return { status: "error", error: edited.error };
  }
  return await sendAndBind(t, route, text, stale, removed.kind === "ok");
}

async function sendAndBind(
  t: ResidentTransport,
  route: TaskCardRoute,
  text: string,
  replaces: string | null,
  deletedOld: boolean,
): Promise<ResidentOutcome> {
  const sent = await t.send(route, text, replaces);
  if (sent.kind === "failed") {
    const out: ResidentOutcome = { status: "error", error: sent.error };
    if (deletedOld) out.old_resident_deleted = true;
    if (sent.indeterminate) out.indeterminate_send = true;
    return out;
  }
  const out: ResidentOutcome = {
    status: "ok",
    message_id: sent.residentId,
    action: replaces === null ? "sent" : "rotated",
  };
  if (!t.persist(route, sent.residentId)) out.resident_persist_failed = true;
  return out;
}
