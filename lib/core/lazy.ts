/**
 * Modules loaded only when a command needs them, the same from source and
 * from the single-file bundle.
 *
 * From source they load by a computed URL. Deno prepares the whole module
 * graph behind every literal `import("…")` when the importing module loads,
 * even a branch never taken: the service's graph (node-sdk, store, cards)
 * behind `serve`, and the sandbox, canary and doctor behind the command line,
 * cost about 100 ms each before `initialize` could be answered, once in the
 * launcher and again in the confined server.
 *
 * The bundle has no such files: its entry registers literal loaders
 * (`lib/bundle/lazy_modules.ts`), so the bundler includes those modules.
 * @module
 */

/** Every module loaded this way. */
export const LAZY_MODULES = ["service", "start", "sandbox", "canary", "doctor", "setup"] as const;

/** One of {@link LAZY_MODULES}. */
export type LazyModule = typeof LAZY_MODULES[number];

/** The bundle's loaders; null from source. */
let bundled: Readonly<Record<LazyModule, () => Promise<unknown>>> | null = null;

/** Called once by the bundle entry, before anything loads a lazy module. */
export function useBundledModules(loaders: Readonly<Record<LazyModule, () => Promise<unknown>>>) {
  bundled = loaders;
}

/**
 * Loads `name`: the bundle's registered module, else the module at `source`
 * (a URL relative to the caller, so the type argument and the path agree).
 *
 * @example From source, the module at the URL
 * ```ts
 * import { loadLazy } from "./lazy.ts";
 * const m = await loadLazy<typeof import("./yield.ts")>("start", new URL("./yield.ts", import.meta.url));
 * if (typeof m.yieldToIO !== "function") throw new Error();
 * ```
 */
export function loadLazy<T>(name: LazyModule, source: URL): Promise<T> {
  return (bundled ? bundled[name]() : import(source.href)) as Promise<T>;
}
