/**
 * The lazily loaded modules (`lib/core/lazy.ts`), as literal imports so the
 * bundler includes them. Typed by `LazyModule`, so a module added there does
 * not type-check until it is registered here.
 * @module
 */

import type { LazyModule } from "../core/lazy.ts";

/** Loads each lazy module inside the bundle. */
export const LAZY_LOADERS: Readonly<Record<LazyModule, () => Promise<unknown>>> = {
  service: () => import("../service/mod.ts"),
  start: () => import("../service/start.ts"),
  sandbox: () => import("../sandbox/mod.ts"),
  canary: () => import("../canary/mod.ts"),
  doctor: () => import("../doctor/mod.ts"),
  setup: () => import("../setup/mod.ts"),
};
