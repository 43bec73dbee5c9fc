/**
 * The categories Feishu API calls are counted in, shared by the counting
 * point (`lib/feishu/`), the store, the quota meter and `doctor`, so every
 * one of them spells the same closed set.
 * @module
 */

/**
 * Every category, in display order: plain message sends, card writes
 * (interactive sends, card patches, delayed card updates), message edits and
 * recalls, reactions, resource downloads, media uploads, and probes
 * (tokens, the long connection's endpoint, lookups, history).
 */
export const API_CATEGORIES = [
  "send",
  "card",
  "edit",
  "reaction",
  "download",
  "upload",
  "probe",
] as const;

/** One of {@link API_CATEGORIES}. */
export type ApiCategory = typeof API_CATEGORIES[number];

/** Told of every Feishu call as it is made; must be fast and must not throw. */
export type ApiCallCounter = (category: ApiCategory) => void;
