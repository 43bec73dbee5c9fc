import { deepEqual, equal, match, rejects } from "node:assert/strict";
import { join } from "node:path";
import { BridgeError } from "../core/mod.ts";
import { normaliseOutbound, type OutboundInput } from "./content.ts";
import { denoMediaFs, type MediaFs, type MediaHandle, type MediaStat } from "./media_fs.ts";
import { UPLOAD_LIMITS } from "./upload.ts";

function file(path: string, type: "file" | "image" = "file"): OutboundInput {
  return { content: { type, source: { type: "path", path } } };
}

/** Checks a rejection's classified code and message. */
function invalid(message: RegExp, code = "INVALID_ARGUMENT") {
  return (err: unknown) => {
    equal(err instanceof BridgeError && err.code, code, String(err));
    match((err as Error).message, message);
    return true;
  };
}

/** A filesystem that fails the test if touched. */
const untouchable: MediaFs = {
  realPath: (p) => Promise.reject(new Error(`unexpected realPath(${p})`)),
  stat: (p) => Promise.reject(new Error(`unexpected stat(${p})`)),
  open: (p) => Promise.reject(new Error(`unexpected open(${p})`)),
};

for (
  const [name, path, code] of [
    ["a NUL byte", "/w/a\u0000.png", "U\\+0000"],
    ["an escape", "/w/\u001b[31m.png", "U\\+001B"],
    ["a newline", "/w/a\n.png", "U\\+000A"],
    ["DEL", "/w/a\u007f.png", "U\\+007F"],
    ["a C1 control", "/w/a\u0085.png", "U\\+0085"],
  ] as const
) {
  Deno.test(`normaliseOutbound() refuses ${name} in a path, naming the field, before any file access`, async () => {
    await rejects(
      normaliseOutbound(file(path), { mediaRoots: ["/w"], fs: untouchable }),
      invalid(new RegExp(`^content\\.source\\.path must not contain control characters .*${code}`)),
    );
  });
}

Deno.test("normaliseOutbound() accepts a path with non-control Unicode", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "报告 – é.bin");
    await Deno.writeTextFile(path, "x");
    const n = await normaliseOutbound(file(path), { mediaRoots: [dir], fs: denoMediaFs });
    equal(n.mediaSummary?.size, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A workdir laid out as the server's, with the config inside it (the LingTai convention). */
async function withWorkdir(
  fn: (w: { dir: string; config: string; state: string }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const state = join(dir, "feishu");
  const config = join(dir, "config.json");
  try {
    await Deno.writeTextFile(config, '{"app_secret":"s"}');
    await Deno.mkdir(join(state, "main", "attachments", "om_1"), { recursive: true });
    for (const f of ["store.db", "store.db-wal", "queue.kv", "server.lock", "other.json"]) {
      await Deno.writeTextFile(join(state, f), "state");
    }
    await Deno.writeTextFile(join(state, "main", "notes.txt"), "state");
    await Deno.writeTextFile(join(state, "main", "attachments", "om_1", "a.png"), "png");
    await Deno.mkdir(join(dir, ".secrets"));
    await Deno.writeTextFile(join(dir, ".secrets", "key.txt"), "key");
    await Deno.mkdir(join(dir, "media"));
    await Deno.writeTextFile(join(dir, "media", "ok.bin"), "ok");
    await Deno.symlink(config, join(dir, "media", "config-link.json"));
    await Deno.symlink(join(state, "store.db"), join(dir, "media", "store-link"));
    await Deno.symlink(join(dir, "media", "ok.bin"), join(dir, ".secrets", "via.bin"));
    await fn({ dir, config, state });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("normaliseOutbound() refuses the server's own files inside media_roots, on real paths", async (t) => {
  await withWorkdir(async ({ dir, config, state }) => {
    const options = {
      mediaRoots: [dir],
      fs: denoMediaFs,
      ownFiles: { stateDir: state, configPath: config },
    };
    const cases: [string, string, string][] = [
      ["the config file", config, "the config file"],
      ["a symlink to the config file", join(dir, "media", "config-link.json"), "the config file"],
      ["the store", join(state, "store.db"), "the store"],
      ["the store's WAL", join(state, "store.db-wal"), "the store"],
      ["a symlink to the store", join(dir, "media", "store-link"), "the store"],
      ["the journal", join(state, "queue.kv"), "the journal"],
      ["the lock file", join(state, "server.lock"), "the lock file"],
      ["another file of the state folder", join(state, "other.json"), "a file in the state folder"],
      [
        "a file in an account's folder",
        join(state, "main", "notes.txt"),
        "a file in the state folder",
      ],
      ["a file under .secrets/", join(dir, ".secrets", "key.txt"), "a file under .secrets/"],
      ["a path through .secrets/", join(dir, ".secrets", "via.bin"), "a file under .secrets/"],
    ];
    for (const [name, path, what] of cases) {
      await t.step(`${name} is refused as ${what}`, async () => {
        await rejects(
          normaliseOutbound(file(path), options),
          invalid(
            new RegExp(
              `^Expected content\\.source\\.path to name a media file but found one of the server's own files \\(${
                what.replace(/[.()/]/g, "\\$&")
              }\\), which is never sent: `,
            ),
          ),
        );
      });
    }
    await t.step("a downloaded attachment and an ordinary media file are sent", async () => {
      const att = await normaliseOutbound(
        file(join(state, "main", "attachments", "om_1", "a.png")),
        options,
      );
      equal(new TextDecoder().decode(att.media?.upload?.bytes), "png");
      const ok = await normaliseOutbound(file(join(dir, "media", "ok.bin")), options);
      equal(new TextDecoder().decode(ok.media?.upload?.bytes), "ok");
    });
    await t.step("without a config file the state folder is still refused", async () => {
      await rejects(
        normaliseOutbound(file(join(state, "store.db")), {
          ...options,
          ownFiles: { stateDir: state, configPath: null },
        }),
        invalid(/the store/),
      );
    });
  });
});

Deno.test("normaliseOutbound() refuses a file with more than one hard link", async () => {
  const dir = await Deno.makeTempDir();
  const outside = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(outside, "secret");
    await Deno.link(outside, join(dir, "hard.bin"));
    await rejects(
      normaliseOutbound(file(join(dir, "hard.bin")), { mediaRoots: [dir], fs: denoMediaFs }),
      invalid(/found 2 hard links to .*hard\.bin; a hard link can lead outside media_roots/),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside);
  }
});

/** What the scripted filesystem did, in order. */
type Call = "open" | "read" | "close";

/**
 * A scripted filesystem: `/w/a.bin` resolves to itself and is a regular file
 * of `data`; `script` changes what the path or the open handle reports.
 */
function scripted(script: {
  data?: Uint8Array;
  /** What the open handle says, over the path's own stat. */
  handle?: Partial<MediaStat>;
  /** What the path's stat says before the open (default: a file). */
  before?: Partial<MediaStat>;
  /** What the real path resolves to once the file is open. */
  realPathAfterOpen?: string;
  /** The error a stat after the open throws. */
  statAfterOpen?: Error;
  /** Bytes the file grew by while it was read. */
  grows?: number;
  readError?: Error;
}): { fs: MediaFs; calls: Call[] } {
  const data = script.data ?? new TextEncoder().encode("bytes");
  const calls: Call[] = [];
  let opened = false;
  const base: MediaStat = { isFile: true, size: data.length, nlink: 1, dev: 1, ino: 7 };
  const fs: MediaFs = {
    realPath: (p) =>
      Promise.resolve(opened && script.realPathAfterOpen ? script.realPathAfterOpen : p),
    stat: (p) => {
      if (opened && script.statAfterOpen) return Promise.reject(script.statAfterOpen);
      return Promise.resolve(
        p === "/w" ? { ...base, isFile: false } : { ...base, ...(opened ? {} : script.before) },
      );
    },
    open: () => {
      calls.push("open");
      opened = true;
      const content = new Uint8Array([...data, ...new Uint8Array(script.grows ?? 0)]);
      let at = 0;
      const handle: MediaHandle = {
        stat: () => Promise.resolve({ ...base, ...script.handle }),
        read: (buffer) => {
          calls.push("read");
          if (script.readError) return Promise.reject(script.readError);
          if (at >= content.length) return Promise.resolve(null);
          const n = Math.min(buffer.length, content.length - at);
          buffer.set(content.subarray(at, at + n));
          at += n;
          return Promise.resolve(n);
        },
        close: () => void calls.push("close"),
      };
      return Promise.resolve(handle);
    },
  };
  return { fs, calls };
}

Deno.test("normaliseOutbound() reads the upload from the handle it checked, and closes it", async () => {
  const { fs, calls } = scripted({});
  const n = await normaliseOutbound(file("/w/a.bin"), { mediaRoots: ["/w"], fs });
  equal(new TextDecoder().decode(n.media?.upload?.bytes), "bytes");
  deepEqual(n.mediaSummary, { type: "file", filename: "a.bin", size: 5 });
  equal(calls.filter((c) => c === "open").length, 1);
  equal(calls.at(-1), "close");
});

Deno.test("normaliseOutbound() refuses what changes around the open handle and always closes it", async (t) => {
  const cases: {
    name: string;
    script: Parameters<typeof scripted>[0];
    code?: string;
    message: RegExp;
    reads: boolean;
  }[] = [
    {
      name: "a different file opened than the real path names (a swap before the open)",
      script: { handle: { ino: 99 } },
      message: /changed while it was being checked/,
      reads: false,
    },
    {
      name: "the real path turned into a symlink once open",
      script: { realPathAfterOpen: "/elsewhere/secret" },
      message: /changed while it was being checked/,
      reads: false,
    },
    {
      name: "the real path leading where Deno's permissions deny once open",
      script: { statAfterOpen: new Deno.errors.NotCapable("Requires read access") },
      message: /changed while it was being checked/,
      reads: false,
    },
    {
      name: "an open handle that is not a regular file",
      script: { handle: { isFile: false } },
      message: /must name a readable file/,
      reads: false,
    },
    {
      name: "a hard-linked file",
      script: { handle: { nlink: 3 } },
      message: /found 3 hard links/,
      reads: false,
    },
    {
      name: "a file over the limit, refused before it is read",
      script: { handle: { size: UPLOAD_LIMITS.file + 1 } },
      message: /at most 31457280 bytes/,
      reads: false,
    },
    {
      name: "an empty file",
      script: { data: new Uint8Array() },
      message: /non-empty file/,
      reads: false,
    },
    {
      name: "a file that grew while it was read",
      script: { grows: 3 },
      message: /changed while it was being checked/,
      reads: true,
    },
    {
      name: "a read error",
      script: { readError: new Error("EIO") },
      code: "UPLOAD_FAILED",
      message: /Could not read a\.bin for upload: EIO/,
      reads: true,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const { fs, calls } = scripted(c.script);
      await rejects(
        normaliseOutbound(file("/w/a.bin"), { mediaRoots: ["/w"], fs }),
        invalid(c.message, c.code),
      );
      equal(calls[0], "open");
      equal(calls.at(-1), "close");
      equal(calls.filter((x) => x === "close").length, 1);
      equal(calls.includes("read"), c.reads);
    });
  }
});

Deno.test("normaliseOutbound() never opens a path that is not a regular file (a FIFO would block the open)", async () => {
  const { fs, calls } = scripted({ before: { isFile: false } });
  await rejects(
    normaliseOutbound(file("/w/a.bin"), { mediaRoots: ["/w"], fs }),
    invalid(/must name a readable file/),
  );
  deepEqual(calls, []);
});
