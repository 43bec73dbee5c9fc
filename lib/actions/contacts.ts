/**
 * `contacts`, `add_contact`, `remove_contact`. Contacts are
 * names for people; they never grant admission.
 * @module
 */

import { BridgeError, failure, requireFeishuId } from "../core/mod.ts";
import type { AddContactInput, ContactsInput, RemoveContactInput } from "../mcp/family/mod.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** `contacts`. */
export function contacts(ctx: ActionContext, input: ContactsInput): Record<string, unknown> {
  const acct = resolveAccount(ctx, input.account);
  return { status: "ok", contacts: ctx.store.contacts.list(acct.alias) };
}

/** `add_contact`: replaces the whole entry. */
export function addContact(ctx: ActionContext, input: AddContactInput): Record<string, unknown> {
  const acct = resolveAccount(ctx, input.account);
  if (!input.open_id) throw new BridgeError("INVALID_ARGUMENT", "open_id is required");
  if (!input.alias) throw new BridgeError("INVALID_ARGUMENT", "alias is required");
  requireFeishuId("open_id", input.open_id);
  if ("chat_id" in input && input.chat_id) requireFeishuId("chat_id", input.chat_id);
  ctx.store.contacts.put(acct.alias, input.open_id, {
    alias: input.alias,
    name: "name" in input ? input.name ?? null : input.alias,
    chat_id: "chat_id" in input ? input.chat_id ?? null : "",
  });
  return { status: "added", open_id: input.open_id, alias: input.alias };
}

/** `remove_contact` by open_id or by alias. */
export function removeContact(
  ctx: ActionContext,
  input: RemoveContactInput,
): Record<string, unknown> {
  const acct = resolveAccount(ctx, input.account);
  if ("open_id" in input && input.open_id) {
    requireFeishuId("open_id", input.open_id);
    if (ctx.store.contacts.removeOpenId(acct.alias, input.open_id)) {
      return { status: "removed", open_id: input.open_id };
    }
  } else if ("alias" in input && input.alias) {
    const ids = ctx.store.contacts.removeAlias(acct.alias, input.alias);
    if (ids.length) return { status: "removed", open_ids: ids };
  }
  return failure("NOT_FOUND", "Contact not found");
}
