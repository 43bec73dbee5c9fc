/**
 * What `send` and `reply` share: validation and materialisation before any
 * I/O, then upload and delivery, then the sent record.
 * @module
 */

import { stateDir } from "../core/mod.ts";
import type { FeishuMessage } from "../feishu/mod.ts";
import {
  checkMediaSize,
  chunkUuids,
  type Degradation,
  type DeliveryOutcome,
  type DeliveryRoute,
  type NormalisedContent,
  normaliseOutbound,
  type OutboundInput,
  uploadMedia,
  type WireBody,
  wrapProgressCard,
} from "../outbound/mod.ts";
import { checkOutboundTextCap } from "../outbound/caps.ts";
import type { Account } from "../account/mod.ts";
import type { SentMessageRecord } from "../store/mod.ts";
import type { ActionContext } from "./context.ts";

/** A message that passed validation: its final content and wire bodies. */
export interface Prepared {
  content: NormalisedContent;
  /** For a path source these carry a provisional key until the upload. */
  bodies: WireBody[];
  degradations: Degradation[];
}

/** Stands in for an upload's key so a media message can be measured before the upload. */
const PROVISIONAL_KEY = "img_v3_provisional_" + "0".repeat(45);

/**
 * The content as the planner needs it: without the bytes of a path source,
 * which materialisation never reads (and a worker need not be sent).
 */
function forPlanning(content: NormalisedContent): NormalisedContent {
  const upload = content.media?.upload;
  if (upload === undefined) return content;
  return {
    ...content,
    media: { ...content.media!, upload: { ...upload, bytes: new Uint8Array() } },
  };
}

/**
 * Normalises and materialises `text` / `content` with every check that needs
 * no Feishu call: content rules, media roots, the server's own files (its
 * config and state folder are never content), sizes, placeholder rules, byte
 * limits. A path source is read here, once, from the handle it was checked
 * on. Throws `INVALID_ARGUMENT`; nothing reaches Feishu or disk.
 */
export async function prepareOutgoing(
  ctx: ActionContext,
  input: OutboundInput & { placeholder?: boolean },
): Promise<Prepared> {
  checkOutboundTextCap(input, ctx.config.limits.outboundTextCodePoints);
  const rt = ctx.outbound;
  let content = await normaliseOutbound(input, {
    mediaRoots: ctx.config.mediaRoots,
    fs: rt.mediaFs,
    ownFiles: { stateDir: stateDir(ctx.launch.workdir), configPath: ctx.launch.configPath },
  });
  checkMediaSize(content);
  if (input.placeholder) content = wrapProgressCard(content, { mode: "send" });
  const m = await rt.planner.materialise(
    forPlanning(content),
    content.media?.upload ? { mediaKey: PROVISIONAL_KEY } : {},
  );
  return { content, bodies: m.bodies, degradations: m.degradations };
}

/** Uploads a path source's bytes (once), then delivers every chunk with its uuid. */
export async function transmit(
  ctx: ActionContext,
  args: {
    account: Account;
    prepared: Prepared;
    route: DeliveryRoute;
    idempotencyKey?: string;
  },
): Promise<DeliveryOutcome> {
  const { account, prepared } = args;
  const rt = ctx.outbound;
  let bodies = prepared.bodies;
  const upload = prepared.content.media?.upload;
  if (upload !== undefined) {
    const mediaKey = await uploadMedia(account.api, upload);
    bodies = (await rt.planner.materialise(forPlanning(prepared.content), { mediaKey })).bodies;
  }
  const uuids = chunkUuids(
    { account: account.alias, idempotencyKey: args.idempotencyKey, count: bodies.length },
    ctx.deps,
  );
  return await account.outbox.deliver({ route: args.route, bodies, uuids });
}

/** When the message was sent: Feishu's create time of its first chunk, else the clock. */
export function sentAt(ctx: ActionContext, delivered: readonly FeishuMessage[]): number {
  return delivered[0]?.createTime ?? ctx.deps.clock.now();
}

/**
 * Records the sent message (one record per logical message, every chunk id
 * indexed; a replay that completes a `partial` record replaces it). A store
 * failure does not undo a delivery: it is logged and returned as a warning.
 */
export function persistSent(
  ctx: ActionContext,
  alias: string,
  record: SentMessageRecord,
): string | undefined {
  try {
    ctx.conversation.record(alias, { kind: "sent", record });
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    ctx.deps.log.error("sent record not saved", { id: record.id, error: reason });
    return `The message was delivered but its record could not be saved (${reason}); ` +
      "read will not show it.";
  }
}

/** Adds what the chunker had to compromise on, and any other warning, to a result. */
export function withWarnings<T extends Record<string, unknown>>(
  result: T,
  degradations: readonly Degradation[],
  extra?: string,
): T {
  const warnings = degradations.map((d) => d.detail);
  if (extra !== undefined) warnings.push(extra);
  if (warnings.length > 0) (result as Record<string, unknown>).warnings = warnings;
  return result;
}
