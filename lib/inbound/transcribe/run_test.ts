import assert from "node:assert/strict";
import { ManualClock, systemClock } from "../../core/mod.ts";
import { commandError, type CommandOutcome, expandArgv, runCommand, usesWav } from "./run.ts";

Deno.test("expandArgv() fills placeholders in arguments but not in the program name", () => {
  assert.deepEqual(
    expandArgv(["{wav}", "-f", "{wav}", "--in={input}", "{input}{input}"], {
      wav: "/a.wav",
      input: "/a.ogg",
    }),
    ["{wav}", "-f", "/a.wav", "--in=/a.ogg", "/a.ogg/a.ogg"],
  );
  assert.deepEqual(usesWav(["{wav}", "{input}"]), false);
});

Deno.test("expandArgv() rejects an empty command and a missing WAV path", () => {
  assert.throws(() => expandArgv([], { input: "/a" }), {
    message: "Expected the transcriber command to name a program but found none",
  });
  assert.throws(() => expandArgv(["stt", "{wav}"], { input: "/a" }), {
    message: "Expected a WAV path for {wav} but none was given",
  });
});

Deno.test("runCommand() returns stdout, stderr and the exit code", async () => {
  const out = await runCommand(["sh", "-c", "printf 'a\\nb'; printf 'oops' >&2; exit 2"], {
    clock: systemClock,
    timeoutMs: 60_000,
  });
  assert.deepEqual(out, {
    kind: "exited",
    code: 2,
    signal: null,
    stdout: "a\nb",
    stdoutOverflow: false,
    stderr: "oops",
    readError: null,
  });
});

Deno.test("runCommand() runs in the given folder with stdin closed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = await runCommand(["sh", "-c", "pwd; cat; echo done"], {
      clock: systemClock,
      timeoutMs: 60_000,
      cwd: dir,
    });
    assert.equal(out.kind, "exited");
    if (out.kind === "exited") assert.equal(out.stdout, `${await Deno.realPath(dir)}\ndone\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCommand() kills a command that outlives its budget", async () => {
  const clock = new ManualClock();
  const run = runCommand(["sleep", "60"], { clock, timeoutMs: 2000 });
  clock.advance(2000);
  // The OS reports the process as ended by our SIGKILL, not by finishing.
  assert.deepEqual(await run, { kind: "timed-out", signal: "SIGKILL" });
});

Deno.test("runCommand() kills the command when the caller aborts", async () => {
  const abort = new AbortController();
  const run = runCommand(["sleep", "60"], {
    clock: new ManualClock(),
    timeoutMs: 2000,
    signal: abort.signal,
  });
  abort.abort();
  assert.deepEqual(await run, { kind: "aborted", signal: "SIGKILL" });
  assert.deepEqual(
    await runCommand(["sleep", "60"], {
      clock: new ManualClock(),
      timeoutMs: 1,
      signal: abort.signal,
    }),
    { kind: "aborted", signal: null },
  );
});

Deno.test("runCommand() reports a missing program", async () => {
  const out = await runCommand(["/nonexistent/feishu-mcp-stt"], {
    clock: systemClock,
    timeoutMs: 1000,
  });
  assert.equal(out.kind, "not-started");
  if (out.kind === "not-started") assert.equal(out.reason, "not-found");
});

Deno.test({
  name: "runCommand() reports a program the permissions do not allow",
  permissions: { run: false },
  fn: async () => {
    const out = await runCommand(["sh", "-c", "true"], { clock: systemClock, timeoutMs: 1000 });
    assert.equal(out.kind, "not-started");
    if (out.kind === "not-started") assert.equal(out.reason, "not-allowed");
  },
});

Deno.test("runCommand() keeps the start of stdout and the end of stderr within their caps", async () => {
  const script = "head -c 5000 /dev/zero | tr '\\0' x; " +
    "i=0; while [ $i -lt 300 ]; do echo progress $i >&2; i=$((i+1)); done; echo final reason >&2";
  const out = await runCommand(["sh", "-c", script], {
    clock: systemClock,
    timeoutMs: 60_000,
    maxStdoutBytes: 1000,
    maxStderrBytes: 100,
  });
  assert.equal(out.kind, "exited");
  if (out.kind !== "exited") return;
  assert.equal(out.stdout, "x".repeat(1000));
  assert.equal(out.stdoutOverflow, true);
  assert.equal(out.stderr.length, 100);
  assert.ok(out.stderr.endsWith("progress 299\nfinal reason\n"));
});

const exited = (o: Partial<Extract<CommandOutcome, { kind: "exited" }>>): CommandOutcome => ({
  kind: "exited",
  code: 0,
  signal: null,
  stdout: "",
  stdoutOverflow: false,
  stderr: "",
  readError: null,
  ...o,
});
const errorCases: { name: string; outcome: CommandOutcome; want: string | null }[] = [
  { name: "success", outcome: exited({ stdout: "hi" }), want: null },
  {
    name: "a non-zero exit with stderr",
    outcome: exited({ code: 1, stderr: "loading model\n  error:\tmodel unavailable\n" }),
    want: "loading model error: model unavailable",
  },
  {
    name: "a non-zero exit without stderr",
    outcome: exited({ code: 4 }),
    want: "Transcriber stt exited with code 4",
  },
  {
    name: "a crash by signal",
    outcome: exited({ code: 139, signal: "SIGSEGV" }),
    want: "Transcriber stt was ended by SIGSEGV",
  },
  {
    name: "overflowing output",
    outcome: exited({ stdoutOverflow: true }),
    want: "Expected at most 1048576 bytes of transcriber output but found more",
  },
  {
    name: "a failed read",
    outcome: exited({ readError: "broken pipe" }),
    want: "Cannot read the output of the transcriber stt: broken pipe",
  },
  {
    name: "a timeout",
    outcome: { kind: "timed-out", signal: "SIGKILL" },
    want: "Transcriber stt did not finish within 120 s and was killed",
  },
  {
    name: "an abort",
    outcome: { kind: "aborted", signal: null },
    want: "Transcription was cancelled",
  },
  {
    name: "a missing program",
    outcome: { kind: "not-started", reason: "not-found", message: "x" },
    want: "Transcriber command not found: stt",
  },
  {
    name: "a forbidden program",
    outcome: { kind: "not-started", reason: "not-allowed", message: "x" },
    want: "Not allowed to run the transcriber stt: grant it with --allow-run",
  },
  {
    name: "another start failure",
    outcome: { kind: "not-started", reason: "failed", message: "Permission denied (os error 13)" },
    want: "Cannot start the transcriber stt: Permission denied (os error 13)",
  },
];
for (const c of errorCases) {
  Deno.test(`commandError() words ${c.name}`, () => {
    assert.equal(commandError(c.outcome, { program: "stt", timeoutMs: 120_000 }), c.want);
  });
}
