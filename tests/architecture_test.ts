/**
 * Boundaries of the code base, checked on the real module graph of the
 * product entry point and on the source of every module:
 * - only `lib/feishu/` imports the node-sdk, only `lib/mcp/` the MCP SDK, so
 *   the rest of the product sees only our own narrow interfaces;
 * - `lib/emulator/` (every module in it: the emulator, its web page and its
 *   build, its tests and their helpers) imports nothing from the rest of the
 *   project, so it cannot share the product's bugs;
 * - the capability folders (`lib/<name>/`, `cards/`, `commands/`, `main.ts`)
 *   import each other without cycles, and no file imports itself back through
 *   other files (code or type imports);
 * - every `mod.ts` under `lib/` lists its exports by name, and each of them is
 *   used by some file outside that `mod.ts`'s folder;
 * - no product module is longer than 400 lines.
 */

import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { REPO } from "./_server.ts";

interface GraphModule {
  specifier: string;
  error?: string;
  dependencies?: {
    specifier: string;
    code?: { specifier?: string };
    type?: { specifier?: string };
  }[];
}

async function graph(entry: string): Promise<GraphModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(REPO, entry)],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const mods = JSON.parse(new TextDecoder().decode(out.stdout)).modules as GraphModule[];
  const broken = mods.filter((m) => m.error && m.specifier.startsWith("file:"));
  assert.deepEqual(broken.map((m) => m.error), [], `the module graph of ${entry} is broken`);
  return mods;
}

function edges(mods: GraphModule[]): [string, string][] {
  const prefix = `file://${REPO}/`;
  const list: [string, string][] = [];
  for (const m of mods) {
    if (!m.specifier.startsWith(prefix)) continue;
    const from = m.specifier.slice(prefix.length);
    for (const d of m.dependencies ?? []) {
      for (const to of [d.code?.specifier, d.type?.specifier]) {
        if (to) list.push([from, to.startsWith(prefix) ? to.slice(prefix.length) : to]);
      }
    }
  }
  return list;
}

const ENTRIES = [
  "main.ts",
  "lib/bundle/entry.ts",
  "lib/service/serve.ts",
  "lib/service/start.ts",
  "lib/sandbox/mod.ts",
];

/** Any package of the MCP SDK (v2 server, client and core, or the v1 monolith). */
const MCP_SDK = /@modelcontextprotocol\/(server|client|core|sdk)\b/;

Deno.test("only lib/feishu/ imports the node-sdk and only lib/mcp/ imports the MCP SDK", async () => {
  for (const entry of ENTRIES) {
    for (const [from, to] of edges(await graph(entry))) {
      if (to.includes("@larksuiteoapi/node-sdk")) {
        assert.ok(from.startsWith("lib/feishu/"), `${from} imports the node-sdk`);
      }
      if (MCP_SDK.test(to)) {
        assert.ok(from.startsWith("lib/mcp/"), `${from} imports the MCP SDK`);
      }
    }
  }
});

Deno.test("lib/emulator/ imports nothing from the rest of the product", async () => {
  // Every module under lib/emulator/, not only what mod.ts reaches: the web
  // page's client and its build, the test harnesses, the tests themselves.
  const all = (await sourceFiles()).filter((f) => f.startsWith("lib/emulator/"));
  assert.ok(all.length > 80, "found suspiciously few emulator modules");
  const prefix = `file://${REPO}/`;
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const entry of ["lib/emulator/mod.ts", ...all]) {
    if (seen.has(entry)) continue;
    const mods = await graph(entry);
    for (const m of mods) {
      if (m.specifier.startsWith(prefix)) seen.add(m.specifier.slice(prefix.length));
    }
    for (const [from, to] of edges(mods)) {
      if (!from.startsWith("lib/emulator/")) continue;
      if (to.startsWith("npm:") || to.startsWith("node:") || to.startsWith("data:")) continue;
      if (!to.startsWith("lib/emulator/")) problems.push(`${from} imports ${to}`);
    }
  }
  assert.deepEqual(all.filter((f) => !seen.has(f)), [], "emulator modules left unchecked");
  if (problems.length) assert.fail(`\n${[...new Set(problems)].sort().join("\n")}`);
});

Deno.test("the product graph really contains both SDKs (the boundary test is not vacuous)", async () => {
  const all = edges(await graph("lib/service/start.ts")).map(([, to]) => to);
  assert.ok(all.some((t) => t.includes("@larksuiteoapi/node-sdk")));
  assert.ok(all.some((t) => MCP_SDK.test(t)));
});

// ---------------------------------------------------------------------------
// Source files of the repository

/**
 * Test code, by the one rule: a unit test is `*_test.ts` beside the code, every
 * helper or fixture only tests use lives in a `testdata/` folder of its
 * capability folder, end-to-end tests live in `tests/` and benchmarks in `bench/`.
 */
function isTestFile(path: string): boolean {
  return path.endsWith("_test.ts") || path.split("/").includes("testdata") ||
    path.startsWith("tests/") || path.startsWith("bench/");
}

/** Every `.ts` file of the repository (repo-relative), test code included. */
async function sourceFiles(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    for await (const e of Deno.readDir(join(REPO, dir))) {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory) {
        if (!dir && !["lib", "cards", "commands", "tests", "bench"].includes(e.name)) continue;
        await walk(path);
      } else if (e.isFile && e.name.endsWith(".ts")) {
        if (dir || e.name === "main.ts") out.push(path);
      }
    }
  }
  await walk("");
  return out.sort();
}

function isProductFile(path: string): boolean {
  return !isTestFile(path) &&
    (path === "main.ts" || /^(lib|cards|commands)\//.test(path));
}

// ---------------------------------------------------------------------------
// No import cycle between folders

/** The capability folder a product module belongs to, or null for non-product code. */
function folderOf(path: string): string | null {
  if (!isProductFile(path)) return null;
  if (path === "main.ts") return "main.ts";
  const parts = path.split("/");
  if (parts[0] === "lib") return parts.length > 2 ? `lib/${parts[1]}` : path;
  return parts[0]!;
}

/** Modules of the repository a walk reached, and the file edges it saw. */
interface RepoGraph {
  /** Repo-relative paths of the repository's modules in the graph. */
  modules: Set<string>;
  /** File edges, code and type imports; `to` is repo-relative or a full specifier. */
  edges: [string, string][];
}

/** The real module graph of `entries`, plus anything `more` adds once those were read. */
async function walk(
  entries: readonly string[],
  more?: (seen: Set<string>) => Promise<string[]>,
): Promise<RepoGraph> {
  const prefix = `file://${REPO}/`;
  const modules = new Set<string>();
  const fileEdges: [string, string][] = [];
  const visit = async (entry: string) => {
    const mods = await graph(entry);
    for (const m of mods) {
      if (m.specifier.startsWith(prefix)) modules.add(m.specifier.slice(prefix.length));
    }
    fileEdges.push(...edges(mods));
  };
  for (const entry of entries) await visit(entry);
  for (const entry of (await more?.(modules)) ?? []) if (!modules.has(entry)) await visit(entry);
  return { modules, edges: fileEdges };
}

let repoGraphOnce: Promise<RepoGraph> | undefined;

/**
 * The real module graph of the entry points, `lib/emulator/mod.ts` and every
 * product module they do not reach (computed once per run).
 */
function repoGraph(): Promise<RepoGraph> {
  // Workers are started from a URL the graph does not follow: take every
  // product module the entry points did not reach as an entry of its own.
  repoGraphOnce ??= walk(
    [...ENTRIES, "lib/emulator/mod.ts"],
    async () => (await sourceFiles()).filter(isProductFile),
  );
  return repoGraphOnce;
}

/** Folder edges of the real module graph, each with one file edge that causes it. */
async function folderGraph(): Promise<Map<string, Map<string, string>>> {
  const folders = new Map<string, Map<string, string>>();
  for (const [from, to] of (await repoGraph()).edges) {
    const a = folderOf(from), b = folderOf(to);
    if (!a || !b || a === b) continue;
    const out = folders.get(a) ?? new Map<string, string>();
    folders.set(a, out);
    if (!out.has(b)) out.set(b, `${from} imports ${to}`);
  }
  return folders;
}

/** One shortest cycle through each group of mutually dependent folders. */
function folderCycles(g: Map<string, Map<string, string>>): string[][] {
  const nodes = [...new Set([...g.keys(), ...[...g.values()].flatMap((m) => [...m.keys()])])]
    .sort();
  const reach = (from: string): Map<string, string | null> => {
    const prev = new Map<string, string | null>([[from, null]]);
    const queue = [from];
    while (queue.length) {
      const n = queue.shift()!;
      for (const next of [...(g.get(n)?.keys() ?? [])].sort()) {
        if (!prev.has(next)) {
          prev.set(next, n);
          queue.push(next);
        }
      }
    }
    return prev;
  };
  const cycles: string[][] = [];
  const covered = new Set<string>();
  for (const start of nodes) {
    if (covered.has(start)) continue;
    // The shortest path start -> ... -> p with an edge p -> start closes a cycle.
    const prev = reach(start);
    let best: string[] | null = null;
    for (const [n] of prev) {
      if (!g.get(n)?.has(start)) continue;
      const path = [start];
      for (let at: string | null = n; at && at !== start; at = prev.get(at) ?? null) {
        path.splice(1, 0, at);
      }
      if (!best || path.length < best.length) best = path;
    }
    if (!best) continue;
    for (const n of best) covered.add(n);
    cycles.push([...best, start]);
  }
  return cycles;
}

Deno.test("the product's folders import each other without cycles", async () => {
  const g = await folderGraph();
  assert.ok(g.size > 5, "the folder graph is suspiciously small");
  const problems = folderCycles(g).map((cycle) => {
    const why = cycle.slice(1).map((to, i) => `  ${g.get(cycle[i]!)!.get(to)!}`);
    return `import cycle between folders: ${cycle.join(" -> ")}\n${why.join("\n")}\n` +
      `  break it: move what one of these importers needs into its own folder (or into a ` +
      `folder both sides already import), then drop that import`;
  });
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

// ---------------------------------------------------------------------------
// No import cycle between files

/** The groups of files that import each other in a ring (Tarjan's strongly connected components). */
function fileCycleGroups(g: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || g.get(v)?.has(v)) groups.push(group.sort());
  };
  for (const v of [...g.keys()].sort()) if (!index.has(v)) connect(v);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest ring from `start` back to it through the files of `group`. */
function shortestRing(g: Map<string, Set<string>>, group: Set<string>, start: string): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const n = queue.shift()!;
    for (const next of [...(g.get(n) ?? [])].filter((x) => group.has(x)).sort()) {
      if (next === start) {
        const ring = [start];
        for (let at = n; at !== start; at = prev.get(at)!) ring.splice(1, 0, at);
        return [...ring, start];
      }
      if (!prev.has(next)) {
        prev.set(next, n);
        queue.push(next);
      }
    }
  }
  return [start];
}

Deno.test("no module imports itself back through other files (code or type imports)", async () => {
  const { modules, edges: all } = await repoGraph();
  const g = new Map<string, Set<string>>();
  for (const [from, to] of all) {
    if (!modules.has(to)) continue;
    const out = g.get(from) ?? new Set<string>();
    g.set(from, out);
    out.add(to);
  }
  assert.ok(modules.size > 300 && g.size > 200, "the file graph is suspiciously small");
  const problems = fileCycleGroups(g).map((group) => {
    const members = new Set(group);
    const ring = shortestRing(g, members, group[0]!);
    const inside = group.flatMap((a) =>
      [...g.get(a)!].filter((b) => members.has(b)).sort().map((b) => `    ${a} -> ${b}`)
    );
    return `import cycle among ${group.length} files: ${ring.join(" -> ")}\n` +
      `  every import inside the group:\n${inside.join("\n")}\n` +
      `  break it: move what both sides need (often a type) into a module that imports none ` +
      `of them, and import it from there`;
  });
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

// ---------------------------------------------------------------------------
// mod.ts: explicit exports, each used outside its folder

/** The source with comments blanked out (strings stay as they are). */
function stripComments(src: string): string {
  let out = "";
  let i = 0;
  while (i < src.length) {
    const c = src[i]!, d = src[i + 1];
    if (c === "/" && d === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === "/" && d === "/") {
      const end = src.indexOf("\n", i);
      i = end < 0 ? src.length : end;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === "\\" ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `a, type b, c as d` -> [[a, a], [b, b], [c, d]] (name in the source module, local name). */
function specifiers(list: string): [string, string][] {
  return list.split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
    const [name, alias] = s.replace(/^type\s+/, "").split(/\s+as\s+/).map((x) => x.trim());
    return [name!, alias ?? name!];
  });
}

/** Names taken from a destructuring pattern `{ a, b: c, ...rest }`. */
function destructured(pattern: string): string[] {
  return pattern.split(",").map((s) => s.trim()).filter((s) => s && !s.startsWith("..."))
    .map((s) => s.split(":")[0]!.split("=")[0]!.trim());
}

interface ModuleUse {
  /** Repo-relative path of the module imported. */
  target: string;
  /** Names it takes from that module, or null when it cannot be told. */
  names: string[] | null;
  statement: string;
}

/** The names a file takes from each local module it imports, re-exports or loads. */
function uses(file: string, src: string): ModuleUse[] {
  const code = stripComments(src);
  const resolve = (spec: string) => normalize(join(dirname(file), spec));
  const local = (spec: string) => spec.startsWith("./") || spec.startsWith("../");
  const found: ModuleUse[] = [];
  const statement =
    /\b(import|export)\s+(?:type\s+)?([\w$]+\s*,\s*)?(\{[^}]*\}|\*\s*as\s+[\w$]+|\*|[\w$]+)\s*from\s*["']([^"']+)["']/g;
  for (const m of code.matchAll(statement)) {
    const [whole, , , what, spec] = m;
    if (!local(spec!)) continue;
    let names: string[] | null;
    if (what!.startsWith("{")) {
      names = specifiers(what!.slice(1, -1)).map(([name]) => name);
    } else if (what!.startsWith("*")) {
      const ns = what!.match(/as\s+([\w$]+)/)?.[1];
      names = ns && m[1] === "import"
        ? [...code.matchAll(new RegExp(`\\b${ns}\\.([\\w$]+)`, "g"))].map((u) => u[1]!)
        : null;
    } else {
      names = ["default"];
    }
    found.push({ target: resolve(spec!), names, statement: whole!.replace(/\s+/g, " ") });
  }
  // Dynamic imports: `const { a } = await import("…")`, `(await import("…")).a`,
  // `import("…").then((m) => m.a)`, `const [{ a }, { b }] = await Promise.all([import("…"), …])`
  // and the type-level `import("…").A`.
  const handled = new Set<number>();
  const all = /const\s*\[([^\]]*)\]\s*=\s*await\s+Promise\.all\(\s*\[([^\]]*)\]\s*\)/dg;
  for (const m of code.matchAll(all)) {
    const patterns = [...m[1]!.matchAll(/\{([^}]*)\}|[\w$]+/g)];
    const loads = [...m[2]!.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)];
    loads.forEach((load, i) => {
      handled.add(m.indices![2]![0] + load.index!);
      if (!local(load[1]!)) return;
      const p = patterns[i]?.[1];
      found.push({
        target: resolve(load[1]!),
        names: p === undefined ? null : destructured(p),
        statement: m[0].replace(/\s+/g, " "),
      });
    });
  }
  for (const m of code.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) {
    if (handled.has(m.index!) || !local(m[1]!)) continue;
    const before = code.slice(Math.max(0, m.index! - 200), m.index!);
    const after = code.slice(m.index! + m[0].length, m.index! + m[0].length + 200);
    let names: string[] | null = null;
    // `loadLazy<typeof import("…")>(…)` (lib/core/lazy.ts) loads the module it names.
    const destructure = before.match(/\{([^{}]*)\}\s*=\s*(?:await\s*)?(?:loadLazy<typeof\s*)?$/);
    const member = after.match(/^\s*\)?\s*\.([\w$]+)/);
    const then = after.match(/^\s*\.then\(\s*\(?\s*([\w$]+)\s*\)?\s*=>/);
    if (destructure) names = destructured(destructure[1]!);
    else if (then) {
      const arg = then[1]!;
      names = [...after.matchAll(new RegExp(`\\b${arg}\\.([\\w$]+)`, "g"))].map((u) => u[1]!);
    } else if (member && member[1] !== "then") names = [member[1]!];
    // The bundle's loaders of the lazy modules take them whole; their users name what they take.
    else if (file === "lib/bundle/lazy_modules.ts") names = [];
    found.push({ target: resolve(m[1]!), names, statement: m[0] });
  }
  return found;
}

interface ModExports {
  names: string[];
  /** `export *` statements, each a violation. */
  stars: string[];
}

/** The names a module exports, from its re-export lists and its own declarations. */
function exportsOf(src: string): ModExports {
  const code = stripComments(src);
  const names: string[] = [];
  const stars: string[] = [];
  for (const m of code.matchAll(/\bexport\s+(?:type\s+)?\*[^;\n]*/g)) stars.push(m[0].trim());
  for (const m of code.matchAll(/\bexport\s+(?:type\s+)?\{([^}]*)\}/g)) {
    names.push(...specifiers(m[1]!).map(([, alias]) => alias));
  }
  const declaration =
    /\bexport\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|interface|type|enum|const\s+enum|const|let|var)\s+([\w$]+)/g;
  for (const m of code.matchAll(declaration)) names.push(m[1]!);
  if (/\bexport\s+default\b/.test(code)) names.push("default");
  return { names: [...new Set(names)].sort(), stars };
}

Deno.test("every mod.ts lists its exports by name, and each is used outside its folder", async () => {
  const files = await sourceFiles();
  const text = new Map<string, string>();
  for (const f of files) text.set(f, await Deno.readTextFile(join(REPO, f)));
  const allUses = files.flatMap((f) => uses(f, text.get(f)!).map((u) => ({ ...u, file: f })));
  const problems: string[] = [];
  const mods = files.filter((f) => f.endsWith("/mod.ts") && !isTestFile(f));
  assert.ok(mods.length > 10, "found suspiciously few mod.ts files");
  for (const mod of mods) {
    const { names, stars } = exportsOf(text.get(mod)!);
    for (const s of stars) {
      problems.push(`${mod}: replace \`${s}\` by an explicit list of the names used outside`);
    }
    if (!mod.startsWith("lib/")) continue;
    const folder = dirname(mod) + "/";
    const used = new Set<string>();
    let unreadable = false;
    for (const u of allUses) {
      if (u.target !== mod || u.file.startsWith(folder)) continue;
      if (u.names === null) {
        unreadable = true;
        problems.push(
          `${u.file}: \`${u.statement}\` takes names from ${mod} in a way this test cannot ` +
            `read; import the names explicitly or destructure them off the awaited module`,
        );
      } else for (const n of u.names) used.add(n);
    }
    for (const n of names) {
      if (used.has(n) || unreadable) continue;
      problems.push(
        `${mod}: \`${n}\` is exported but nothing outside ${folder} imports it from this ` +
          `mod.ts; drop it from the exports (and delete it if nothing uses it at all)`,
      );
    }
  }
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

// ---------------------------------------------------------------------------
// Actions send through one entry

/** Outbound modules that deliver: the actions reach them only through `send.ts`. */
const DELIVERY_MODULES = [
  "deliver.ts",
  "duplicate_guard.ts",
  "idempotency.ts",
  "materialise.ts",
  "outbox.ts",
  "progress.ts",
  "results.ts",
  "send_card.ts",
  "upload.ts",
  "wire.ts",
].map((f) => `lib/outbound/${f}`);

/** Each name `mod` re-exports, with the module it comes from. */
function reexportSources(mod: string, src: string): Map<string, string> {
  const out = new Map<string, string>();
  const statement = /\bexport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
  for (const m of stripComments(src).matchAll(statement)) {
    const from = normalize(join(dirname(mod), m[2]!));
    for (const [, alias] of specifiers(m[1]!)) out.set(alias, from);
  }
  return out;
}

Deno.test("lib/actions/ reaches sending only through the outbound folder's send entry", async () => {
  const mod = "lib/outbound/mod.ts";
  const sources = reexportSources(mod, await Deno.readTextFile(join(REPO, mod)));
  assert.equal(sources.get("sendMessage"), "lib/outbound/send.ts", "the send entry moved");
  const problems: string[] = [];
  const actions = (await sourceFiles()).filter((f) =>
    f.startsWith("lib/actions/") && isProductFile(f)
  );
  let sends = 0;
  for (const file of actions) {
    for (const u of uses(file, await Deno.readTextFile(join(REPO, file)))) {
      if (!u.target.startsWith("lib/outbound/")) continue;
      if (u.target !== mod) {
        problems.push(`${file}: \`${u.statement}\` reaches into lib/outbound/; import its mod.ts`);
        continue;
      }
      for (const name of u.names ?? []) {
        if (name === "sendMessage") sends++;
        const from = sources.get(name);
        if (from && DELIVERY_MODULES.includes(from)) {
          problems.push(
            `${file}: \`${name}\` comes from ${from}, a step of delivery; send through sendMessage`,
          );
        }
      }
    }
  }
  assert.ok(sends >= 2, "send and reply no longer use the send entry");
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

// ---------------------------------------------------------------------------
// Module size

const MAX_LINES = 400;

Deno.test(`no product module is longer than ${MAX_LINES} lines`, async () => {
  const problems: string[] = [];
  const product = (await sourceFiles()).filter(isProductFile);
  assert.ok(product.length > 100, "found suspiciously few product modules");
  for (const f of product) {
    const lines = (await Deno.readTextFile(join(REPO, f))).replace(/\n$/, "").split("\n").length;
    if (lines > MAX_LINES) {
      problems.push(
        `${f} has ${lines} lines (at most ${MAX_LINES}): split it into smaller modules`,
      );
    }
  }
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

// ---------------------------------------------------------------------------
// Test code: `*_test.ts` beside the code, helpers and fixtures under `testdata/`

/** A file name that says "test code" in a spelling other than the rule's. */
const OTHER_TEST_SPELLING = /^_test|_(fixtures|testing|harness)\.ts$/;

Deno.test("test code in lib/, cards/ and commands/ is `*_test.ts` or lives under testdata/", async () => {
  const problems: string[] = [];
  for (const f of await sourceFiles()) {
    if (!/^(lib|cards|commands)\//.test(f) || f.split("/").includes("testdata")) continue;
    if (!OTHER_TEST_SPELLING.test(f.slice(f.lastIndexOf("/") + 1))) continue;
    problems.push(
      `${f}: a test is \`*_test.ts\` beside the code, and a helper or fixture of tests lives ` +
        `in a testdata/ folder: move it to ${dirname(f)}/testdata/ under a name that says ` +
        `what it is`,
    );
  }
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

/**
 * What runs the product: the command line (`main.ts`); the bundle's entry,
 * which loads every worker module through the dynamic imports of
 * `lib/bundle/workers.ts` (`deno info` follows them); the scripts of
 * `deno task bundle`, `compile` and `web:build`; and the emulator page's
 * script, which `lib/emulator/web/build.ts` bundles for the browser.
 */
const PRODUCT_ENTRIES = [
  "main.ts",
  "lib/bundle/entry.ts",
  "lib/bundle/build.ts",
  "lib/emulator/web/build.ts",
  "lib/emulator/web/client/main.ts",
];

let productGraphOnce: Promise<RepoGraph> | undefined;

/** The module graph of {@link PRODUCT_ENTRIES}, read once per run. */
function productGraph(): Promise<RepoGraph> {
  productGraphOnce ??= walk(PRODUCT_ENTRIES);
  return productGraphOnce;
}

Deno.test("every product module is reached from the product's entry points", async () => {
  const { modules: reached } = await productGraph();
  // Not vacuous: the workers are reached only through workers.ts's dynamic imports.
  const workers = [
    ...(await Deno.readTextFile(join(REPO, "lib/bundle/workers.ts")))
      .matchAll(/import\(\s*"([^"]+)"\s*\)/g),
  ].map((m) => normalize(join("lib/bundle", m[1]!)));
  assert.ok(workers.length >= 3, "found suspiciously few worker modules in lib/bundle/workers.ts");
  for (const w of workers) assert.ok(reached.has(w), `the product graph misses the worker ${w}`);
  const problems = (await sourceFiles()).filter(isProductFile).filter((f) => !reached.has(f))
    .map((f) =>
      `${f}: no product entry point (${PRODUCT_ENTRIES.join(", ")}) reaches it, so only ` +
      `tests use it: move it into a testdata/ folder if it is a test helper or fixture, ` +
      `else delete it`
    );
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});

Deno.test("no product module imports a test or anything under testdata/", async () => {
  const found = new Set<string>();
  const ours = (path: string) => !/^[a-z]+:/.test(path);
  for (const [from, to] of (await productGraph()).edges) {
    if (ours(from) && ours(to) && isProductFile(from) && isTestFile(to)) {
      found.add(`${from} imports ${to}`);
    }
  }
  // Modules no entry reaches, and workers or children started from a URL.
  const url = /new\s+URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url/g;
  for (const f of (await sourceFiles()).filter(isProductFile)) {
    const src = await Deno.readTextFile(join(REPO, f));
    const targets = uses(f, src).map((u) => u.target);
    for (const m of stripComments(src).matchAll(url)) {
      targets.push(normalize(join(dirname(f), m[1]!)));
    }
    for (const t of targets) if (isTestFile(t)) found.add(`${f} imports ${t}`);
  }
  const problems = [...found].sort().map((p) =>
    `${p}: product code must not depend on test code; move what it needs into product code`
  );
  if (problems.length) assert.fail(`\n${problems.join("\n")}`);
});
