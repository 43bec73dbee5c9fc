/**
 * End to end over stdio against the emulator, with the config inside the
 * workdir and the default media root (the workdir itself): the server's own
 * files are never sent as content, a hard link to a file outside the media
 * roots is refused, a symlink swapped while a file is being sent never gets
 * the outside file uploaded, and a path with a control character is a clear
 * `INVALID_ARGUMENT`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { makeChat } from "../lib/emulator/mod.ts";
import { D, type Rig, startRig } from "./_outbound.ts";

const SECRET = new TextEncoder().encode("outside secret: do not upload");
const ALLOWED = new TextEncoder().encode("allowed media bytes");

/** Every upload request the emulator received (image and file endpoints). */
function uploadRequests(rig: Rig): number {
  return rig.emu.requests({ path: "/open-apis/im/v1/images" }).length +
    rig.emu.requests({ path: "/open-apis/im/v1/files" }).length;
}

function sendFile(rig: Rig, path: string, extra: Record<string, unknown> = {}) {
  return rig.call("send", {
    receive_id: D.team,
    receive_id_type: "chat_id",
    content: { type: "file", source: { type: "path", path }, ...extra },
  });
}

function assertRefused(out: Record<string, unknown>, message: RegExp, name: string): void {
  assert.equal(out.status, "failed", `${name}: ${JSON.stringify(out)}`);
  assert.equal(out.error_code, "INVALID_ARGUMENT", `${name}: ${JSON.stringify(out)}`);
  assert.equal(out.retryable, false, name);
  assert.match(String(out.error), message, name);
}

Deno.test("security of media files end to end: the server's own files, hard links and control characters are refused before any upload", async (t) => {
  await using rig = await startRig();
  const workdir = rig.server.workdir;
  const config = join(workdir, "config.json");
  await Deno.mkdir(join(workdir, ".secrets"));
  await Deno.writeTextFile(join(workdir, ".secrets", "token.txt"), "s3cret");
  await Deno.symlink(config, join(rig.mediaDir, "config-link.json"));

  await t.step(
    "the config, store, lock, journal and .secrets files are each refused as the server's own; nothing is uploaded",
    async () => {
      const cases = [
        { name: "the config file", path: config },
        { name: "a symlink to the config file", path: join(rig.mediaDir, "config-link.json") },
        { name: "the store", path: join(workdir, "feishu", "store.db") },
        { name: "the lock file", path: join(workdir, "feishu", "server.lock") },
        { name: "the journal", path: join(workdir, "feishu", "queue.kv") },
        { name: "a file under .secrets/", path: join(workdir, ".secrets", "token.txt") },
      ];
      const before = uploadRequests(rig);
      const sent = rig.emu.messages(D.team).length;
      for (const c of cases) {
        await Deno.stat(c.path); // the file exists: the refusal is not "missing"
        assertRefused(await sendFile(rig, c.path), /one of the server's own files/, c.name);
      }
      assert.equal(uploadRequests(rig), before, "no upload reached Feishu");
      assert.equal(rig.emu.messages(D.team).length, sent, "no message reached Feishu");
      assert.equal(rig.emu.world.uploads.size, 0);
    },
  );

  await t.step(
    "a downloaded attachment under the state folder is not the server's own and can be sent",
    async () => {
      const dir = join(workdir, "feishu", "main", "attachments", "om_forward");
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeFile(join(dir, "photo.bin"), ALLOWED);
      const out = await sendFile(rig, join(dir, "photo.bin"));
      assert.equal(out.status, "sent", JSON.stringify(out));
      const uploads = [...rig.emu.world.uploads.values()];
      assert.equal(uploads.length, 1);
      assert.deepEqual(uploads[0]!.bytes, ALLOWED);
    },
  );

  await t.step("a hard link inside the media root to a file outside it is refused", async () => {
    const outside = await Deno.makeTempFile({ prefix: "feishu-mcp-outside-" });
    try {
      await Deno.writeFile(outside, SECRET);
      const link = join(rig.mediaDir, "hard.bin");
      await Deno.link(outside, link);
      const before = uploadRequests(rig);
      assertRefused(await sendFile(rig, link), /hard link/, "a hard link");
      assert.equal(uploadRequests(rig), before);
    } finally {
      await Deno.remove(outside);
    }
  });

  await t.step(
    "a NUL or another control character in a path is INVALID_ARGUMENT naming the field",
    async () => {
      const before = uploadRequests(rig);
      for (const path of [join(rig.mediaDir, "a\u0000.png"), join(rig.mediaDir, "a\u001b.png")]) {
        assertRefused(
          await sendFile(rig, path),
          /content\.source\.path must not contain control characters/,
          JSON.stringify(path),
        );
      }
      assert.equal(uploadRequests(rig), before);
    },
  );
});

/**
 * A child process that, until killed, replaces the file at `path` in turns by
 * a fresh regular file holding `allowed` and by a symlink to `outside`, each
 * swap one atomic rename, so the path always exists.
 */
function startSwapper(path: string, allowed: Uint8Array, outside: string): Deno.ChildProcess {
  const script = `
    const [path, outside, hex] = Deno.args;
    const bytes = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
    const tmp = path + ".swap";
    for (let i = 0; ; i++) {
      try { Deno.removeSync(tmp); } catch { /* absent */ }
      if (i % 2) Deno.symlinkSync(outside, tmp);
      else Deno.writeFileSync(tmp, bytes);
      Deno.renameSync(tmp, path);
      if (i === 1) Deno.stdout.writeSync(new TextEncoder().encode("swapping\\n"));
    }
  `;
  const hex = Array.from(allowed, (b) => b.toString(16).padStart(2, "0")).join("");
  return new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script, path, outside, hex],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/** Resolves once the swapper has made its first two swaps (its first line of output). */
async function swapping(child: Deno.ChildProcess): Promise<void> {
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  assert.match(new TextDecoder().decode(value), /swapping/);
}

Deno.test("security of media files end to end: a symlink swapped while its file is sent never gets the outside file uploaded in 200 sends", async () => {
  await using rig = await startRig();
  // Forty chats, so the 200 sends stay within Feishu's per-chat pacing.
  const chats = Array.from({ length: 40 }, (_, i) => `oc_race_${i}`);
  for (const chatId of chats) {
    rig.emu.world.addChat(
      makeChat({ chatId, name: chatId, mode: "group", members: [D.alice.openId], bots: [D.appId] }),
    );
  }
  const outside = await Deno.makeTempFile({ prefix: "feishu-mcp-outside-" });
  await Deno.writeFile(outside, SECRET);
  const path = join(rig.mediaDir, "swap.bin");
  await Deno.writeFile(path, ALLOWED);
  const swapper = startSwapper(path, ALLOWED, outside);
  const outcomes = { sent: 0, refused: 0 };
  try {
    await swapping(swapper);
    for (let i = 0; i < 200; i++) {
      const out = await rig.call("send", {
        receive_id: chats[i % chats.length],
        receive_id_type: "chat_id",
        content: { type: "file", source: { type: "path", path }, file_name: `try-${i}.bin` },
      });
      if (out.status === "sent") outcomes.sent++;
      else {
        assert.equal(out.error_code, "INVALID_ARGUMENT", JSON.stringify(out));
        outcomes.refused++;
      }
    }
  } finally {
    swapper.kill();
    await swapper.stdout.cancel();
    await swapper.status;
    await Deno.remove(outside);
  }
  const uploads = [...rig.emu.world.uploads.values()];
  const same = (a: Uint8Array, b: Uint8Array) =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  const leaked = uploads.filter((u) => !same(u.bytes, ALLOWED)).map((u) => u.fileName);
  assert.deepEqual(
    leaked,
    [],
    `uploads that are not the allowed file (${JSON.stringify(outcomes)})`,
  );
  assert.equal(uploads.length, outcomes.sent, "one upload per sent message");
  // The swaps really met the checks (how many sends slipped between two swaps
  // depends on timing, so only the refusals are required).
  assert.ok(outcomes.refused > 0, JSON.stringify(outcomes));
  // Once the path holds still, the same send goes through with the allowed bytes.
  await Deno.remove(path); // the swapper may have left the symlink
  await Deno.writeFile(path, ALLOWED);
  const settled = await rig.call("send", {
    receive_id: chats[0],
    receive_id_type: "chat_id",
    content: { type: "file", source: { type: "path", path }, file_name: "settled.bin" },
  });
  assert.equal(settled.status, "sent", JSON.stringify(settled));
  const last = [...rig.emu.world.uploads.values()].at(-1)!;
  assert.ok(same(last.bytes, ALLOWED));
});
