/**
 * Mentions: the table built from `event.message.mentions`, and the one pass
 * that turns placeholders (`@_user_1`, `@_all`) into `@Name`, optionally
 * dropping this bot's own mention. Only `mentions` makes entries: an inline
 * `<at>` or a key it does not carry reads as a name (or `@user`), so no entry
 * ever names someone the event did not.
 * @module
 */

import { isMentionAll, type RawMention } from "./envelope.ts";
import type { Mention } from "../../store/mod.ts";

/** Input of {@link MentionTable}. */
export interface MentionTableOptions {
  /** This bot's open_id; null when the identity is not known yet. */
  botOpenId?: string | null;
}

/** What an unresolvable mention reads as when it has no visible name. */
const UNKNOWN_USER = "@user";
/** The shape of Feishu's mention keys in message text. */
const KEY_SHAPE = "@_user_\\d+";

/**
 * The mentions of one message, in order, keyed by placeholder.
 *
 * @example
 * ```ts
 * import { MentionTable } from "./mentions.ts";
 * import assert from "node:assert/strict";
 * const t = new MentionTable(
 *   [{ key: "@_user_1", openId: "ou_bot", name: "Bot" }, { key: "@_user_2", openId: "ou_a", name: "Ann" }],
 *   { botOpenId: "ou_bot" },
 * );
 * assert.equal(t.resolve("@_user_1 hi @_user_2", { stripBot: true }), "hi @Ann");
 * assert.equal(t.resolve("@_user_1 hi", { stripBot: false }), "@Bot hi");
 * assert.equal(t.resolve("@_user_3 hi", { stripBot: true }), "@user hi");
 * assert.equal(t.placeholder("ou_z", "Zoe"), "@Zoe");
 * assert.equal(t.list().length, 2);
 * ```
 */
export class MentionTable {
  readonly #botOpenId: string | null;
  readonly #byKey = new Map<string, Mention>();

  constructor(raw: readonly RawMention[], options: MentionTableOptions = {}) {
    this.#botOpenId = options.botOpenId || null;
    for (const m of raw) {
      if (isMentionAll(m) || this.#byKey.has(m.key)) continue;
      this.#byKey.set(m.key, this.#mention(m.key, m));
    }
  }

  /** The resolved list, in the event's order. */
  list(): Mention[] {
    return [...this.#byKey.values()].map((m) => ({ ...m }));
  }

  /**
   * The placeholder for an inline `<at user_id="id">name</at>`: `@_all` for
   * everyone, the key of the mention it names (the id may itself be a key, an
   * open_id or a user_id), else the visible `@name` — `@user` without a
   * usable name.
   */
  placeholder(id: string, name?: string): string {
    if (id === "all" || id === "all_members" || id === "@_all") return "@_all";
    if (this.#byKey.has(id)) return id;
    for (const m of this.#byKey.values()) {
      if (m.open_id === id || m.user_id === id) return m.key;
    }
    const shown = name?.trim().replace(/^@/, "");
    // A name shaped like a key would be read as one by resolve().
    return shown && !shown.startsWith("_") ? `@${shown}` : UNKNOWN_USER;
  }

  /**
   * Replaces every placeholder in `text`: `@_all` → `@all`, a known key →
   * `@Name` (unchanged when the name is unknown), a key-shaped `@_user_N`
   * the table lacks → `@user`. With `stripBot`, this bot's mention is removed
   * together with the space that separated it.
   */
  resolve(text: string, options: { stripBot: boolean }): string {
    const keys = [...this.#byKey.keys(), "@_all"].sort((a, b) => b.length - a.length);
    // Known keys first: the alternation tries them before the generic key shape.
    const pattern = new RegExp(
      `([ \\t]*)(${keys.map(escapeRegex).join("|")}|${KEY_SHAPE})(?![A-Za-z0-9_])([ \\t]*)`,
      "g",
    );
    return text.replace(pattern, (_all, before: string, key: string, after: string) => {
      if (key === "@_all") return `${before}@all${after}`;
      const m = this.#byKey.get(key);
      if (!m) return `${before}${UNKNOWN_USER}${after}`;
      if (options.stripBot && m.is_bot) return before && after ? " " : "";
      return `${before}${m.name ? `@${m.name}` : key}${after}`;
    });
  }

  #mention(key: string, m: Omit<RawMention, "key">): Mention {
    return {
      key,
      ...(m.openId ? { open_id: m.openId } : {}),
      ...(m.userId ? { user_id: m.userId } : {}),
      ...(m.unionId ? { union_id: m.unionId } : {}),
      ...(m.name ? { name: m.name } : {}),
      is_bot: this.#botOpenId !== null && m.openId === this.#botOpenId,
      ...(m.tenantKey ? { tenant_key: m.tenantKey } : {}),
    };
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
