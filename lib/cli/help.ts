/**
 * The `--help` (`-h`) texts of the command line, in one place: the program's
 * own and each subcommand's (`serve`, `sandbox`, `setup`, `canary`, `doctor`)
 * and `compile`'s (the build script behind `deno task compile`). Asking for
 * help starts nothing and reads no config, no environment. Pure.
 * @module
 */

/** The topics `--help` knows: every subcommand, and `compile`. */
export const HELP_TOPICS = ["serve", "sandbox", "setup", "canary", "doctor", "compile"] as const;
/** One of {@link HELP_TOPICS}. */
export type HelpTopic = typeof HELP_TOPICS[number];

const MAIN = `feishu-mcp — an MCP server that lets an AI agent live in Feishu (Lark)

Usage: deno task <task> [options]     (from source: deno run … main.ts <subcommand> …)

Subcommands (and the task that runs each):
  serve     deno task start     MCP over stdio for an agent (the default subcommand)
  sandbox   deno task sandbox   a loopback Feishu with a web chat page, the bridge and a
                                demo agent: the whole loop with no tenant
  setup     deno task setup     register a Feishu app by QR code and write its config
  canary    deno task canary    check a real tenant end to end; exit 0 only if all pass
  doctor    deno task doctor    a read-only health report of a workdir
  compile   deno task compile   build the single-file bundle and a binary

Options:
  -h, --help   this text; '<subcommand> --help' tells about one subcommand

Docs: README.md, reference/setup.md (operators), reference/manual.md (the tool).
`;

const SERVE = `feishu-mcp serve — MCP over stdio for an agent (deno task start)

Usage: deno task start [--config F] [--workdir D] [--name N]

Speaks MCP JSON-RPC on stdout and stdin, logs to stderr (secrets redacted), and
exits when stdin closes or its parent dies. Started unconfined, it re-executes
itself with Deno permissions narrowed to the workdir, the config file, the
media roots and the Feishu hosts. One server per workdir (a lock file).

Options:
  --config F    the config file (JSON). Else FEISHU_MCP_CONFIG or
                LINGTAI_FEISHU_CONFIG (relative to the workdir); with none the
                server runs degraded and says why
  --workdir D   where all state lives. Else FEISHU_MCP_WORKDIR or
                LINGTAI_AGENT_DIR; default the caller's directory
  --name N      the MCP registry name (LICC inbox folder). Else
                LINGTAI_MCP_NAME; default feishu
  -h, --help    this text

Flags win over FEISHU_MCP_*, which win over LINGTAI_*. See reference/setup.md.
`;

const SANDBOX = `feishu-mcp sandbox — the whole loop on one machine (deno task sandbox)

Usage: deno task sandbox [--port N] [--workdir D]

Starts a loopback Feishu emulator with its web chat page, the bridge (as an
agent runtime would spawn it) and a demo agent that answers; prints the page's
URL. Open it, pick Alice's DM and say 'help'. Ctrl-C stops everything.

The workdir keeps the bridge's state and the emulator's world (emulator/):
the next run shows the same chats and messages, and the bot answers as on the
first run (every run's new ids are its own). Delete the workdir to start over.

Options:
  --port N      the page's port on 127.0.0.1; 0 = any free port. A busy port
                given here is an error. Default 8787, or any free port (said so)
                when 8787 is busy
  --workdir D   the sandbox's workdir; default <repo>/.work/sandbox. A
                directory holding another bridge's state is refused
  -h, --help    this text

Environment:
  FEISHU_SANDBOX_NO_AGENT=1   no bridge and no demo agent: the emulator and the
                              page only, and an MCP client config to paste into
                              your own agent
`;

const SETUP = `feishu-mcp setup — register a Feishu app in one step (deno task setup)

Usage: deno task setup [--config F] [--domain feishu|lark|URL] [--account ALIAS]

One-click app registration: shows a link and its QR code (device flow) to scan
with the Feishu or Lark app, which registers the app. Then writes the config
atomically (file mode 0600): the app's id and secret, the domain, the person who
scanned as the first owner, and access {dm: pairing, outbound: admitted}; checks
the tenant token and the bot; prints what is left to do in the developer
console and the MCP client entry. A denial, an expired code or Ctrl-C writes
nothing; an existing file is changed only with --account.

Options:
  --config F                 the config file to write (default: FEISHU_MCP_CONFIG,
                             LINGTAI_FEISHU_CONFIG, else ./feishu.json)
  --domain feishu|lark|URL   Feishu (default), Lark, or a base URL (a private
                             deployment, the emulator)
  --account ALIAS            add this app to an existing config under ALIAS
  -h, --help                 this text
`;

const CANARY = `feishu-mcp canary — check a real tenant end to end (deno task canary)

Usage: deno task canary --config F --to OPEN_ID [--account ALIAS] [--timeout S] [--json]

Checks, in order: config, tenant_token, bot_identity, scopes, long_connection,
dm (a text DM reaches --to) and card_callback (click the test card's button).
Writes nothing. Stop a bridge on the same app first: it may take the click.

Options:
  --config F         the config file (required)
  --to OPEN_ID       a test user's open_id for this app, ou_… (required)
  --account ALIAS    the account to check; default the first
  --timeout S        seconds to wait for the card click, 1-3600; default 120
  --json             one JSON object on stdout instead of a table
  -h, --help         this text

Exit status: 0 every check passed, 1 otherwise, 2 usage error.
`;

const DOCTOR = `feishu-mcp doctor — a read-only health report of a workdir (deno task doctor)

Usage: deno task doctor [--config F] [--workdir D] [--json]

Safe beside a running server (it takes no lock and writes no file): the config
(secrets shown as [set]), each account's connection state, the intake queue,
dead letters with reasons, dedupe keys, pending Typing reactions and this
month's API calls.

Options:
  --config F    the config file, as for serve (also FEISHU_MCP_CONFIG, …)
  --workdir D   the workdir, as for serve (also FEISHU_MCP_WORKDIR, …)
  --json        the report as JSON
  -h, --help    this text

Exit status: 0 healthy, 1 something needs attention, 2 usage error.
`;

const COMPILE = `feishu-mcp compile — build the bundle and a binary (deno task compile)

Usage: deno task compile [--out FILE] [--binary FILE] [--config F [--workdir D]]
       deno task bundle  [--out FILE]

Bundles the app into one ES module (dist/feishu-mcp.js) that runs with a bare
'deno run' from any directory; compile also turns it into a binary. Needs no
network once packages are cached; compiling downloads Deno's denort runtime
unless DENORT_BIN names one.

Options:
  --out FILE      the bundle; default dist/feishu-mcp.js
  --binary FILE   the binary; default dist/feishu-mcp
  --config F      bake the permissions this config needs into the binary
  --workdir D     with --config: the workdir it may write; default the caller's
  -h, --help      this text
`;

const TEXTS: Record<HelpTopic | "main", string> = {
  main: MAIN,
  serve: SERVE,
  sandbox: SANDBOX,
  setup: SETUP,
  canary: CANARY,
  doctor: DOCTOR,
  compile: COMPILE,
};

/** Options of any subcommand that take a value (`--port 8799`), so it is not a subcommand. */
const VALUED = new Set([
  "--config",
  "--workdir",
  "--name",
  "--port",
  "--to",
  "--account",
  "--timeout",
  "--domain",
  "--out",
  "--binary",
]);

/** The help text of `topic` (`main` for the program's own). */
export function helpText(topic: HelpTopic | "main"): string {
  return TEXTS[topic];
}

/**
 * The help text `args` ask for, or null when they ask for none: `--help` or
 * `-h` anywhere (before a `--`), or `help [topic]` as the subcommand. The
 * topic is the subcommand named; the program's own text when none is, or an
 * unknown one.
 *
 * @example
 * ```ts
 * import { helpFor, helpText } from "./help.ts";
 * if (helpFor(["sandbox", "--port", "8799", "-h"]) !== helpText("sandbox")) throw new Error();
 * if (helpFor(["--config", "c.json", "doctor", "--help"]) !== helpText("doctor")) throw new Error();
 * if (helpFor(["--help"]) !== helpText("main") || helpFor(["help", "canary"]) !== helpText("canary")) throw new Error();
 * if (helpFor(["canary", "--to", "ou_x"]) !== null) throw new Error();
 * ```
 */
export function helpFor(args: readonly string[]): string | null {
  const positionals: string[] = [];
  let asked = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    if (arg === "--help" || arg === "-h") asked = true;
    else if (VALUED.has(arg)) i++;
    else if (!arg.startsWith("-")) positionals.push(arg);
  }
  if (positionals[0] === "help") {
    asked = true;
    positionals.shift();
  }
  if (!asked) return null;
  const topic = positionals[0];
  return (HELP_TOPICS as readonly string[]).includes(topic ?? "")
    ? TEXTS[topic as HelpTopic]
    : MAIN;
}
