import assert from "node:assert/strict";
import { join } from "node:path";
import { type Clock, createLogger, systemClock } from "../../core/mod.ts";
import { createTranscriber, type TranscriberConfig, type TranscriberDeps } from "./transcriber.ts";

const fixtures = new URL("../../../tests/fixtures/", import.meta.url);
const voicePath = new URL("voice_hello.ogg", fixtures).pathname;
const stub = new URL("stub_transcriber.ts", fixtures).pathname;
const deno = Deno.execPath();
const stubCommand = (...extra: string[]) => [
  deno,
  "run",
  "--quiet",
  "--no-config",
  "--allow-read",
  stub,
  "{wav}",
  ...extra,
];

function testDeps(clock: Clock = systemClock): TranscriberDeps & { lines: string[] } {
  const lines: string[] = [];
  return { clock, log: createLogger({ sink: (l) => lines.push(l), now: () => 0 }), lines };
}

/** A clock whose sleeps of exactly `ms` end at once and whose other sleeps never end. */
function expiringClock(ms: number): Clock {
  return {
    now: () => 0,
    sleep: (d, signal) =>
      d === ms ? Promise.resolve() : new Promise((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
  };
}

async function withWorkDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcribe-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

Deno.test("createTranscriber() without config answers the exact failure and reads nothing", async () => {
  await using t = createTranscriber(undefined, testDeps());
  assert.equal(t.configured, false);
  assert.deepEqual(
    await t.transcribe({ audioPath: "/nonexistent/voice.ogg", workDir: "/nonexistent/work" }),
    { status: "failed", error: "no transcriber configured" },
  );
});

Deno.test("createTranscriber() feeds the stub a real 16 kHz mono WAV and returns its transcript", async () => {
  await withWorkDir(async (dir) => {
    const deps = testDeps();
    await using t = createTranscriber({ command: stubCommand("--input", "{input}") }, deps);
    const result = await t.transcribe({ audioPath: voicePath, workDir: join(dir, "msg") });
    assert.deepEqual(result, {
      status: "completed",
      transcript: {
        text: "hello from feishu voice",
        language: null,
        // From the decoded sample count: the stub prints no duration.
        duration: 1.71,
        segments: [],
      },
    });
    assert.deepEqual(await listDir(join(dir, "msg")), [], "the scratch WAV is removed");
    assert.ok(deps.lines.some((l) => l.includes("voice transcribed")));
  });
});

Deno.test("createTranscriber() reads a JSON transcript from the command", async () => {
  await withWorkDir(async (dir) => {
    await using t = createTranscriber({ command: stubCommand("--json") }, testDeps());
    assert.deepEqual(await t.transcribe({ audioPath: voicePath, workDir: dir }), {
      status: "completed",
      transcript: {
        text: "hello from feishu voice",
        language: "en",
        duration: 1.71,
        segments: [
          { start: 0, end: 0.8, text: "hello from" },
          { start: 0.8, end: 1.7, text: "feishu voice" },
        ],
      },
    });
  });
});

Deno.test("createTranscriber() skips decoding when the command takes only {input}", async () => {
  await withWorkDir(async (dir) => {
    const notOpus = join(dir, "voice.ogg");
    await Deno.writeTextFile(notOpus, "not audio at all");
    // Prints the first word of the file it was given: the file is no Opus at all.
    const command = ["sh", "-c", 'head -c 3 "$0"', "{input}"];
    await using t = createTranscriber({ command }, testDeps());
    assert.deepEqual(await t.transcribe({ audioPath: notOpus, workDir: dir }), {
      status: "completed",
      transcript: { text: "not", language: null, duration: null, segments: [] },
    });
    await using json = createTranscriber(
      { command: ["sh", "-c", 'echo \'{"text":"x","duration":9.5}\'', "{input}"] },
      testDeps(),
    );
    const r = await json.transcribe({ audioPath: notOpus, workDir: dir });
    assert.equal(r.status === "completed" && r.transcript.duration, 9.5);
  });
});

Deno.test("createTranscriber() records the command's own error text on a non-zero exit", async () => {
  await withWorkDir(async (dir) => {
    const deps = testDeps();
    await using t = createTranscriber(
      { command: stubCommand("--fail", "model  unavailable") },
      deps,
    );
    assert.deepEqual(await t.transcribe({ audioPath: voicePath, workDir: dir }), {
      status: "failed",
      error: "model unavailable",
    });
    assert.deepEqual(await listDir(dir), []);
    assert.ok(deps.lines.some((l) => l.includes("WARN") && l.includes("model unavailable")));
  });
});

Deno.test("createTranscriber() bounds a long error to 200 characters", async () => {
  await withWorkDir(async (dir) => {
    const command = [
      "sh",
      "-c",
      'printf "%0500d" 0 >&2; echo "  real\n reason" >&2; exit 1',
      "{input}",
    ];
    await using t = createTranscriber({ command }, testDeps());
    const r = await t.transcribe({ audioPath: voicePath, workDir: dir });
    assert.equal(r.status, "failed");
    if (r.status === "failed") {
      assert.equal([...r.error].length, 200);
      assert.ok(r.error.endsWith("0 real reason"), r.error);
    }
  });
});

Deno.test("createTranscriber() kills a command that outlives timeout_seconds", async () => {
  await withWorkDir(async (dir) => {
    const config: TranscriberConfig = { command: ["sleep", "60", "{wav}"], timeout_seconds: 5 };
    await using t = createTranscriber(config, testDeps(expiringClock(5000)));
    assert.deepEqual(await t.transcribe({ audioPath: voicePath, workDir: dir }), {
      status: "failed",
      error: "Transcriber sleep did not finish within 5 s and was killed",
    });
  });
});

Deno.test("createTranscriber() reports a missing binary", async () => {
  await withWorkDir(async (dir) => {
    await using t = createTranscriber(
      { command: ["/nonexistent/whisper-cli", "-f", "{wav}"] },
      testDeps(),
    );
    assert.deepEqual(await t.transcribe({ audioPath: voicePath, workDir: dir }), {
      status: "failed",
      error: "Transcriber command not found: /nonexistent/whisper-cli",
    });
  });
});

Deno.test("createTranscriber() fails on corrupt Opus without running the command", async () => {
  await withWorkDir(async (dir) => {
    const corrupt = join(dir, "voice.ogg");
    const bytes = await Deno.readFile(voicePath);
    await Deno.writeFile(corrupt, bytes.subarray(0, 120));
    const marker = join(dir, "ran");
    await using t = createTranscriber(
      { command: ["sh", "-c", 'touch "$0"', marker, "{wav}"] },
      testDeps(),
    );
    assert.deepEqual(await t.transcribe({ audioPath: corrupt, workDir: dir }), {
      status: "failed",
      error: "Expected Ogg Opus audio but decoded no samples from 120 bytes",
    });
    assert.deepEqual(await listDir(dir), ["voice.ogg"]);
  });
});

Deno.test("createTranscriber() reports an unreadable audio file", async () => {
  await withWorkDir(async (dir) => {
    await using t = createTranscriber({ command: stubCommand() }, testDeps());
    const r = await t.transcribe({ audioPath: join(dir, "missing.ogg"), workDir: dir });
    assert.equal(r.status, "failed");
    if (r.status === "failed") assert.match(r.error, /^Cannot read the audio file: No such file/);
  });
});

Deno.test("createTranscriber() stops a running command on close and refuses new work", async () => {
  await withWorkDir(async (dir) => {
    const t = createTranscriber(
      { command: ["sh", "-c", 'touch "$0.started"; exec sleep 60', "{wav}"] },
      testDeps(),
    );
    const running = t.transcribe({ audioPath: voicePath, workDir: dir });
    // Close only once the command is running (the WAV was written and the command touched a marker).
    const started = join(dir, "voice_hello.16k.wav.started");
    await waitForFile(dir, started);
    await t.close();
    assert.deepEqual(await running, { status: "failed", error: "Transcription was cancelled" });
    assert.deepEqual(await t.transcribe({ audioPath: voicePath, workDir: dir }), {
      status: "failed",
      error: "The transcriber is closed",
    });
  });
});

Deno.test("createTranscriber() rejects a malformed config at creation", () => {
  const deps = testDeps();
  assert.throws(() => createTranscriber({ command: [] }, deps), {
    message: "Expected transcriber.command to be a non-empty list but found []",
  });
  assert.throws(() => createTranscriber({ command: ["stt"], timeout_seconds: 0 }, deps), {
    message: "Expected transcriber.timeout_seconds to be a positive number but found 0",
  });
});

/** Resolves once `path` exists, watching `dir` for it (no polling, no sleeps). */
async function waitForFile(dir: string, path: string): Promise<void> {
  const watcher = Deno.watchFs(dir);
  try {
    if (await exists(path)) return;
    for await (const _ of watcher) {
      if (await exists(path)) return;
    }
  } finally {
    watcher.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
