/**
 * Chunk `uuid`s: Feishu sends at most one message
 * per `uuid` within an hour, so a chunk's `uuid` derived from (account,
 * idempotency_key, chunk index) makes a replayed send skip what was already
 * delivered. Without a key every chunk gets a fresh random id.
 * @module
 */

import { createHash } from "node:crypto";
import { BridgeError, codePointLength } from "../core/mod.ts";

/** Longest accepted `idempotency_key`, in code points. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/** Where the derivation starts; changing it changes every derived id. */
const DOMAIN = "feishu-mcp/chunk-uuid/v1";

/**
 * Checks an `idempotency_key` input: absent/null, or a non-empty string of at
 * most {@link MAX_IDEMPOTENCY_KEY_LENGTH} code points.
 *
 * @example
 * ```ts
 * import { checkIdempotencyKey } from "./idempotency.ts";
 * if (checkIdempotencyKey("job-42") !== "job-42" || checkIdempotencyKey(null) !== undefined) throw new Error();
 * ```
 */
export function checkIdempotencyKey(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== "string" || value === "" ||
    codePointLength(value) > MAX_IDEMPOTENCY_KEY_LENGTH
  ) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Expected idempotency_key to be a non-empty string of at most ${MAX_IDEMPOTENCY_KEY_LENGTH} ` +
        `characters but found ${JSON.stringify(value)?.slice(0, 80)}`,
    );
  }
  return value;
}

/**
 * The `uuid` of one chunk: SHA-256 of the inputs, shaped as an RFC 9562
 * version-8 UUID (36 characters, within Feishu's 50).
 *
 * @example Deterministic, and different per chunk
 * ```ts
 * import { chunkUuid } from "./idempotency.ts";
 * const a = chunkUuid({ account: "main", idempotencyKey: "k", index: 0 });
 * if (a !== chunkUuid({ account: "main", idempotencyKey: "k", index: 0 })) throw new Error();
 * if (a === chunkUuid({ account: "main", idempotencyKey: "k", index: 1 })) throw new Error();
 * if (!/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(a)) throw new Error();
 * ```
 */
export function chunkUuid(
  spec: { account: string; idempotencyKey: string; index: number },
): string {
  if (!Number.isInteger(spec.index) || spec.index < 0) {
    throw new RangeError(`Expected index to be an integer of at least 0 but found ${spec.index}`);
  }
  const digest = createHash("sha256")
    .update(JSON.stringify([DOMAIN, spec.account, spec.idempotencyKey, spec.index]))
    .digest();
  const b = digest.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}

/**
 * The `uuid`s of a message's chunks (index 0 first): derived when a key is
 * given, else one fresh id per chunk from `ids.newId`.
 *
 * @example
 * ```ts
 * import { chunkUuids } from "./idempotency.ts";
 * let n = 0;
 * const random = chunkUuids({ account: "main", count: 2 }, { newId: () => `id-${n++}` });
 * if (random.join() !== "id-0,id-1") throw new Error();
 * ```
 */
export function chunkUuids(
  spec: { account: string; idempotencyKey?: string | null; count: number },
  ids: { newId(): string },
): string[] {
  const key = spec.idempotencyKey;
  return Array.from(
    { length: spec.count },
    (_, index) =>
      key === undefined || key === null
        ? ids.newId()
        : chunkUuid({ account: spec.account, idempotencyKey: key, index }),
  );
}
