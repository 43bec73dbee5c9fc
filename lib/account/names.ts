/**
 * Sender display names: the contacts' name first, else a best-effort
 * `contact/v3` lookup cached per process (positive and negative), so a
 * missing contact permission costs one call per sender, not one per message.
 * @module
 */

import type { Logger } from "../core/mod.ts";

/** A name source. */
export interface NameResolver {
  /** Name from contacts or cache only (no I/O). */
  known(openId: string): string | null;
  /** Name from contacts, cache, or one lookup. */
  resolve(openId: string): Promise<string | null>;
}

/** Options of {@link createNameResolver}. */
export interface NameOptions {
  contactName: (openId: string) => string;
  lookup: (openId: string) => Promise<string | null>;
  log: Logger;
  /** Cache size (entries). */
  max?: number;
}

/** Builds a resolver for one account. */
export function createNameResolver(options: NameOptions): NameResolver {
  const cache = new Map<string, string | null>();
  const max = options.max ?? 2000;
  const known = (openId: string) => options.contactName(openId) || cache.get(openId) || null;
  return {
    known,
    async resolve(openId) {
      const k = known(openId);
      if (k || cache.has(openId) || !openId) return k;
      let name: string | null = null;
      try {
        name = await options.lookup(openId);
      } catch (err) {
        options.log.debug("sender name lookup failed", { error: (err as Error).message });
      }
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(openId, name);
      return name;
    },
  };
}
