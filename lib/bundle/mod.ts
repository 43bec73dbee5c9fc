/**
 * The single-file artifact. `entry.ts` is the bundle's entry (the command
 * line on the main thread; in a worker, that worker's module, registered in
 * `workers.ts`); `build.ts` builds it (`deno task bundle` →
 * `dist/feishu-mcp.js`) and compiles it into a binary (`deno task compile`).
 * This surface exports the build; the entry is never imported.
 * @module
 */

export { buildBundle } from "./build.ts";
