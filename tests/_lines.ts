/**
 * `deno task lines`: the size of the product per folder, the bridge apart
 * from the emulator and its web page, printed as the Markdown table the
 * README's layout section carries.
 *
 * Product code only: every `.ts` file of `main.ts`, `lib/`, `cards/` and
 * `commands/` (plus the web page's `.css` and `.html`), without test code as
 * the architecture test tells it (`*_test.ts` files and `testdata/` folders;
 * `tests/` and `bench/` are not walked) and without the generated
 * `_app_bundle.js`. A line is what `wc -l` counts
 * (blank lines and comments included).
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));

/** One row of the table: a folder (or `main.ts`), its files and lines. */
export interface LineRow {
  folder: string;
  files: number;
  lines: number;
}

/** The rows of the bridge and of the emulator, each with its total. */
export interface LineTable {
  bridge: LineRow[];
  emulator: LineRow[];
}

/** Tells whether a repo-relative path is product code that counts. */
export function countsAsProduct(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (name.endsWith("_test.ts")) {
    return false;
  }
  if (path.includes("/testdata/")) return false;
  if (path === "main.ts") return true;
  if (!/^(lib|cards|commands)\//.test(path)) return false;
  if (path.endsWith(".ts")) return true;
  return path.startsWith("lib/emulator/web/") && /\.(css|html)$/.test(path);
}

/**
 * The row a product file is counted in: `lib/<name>/`, `cards/`,
 * `commands/`, `main.ts`; the emulator's files apart from those of each of
 * its subfolders.
 *
 * @example
 * ```ts
 * import { folderOf } from "./_lines.ts";
 * if (folderOf("lib/inbound/admission/gate.ts") !== "lib/inbound/") throw new Error();
 * if (folderOf("lib/emulator/web/render/card.ts") !== "lib/emulator/web/") throw new Error();
 * if (folderOf("lib/emulator/core.ts") !== "lib/emulator/*.ts") throw new Error();
 * ```
 */
export function folderOf(path: string): string {
  const parts = path.split("/");
  if (parts.length === 1) return path;
  if (parts[0] !== "lib") return `${parts[0]}/`;
  if (parts[1] === "emulator") {
    return parts.length > 3 ? `lib/emulator/${parts[2]}/` : "lib/emulator/*.ts";
  }
  return `lib/${parts[1]}/`;
}

async function productFiles(dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(REPO, dir))) {
    const path = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (dir || ["lib", "cards", "commands"].includes(e.name)) {
        out.push(...await productFiles(path));
      }
    } else if (e.isFile && countsAsProduct(path)) out.push(path);
  }
  return out;
}

/** Counts the product's lines per folder. */
export async function lineTable(): Promise<LineTable> {
  const rows = new Map<string, LineRow>();
  for (const path of await productFiles()) {
    const text = await Deno.readTextFile(join(REPO, path));
    const folder = folderOf(path);
    const row = rows.get(folder) ?? { folder, files: 0, lines: 0 };
    rows.set(folder, row);
    row.files++;
    row.lines += text.split("\n").length - 1;
  }
  const sorted = [...rows.values()].sort((a, b) => a.folder.localeCompare(b.folder));
  const total = (name: string, list: LineRow[]): LineRow => ({
    folder: name,
    files: list.reduce((n, r) => n + r.files, 0),
    lines: list.reduce((n, r) => n + r.lines, 0),
  });
  const bridge = sorted.filter((r) => !r.folder.startsWith("lib/emulator/"));
  const emulator = sorted.filter((r) => r.folder.startsWith("lib/emulator/"));
  return {
    bridge: [...bridge, total("**bridge**", bridge)],
    emulator: [...emulator, total("**emulator**", emulator)],
  };
}

/** The table as Markdown, the bridge first, then the emulator, each with its share of the whole. */
export function markdown(table: LineTable): string {
  const rows = [...table.bridge, ...table.emulator];
  const whole = table.bridge.at(-1)!.lines + table.emulator.at(-1)!.lines;
  const name = (r: LineRow) => r.folder.startsWith("**") ? r.folder : `\`${r.folder}\``;
  const share = (r: LineRow) => `${Math.round((100 * r.lines) / whole)} %`;
  return [
    "| folder | files | lines | share |",
    "| --- | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${name(r)} | ${r.files} | ${r.lines} | ${share(r)} |`),
  ].join("\n");
}

if (import.meta.main) {
  await Deno.stdout.write(new TextEncoder().encode(markdown(await lineTable()) + "\n"));
}
