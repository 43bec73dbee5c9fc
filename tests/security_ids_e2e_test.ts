/**
 * End to end over stdio against the emulator: ids are checked at the edges.
 * An id from the agent that is not spelled like a Feishu id (letters, digits,
 * `_`, `-`) is refused with INVALID_ARGUMENT naming its field before any
 * request, so `../`, `?`, `#` and `%` never reach a request URL; and a message
 * id from an event that is not spelled like one never steers where its
 * attachment is written.
 */

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";
import { type Rig, startRig } from "./_outbound.ts";

/** Every request past the token call, as `METHOD path`. */
function calls(emu: Emulator): string[] {
  return emu.requests().filter((r) => !r.path.includes("/auth/")).map((r) =>
    `${r.method} ${r.path}`
  );
}

const HOSTILE = ["../chats/oc_emu_team", "om_1?x=1", "om_1#x", "%2e%2e", "..", "om_1/reply"];

function assertRefused(out: Record<string, unknown>, field: RegExp, what: string): void {
  assert.equal(out.status, "failed", `${what}: ${JSON.stringify(out)}`);
  assert.equal(out.error_code, "INVALID_ARGUMENT", `${what}: ${JSON.stringify(out)}`);
  assert.equal(out.retryable, false, what);
  assert.match(String(out.message), field, what);
}

Deno.test("hostile ids from the agent are INVALID_ARGUMENT naming the field, and no request reaches Feishu", async (t) => {
  await using rig: Rig = await startRig();
  const target = await rig.inbound({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
  const chat = D.aliceP2p;

  await t.step("the message part of a compound id: delete, edit, reply, react", async () => {
    await rig.presenceDrained();
    const before = calls(rig.emu);
    for (const bad of HOSTILE) {
      const id = `main:${chat}:${bad}`;
      const field = /message_id \(its message part\)/;
      assertRefused(await rig.call("delete", { message_id: id }), field, `delete ${bad}`);
      assertRefused(await rig.call("edit", { message_id: id, text: "x" }), field, `edit ${bad}`);
      assertRefused(await rig.call("reply", { message_id: id, text: "x" }), field, `reply ${bad}`);
      assertRefused(
        await rig.call("react", { message_id: id, operation: "add", emoji_type: "SMILE" }),
        field,
        `react ${bad}`,
      );
    }
    assert.deepEqual(calls(rig.emu).slice(before.length), []);
  });

  await t.step("the chat part of a compound id", async () => {
    const before = calls(rig.emu);
    for (const bad of ["../chats", "oc_1?x=1", "oc_1#x", "%2e%2e", "oc/1"]) {
      const id = `main:${bad}:${target.messageId}`;
      const field = /message_id \(its chat part\)/;
      assertRefused(await rig.call("delete", { message_id: id }), field, `delete ${bad}`);
      assertRefused(await rig.call("reply", { message_id: id, text: "x" }), field, `reply ${bad}`);
    }
    assert.deepEqual(calls(rig.emu).slice(before.length), []);
  });

  await t.step("reaction_id and emoji_type on a real message", async () => {
    const before = calls(rig.emu);
    for (const bad of ["rc/1", "../../chats/oc_emu_team", "rc_1?x=1", "rc_1#x", "%2e%2e"]) {
      assertRefused(
        await rig.call("react", { message_id: target.id, operation: "remove", reaction_id: bad }),
        /reaction_id/,
        `reaction_id ${bad}`,
      );
      assertRefused(
        await rig.call("react", { message_id: target.id, operation: "add", emoji_type: bad }),
        /emoji_type/,
        `emoji_type ${bad}`,
      );
    }
    assert.deepEqual(calls(rig.emu).slice(before.length), []);
  });

  await t.step("receive_id of each type, and ids inside send content", async () => {
    const before = calls(rig.emu);
    for (const bad of HOSTILE) {
      for (const type of ["open_id", "chat_id", "user_id", "union_id"]) {
        assertRefused(
          await rig.call("send", { receive_id: bad, receive_id_type: type, text: "x" }),
          /receive_id/,
          `${type} ${bad}`,
        );
      }
    }
    for (const bad of ["a@b/../c", "a b@c", "ou_emu_alice", "a@b?x=1"]) {
      assertRefused(
        await rig.call("send", { receive_id: bad, receive_id_type: "email", text: "x" }),
        /receive_id must be an email/,
        `email ${bad}`,
      );
    }
    const contents: [Record<string, unknown>, RegExp][] = [
      [{ type: "share_chat", chat_id: "../chats/oc_emu_team" }, /content\.chat_id/],
      [{ type: "share_user", user_id: "ou_1?x=1" }, /content\.user_id/],
      [{ type: "sticker", file_key: "file_v3/../x" }, /content\.file_key/],
      [{ type: "image", source: { type: "key", key: "img_v3#x" } }, /content\.source\.key/],
      [{ type: "file", source: { type: "key", key: "%2e%2e" } }, /content\.source\.key/],
    ];
    for (const [content, field] of contents) {
      assertRefused(
        await rig.call("send", { receive_id: chat, receive_id_type: "chat_id", content }),
        field,
        `send ${JSON.stringify(content)}`,
      );
      assertRefused(
        await rig.call("reply", { message_id: target.id, content }),
        field,
        `reply ${JSON.stringify(content)}`,
      );
    }
    assert.deepEqual(calls(rig.emu).slice(before.length), []);
  });

  await t.step("open_id and chat_id of contacts", async () => {
    for (const bad of HOSTILE) {
      assertRefused(
        await rig.call("add_contact", { open_id: bad, alias: "x" }),
        /open_id/,
        `add ${bad}`,
      );
      assertRefused(
        await rig.call("add_contact", { open_id: D.bob.openId, alias: "bob", chat_id: bad }),
        /chat_id/,
        `add chat ${bad}`,
      );
      assertRefused(await rig.call("remove_contact", { open_id: bad }), /open_id/, `remove ${bad}`);
    }
    const listed = await rig.call("contacts", {});
    // Only the sender the inbound message introduced; nothing the refused calls named.
    assert.deepEqual(Object.keys(listed.contacts as Record<string, unknown>), [D.alice.openId]);
  });

  await t.step("well-formed ids still act on exactly their own endpoint", async () => {
    const before = calls(rig.emu).length;
    const added = await rig.call("react", {
      message_id: target.id,
      operation: "add",
      emoji_type: "SMILE",
    });
    assert.equal(added.status, "added");
    const removed = await rig.call("react", {
      message_id: target.id,
      operation: "remove",
      reaction_id: String(added.reaction_id),
    });
    assert.equal(removed.status, "removed");
    assert.deepEqual(calls(rig.emu).slice(before), [
      `POST /open-apis/im/v1/messages/${target.messageId}/reactions`,
      `DELETE /open-apis/im/v1/messages/${target.messageId}/reactions/${added.reaction_id}`,
    ]);
  });

  // Whatever was tried, the group the hostile ids pointed at is still there,
  // nothing but a lookup touched a chat, and no request path carried a hostile segment.
  assert.ok(rig.emu.world.chats.has(D.team));
  const all = calls(rig.emu);
  assert.deepEqual(all.filter((c) => c.includes("/chats/") && !c.startsWith("GET ")), []);
  assert.deepEqual(all.filter((c) => /\.\.|%|\?|#/.test(c)), []);
});

/** Every file under `dir`, relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string): Promise<void> {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else out.push(relative(dir, p));
    }
  }
  await walk(dir);
  return out.sort();
}

Deno.test("an event whose message_id is a path ('../../..', 'a/b', '..') never writes outside attachments/, and a planted file stays untouched", async () => {
  await using emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-ids-" });
  const planted = join(workdir, "planted.txt");
  await Deno.writeTextFile(planted, "keep me");
  const bridge = await startBridge({ workdir, config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const before = await filesUnder(workdir);
    const hostile = ["../../..", "a/b", "..", "../../../planted.txt"];
    const bytes = new TextEncoder().encode("attacker bytes");
    for (const [i, messageId] of hostile.entries()) {
      emu.userSends({
        user: D.alice.openId,
        chat: D.aliceP2p,
        messageId,
        file: { bytes, name: i === 0 ? "planted.txt" : `f${i}.txt` },
      });
    }
    await bridge.updates.atLeast(hostile.length);
    const records = await bridge.records(D.aliceP2p);
    assert.equal(records.length, hostile.length);

    assert.equal(await Deno.readTextFile(planted), "keep me");
    const attachments = join("feishu", "main", "attachments");
    const added = (await filesUnder(workdir)).filter((f) => !before.includes(f));
    const written = added.filter((f) => f.startsWith(`${attachments}/`));
    // The store and the journal may add their own files under feishu/; nothing
    // else lands outside attachments/, and no attachment file outside it.
    for (const f of added.filter((f) => !written.includes(f))) {
      assert.ok(f.startsWith("feishu/") && !f.includes("attachments"), f);
      assert.notEqual(f, "planted.txt");
    }
    // Each downloaded file sits one folder deep inside attachments/.
    const downloaded = records.flatMap((r) => (r.attachments as Record<string, unknown>[]) ?? [])
      .filter((a) => a.status === "downloaded");
    // `..` cannot name a resource in a request path: its download is recorded as failed.
    assert.equal(downloaded.length, hostile.length - 1);
    for (const a of downloaded) {
      const rel = relative(join(workdir, attachments), String(a.path));
      assert.equal(rel.split("/").length, 2, rel);
      assert.ok(!rel.startsWith(".."), rel);
      assert.match(rel.split("/")[0]!, /^unsafe\.[0-9a-f]{32}$/);
      assert.deepEqual(await Deno.readFile(String(a.path)), bytes);
    }
    assert.equal(written.length, downloaded.length);
    const failed = records.flatMap((r) => (r.attachments as Record<string, unknown>[]) ?? [])
      .filter((a) => a.status === "failed");
    assert.equal(failed.length, 1);
    assert.match(String(failed[0]!.error), /message_id/);
  } finally {
    await bridge.close();
  }
});
