import assert from "node:assert/strict";
import { DEFAULT_TIMEOUT_SECONDS, parseCanaryArgs } from "./args.ts";

const where = { env: {}, cwd: "/caller" };
const base = ["--config", "c.json", "--to", "ou_tester"];

Deno.test("parseCanaryArgs() resolves --config against the caller and defaults the timeout", () => {
  const p = parseCanaryArgs(base, where);
  assert.ok(p.ok);
  assert.deepEqual(p.args, {
    configPath: "/caller/c.json",
    account: null,
    to: "ou_tester",
    timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
    json: false,
    callerDir: "/caller",
  });
});

Deno.test("parseCanaryArgs() reads --account, --timeout and --json", () => {
  const p = parseCanaryArgs([...base, "--account", "b", "--timeout", "3", "--json"], where);
  assert.ok(p.ok);
  assert.equal(p.args.account, "b");
  assert.equal(p.args.timeoutSeconds, 3);
  assert.equal(p.args.json, true);
});

const errors: [string, string[], RegExp][] = [
  ["an unknown flag", [...base, "--bogus"], /Unknown option '--bogus'/],
  ["a missing --to", ["--config", "c.json"], /Expected --to/],
  ["a missing --config", ["--to", "ou_tester"], /Expected --config/],
  ["a --to that is no open_id", ["--config", "c", "--to", "alice"], /open_id .* found 'alice'/],
  ["a timeout of zero", [...base, "--timeout", "0"], /--timeout .* found '0'/],
  ["a timeout that is no number", [...base, "--timeout", "soon"], /found 'soon'/],
  ["a fractional timeout", [...base, "--timeout", "1.5"], /found '1.5'/],
  ["a positional argument", [...base, "extra"], /extra/],
];
for (const [what, argv, want] of errors) {
  Deno.test(`parseCanaryArgs() refuses ${what} with one line`, () => {
    const p = parseCanaryArgs(argv, where);
    assert.ok(!p.ok && !p.help);
    assert.match(p.error, want);
    assert.ok(!p.error.includes("\n"));
  });
}

Deno.test("parseCanaryArgs() answers --help", () => {
  const p = parseCanaryArgs(["--help"], where);
  assert.ok(!p.ok && p.help);
});
