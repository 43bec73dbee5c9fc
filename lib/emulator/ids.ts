/**
 * Deterministic ids for the emulator: one counter per prefix, so two runs of
 * the same script produce the same `om_…`, `oc_…`, `t-…` values. A namespace
 * (the sandbox gives each run its own) goes between prefix and number, so
 * ids of one run never repeat those of an earlier run of a kept world.
 * @module
 */

/**
 * Hands out ids of the form `<prefix><n>` with `n` zero-padded to four
 * digits, counting separately per prefix.
 *
 * @example
 * ```ts
 * import { IdGen } from "./ids.ts";
 * const ids = new IdGen();
 * const a = ids.next("om_emu_");
 * const b = ids.next("om_emu_");
 * const c = ids.next("oc_emu_");
 * if ([a, b, c].join() !== "om_emu_0001,om_emu_0002,oc_emu_0001") throw new Error([a, b, c].join());
 * const run = new IdGen({ namespace: "r7_" });
 * if (run.next("om_emu_") !== "om_emu_r7_0001") throw new Error();
 * ```
 */
export class IdGen {
  #counters = new Map<string, number>();
  readonly #namespace: string;

  /** `namespace` (default none) is put between every prefix and its number. */
  constructor(options: { namespace?: string } = {}) {
    this.#namespace = options.namespace ?? "";
  }

  /** The next id for `prefix`. */
  next(prefix: string): string {
    return `${prefix}${this.#namespace}${String(this.count(prefix)).padStart(4, "0")}`;
  }

  /** The next bare number for `prefix` (1, 2, …). */
  count(prefix: string): number {
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    return n;
  }
}

/** Prefixes the emulator uses, in one place. */
export const ID_PREFIX = {
  message: "om_emu_",
  thread: "omt_emu_",
  chat: "oc_emu_",
  user: "ou_emu_",
  union: "on_emu_",
  image: "img_v3_emu_",
  file: "file_v3_emu_",
  reaction: "rc_emu_",
  event: "ev_emu_",
  token: "t-emu_",
  frame: "fm_emu_",
  trace: "tr_emu_",
  log: "log_emu_",
  ticket: "tk_emu_",
  device: "",
  cardToken: "c-emu_",
} as const;
