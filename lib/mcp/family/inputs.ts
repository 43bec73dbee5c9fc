/**
 * zod schemas and TypeScript types of every action input.
 * Every object is strict; "exactly one of" rules and the `react` pairing are
 * unions of closed objects, so these accept exactly what the published JSON
 * Schema accepts (a property test holds them to it).
 * @module
 */

import { z } from "zod";
import type { FeishuAction } from "./actions.ts";
import { EditableContentSchema, OutboundContentSchema } from "./_content_inputs.ts";
import { RECEIVE_ID_TYPES } from "./schema.ts";

export * from "./_content_inputs.ts";

const nonEmpty = () => z.string().min(1);
const account = () => z.string().nullable().optional();
/** Any integer JSON Schema calls `integer` (zod's `int()` stops at 2^53). */
const integer = () => z.number().refine(Number.isInteger);

/**
 * Two closed objects sharing `base`: one with `text`, one with `content`,
 * which together mean "exactly one of text or content".
 */
function textOrContent<B extends z.ZodRawShape, C extends z.ZodType>(base: B, content: C) {
  return z.union([
    z.strictObject({ ...base, text: z.string() }),
    z.strictObject({ ...base, content }),
  ]);
}

/** `send` input (zod). */
export const SendInputSchema = textOrContent({
  account: account(),
  receive_id: z.string(),
  receive_id_type: z.enum(RECEIVE_ID_TYPES).nullable().optional(),
  placeholder: z.boolean().nullable().optional(),
  idempotency_key: nonEmpty().optional(),
}, OutboundContentSchema);

/** `check` input (zod). */
export const CheckInputSchema = z.strictObject({ account: account() });

/** `read` input (zod); `limit: null` means no limit. */
export const ReadInputSchema = z.strictObject({
  account: account(),
  chat_id: z.string(),
  limit: integer().min(0).nullable().optional(),
});

/** `reply` input (zod). */
export const ReplyInputSchema = textOrContent({
  message_id: z.string(),
  reply_in_thread: z.boolean().optional(),
  idempotency_key: nonEmpty().optional(),
}, OutboundContentSchema);

/** `react` input (zod): add with `emoji_type`, or remove with `reaction_id`. */
export const ReactInputSchema = z.discriminatedUnion("operation", [
  z.strictObject({ message_id: nonEmpty(), operation: z.literal("add"), emoji_type: nonEmpty() }),
  z.strictObject({
    message_id: nonEmpty(),
    operation: z.literal("remove"),
    reaction_id: nonEmpty(),
  }),
]);

/** `search` input (zod). */
export const SearchInputSchema = z.strictObject({
  query: z.string(),
  account: account(),
  chat_id: z.string().nullable().optional(),
});

/** `delete` input (zod). */
export const DeleteInputSchema = z.strictObject({ message_id: z.string() });

/** `edit` input (zod). */
export const EditInputSchema = textOrContent({ message_id: z.string() }, EditableContentSchema);

/** `contacts` input (zod). */
export const ContactsInputSchema = z.strictObject({ account: account() });

/** `add_contact` input (zod). */
export const AddContactInputSchema = z.strictObject({
  account: account(),
  open_id: z.string(),
  alias: z.string(),
  name: z.string().nullable().optional(),
  chat_id: z.string().nullable().optional(),
});

/** `remove_contact` input (zod): exactly one of `alias` or `open_id`. */
export const RemoveContactInputSchema = z.union([
  z.strictObject({ account: account(), alias: z.string() }),
  z.strictObject({ account: account(), open_id: z.string() }),
]);

/** `accounts` input (zod): nothing. */
export const AccountsInputSchema = z.strictObject({});

/** `manual` input (zod): nothing. */
export const ManualInputSchema = z.strictObject({});

/** The zod input schema of every action. */
export const ACTION_INPUT_SCHEMAS = {
  send: SendInputSchema,
  check: CheckInputSchema,
  read: ReadInputSchema,
  reply: ReplyInputSchema,
  react: ReactInputSchema,
  search: SearchInputSchema,
  delete: DeleteInputSchema,
  edit: EditInputSchema,
  contacts: ContactsInputSchema,
  add_contact: AddContactInputSchema,
  remove_contact: RemoveContactInputSchema,
  accounts: AccountsInputSchema,
  manual: ManualInputSchema,
} as const satisfies Record<FeishuAction, z.ZodType>;

/** The validated input of action `A`. */
export type ActionInput<A extends FeishuAction> = z.output<typeof ACTION_INPUT_SCHEMAS[A]>;

/** `send` input. */
export type SendInput = ActionInput<"send">;
/** `check` input. */
export type CheckInput = ActionInput<"check">;
/** `read` input. */
export type ReadInput = ActionInput<"read">;
/** `reply` input. */
export type ReplyInput = ActionInput<"reply">;
/** `react` input. */
export type ReactInput = ActionInput<"react">;
/** `search` input. */
export type SearchInput = ActionInput<"search">;
/** `delete` input. */
export type DeleteInput = ActionInput<"delete">;
/** `edit` input. */
export type EditInput = ActionInput<"edit">;
/** `contacts` input. */
export type ContactsInput = ActionInput<"contacts">;
/** `add_contact` input. */
export type AddContactInput = ActionInput<"add_contact">;
/** `remove_contact` input. */
export type RemoveContactInput = ActionInput<"remove_contact">;

/** A call that passed validation: the action and its own input, nothing else. */
export type ValidatedCall = { [A in FeishuAction]: { action: A; input: ActionInput<A> } }[
  FeishuAction
];
