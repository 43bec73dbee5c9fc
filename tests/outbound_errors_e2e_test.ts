/**
 * End to end over stdio against the emulator: `react`, and how Feishu's
 * refusals come back to the agent — the stable failure shape, permission
 * errors with their scope and grant link, upload failures, rate limits with
 * Feishu's wait hint.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Emulator, RequestRecord } from "../lib/emulator/mod.ts";
import { D, type Rig, startRig } from "./_outbound.ts";

const SIX = ["status", "error", "message", "error_code", "retryable", "retry_after_seconds"];
const REACTIONS = "/open-apis/im/v1/messages/:id/reactions";

function writes(emu: Emulator): RequestRecord[] {
  return emu.requests().filter((r) => r.method !== "GET" && !r.path.includes("/auth/"));
}

function assertSixKeys(out: Record<string, unknown>): void {
  assert.deepEqual(Object.keys(out).sort(), [...SIX].sort());
  assert.equal(out.error, out.message);
}

Deno.test("outbound errors end to end: react, classified failures, scopes, uploads, rate limits", async (t) => {
  await using rig: Rig = await startRig();
  const target = await rig.inbound({ user: D.alice.openId, chat: D.aliceP2p, text: "react to me" });
  const react = (input: Record<string, unknown>) =>
    rig.call("react", { message_id: target.id, ...input });

  await t.step(
    "react input rules: each violation is INVALID_ARGUMENT naming its field, and no Feishu call",
    async () => {
      await rig.presenceDrained();
      const before = writes(rig.emu).length;
      for (
        const [input, problem] of [
          [{ operation: "add" }, "input.emoji_type: required when operation is 'add'"],
          [{ operation: "remove" }, "input.reaction_id: required when operation is 'remove'"],
          [
            { operation: "add", emoji_type: "SMILE", reaction_id: "r1" },
            "input.reaction_id: not allowed when operation is 'add'",
          ],
          [
            { operation: "remove", reaction_id: "r1", emoji_type: "SMILE" },
            "input.emoji_type: not allowed when operation is 'remove'",
          ],
          [{ operation: "add", emoji_type: "" }, "input.emoji_type: expected a non-empty string"],
        ] as const
      ) {
        const { details, accepted_keys, ...out } = await react(input);
        // A validation failure adds what to fix to the six keys.
        assertSixKeys(out);
        assert.equal(out.message, `invalid feishu input: ${problem}`);
        assert.ok(Array.isArray(details) && details.length > 0);
        assert.deepEqual(accepted_keys, ["message_id", "operation", "emoji_type", "reaction_id"]);
        assert.equal(out.error_code, "INVALID_ARGUMENT", JSON.stringify(input));
        assert.equal(out.retryable, false);
        assert.equal(out.retry_after_seconds, null);
      }
      assert.equal(writes(rig.emu).length, before);
    },
  );

  await t.step(
    "add then remove answer exactly, with one call each to the target's provider id",
    async () => {
      const calls = rig.emu.requests({ path: /\/reactions/ }).length;
      const added = await react({ operation: "add", emoji_type: "SMILE" });
      const reactionId = String(added.reaction_id);
      assert.deepEqual(added, {
        status: "added",
        message_id: target.id,
        reaction_id: reactionId,
        emoji_type: "SMILE",
      });
      assert.ok(rig.emu.reactions(target.messageId).some((r) => r.reactionId === reactionId));
      const removed = await react({ operation: "remove", reaction_id: reactionId });
      assert.deepEqual(removed, {
        status: "removed",
        message_id: target.id,
        reaction_id: reactionId,
      });
      const seen = rig.emu.requests({ path: /\/reactions/ }).slice(calls);
      assert.deepEqual(seen.map((r) => [r.method, r.path]), [
        ["POST", `/open-apis/im/v1/messages/${target.messageId}/reactions`],
        ["DELETE", `/open-apis/im/v1/messages/${target.messageId}/reactions/${reactionId}`],
      ]);
      assert.deepEqual(seen[0]!.body, { reaction_type: { emoji_type: "SMILE" } });
    },
  );

  const classified = [
    {
      row: "230003",
      respond: { code: 230003, msg: "no permission" },
      code: "PERMISSION_DENIED",
      retryable: false,
      after: null,
    },
    {
      row: "230001",
      respond: { code: 230001, msg: "invalid" },
      code: "FORMAT_ERROR",
      retryable: false,
      after: null,
    },
    {
      row: "99992354",
      respond: { code: 99992354, msg: "invalid message_id" },
      code: "TARGET_REVOKED",
      retryable: false,
      after: null,
    },
    {
      row: "99991402 with Retry-After: 17",
      respond: { code: 99991402, msg: "rate limited", headers: { "Retry-After": "17" } },
      code: "RATE_LIMITED",
      retryable: true,
      after: 17,
    },
  ];
  for (const c of classified) {
    await t.step(
      `provider code ${c.row} on react is ${c.code}, retryable ${c.retryable}, retry_after ${c.after}, six keys`,
      async () => {
        rig.emu.faults.add({ method: "POST", path: REACTIONS, times: 1, respond: c.respond });
        const out = await react({ operation: "add", emoji_type: "SMILE" });
        assertSixKeys(out);
        assert.equal(out.error_code, c.code);
        assert.equal(out.retryable, c.retryable);
        assert.equal(out.retry_after_seconds, c.after);
      },
    );
  }

  await t.step(
    "a rate-limited react add comes back after exactly one call, with x-ogw-ratelimit-reset as the wait",
    async () => {
      const before = rig.emu.requests({ method: "POST", path: REACTIONS }).length;
      rig.emu.faults.add({
        method: "POST",
        path: REACTIONS,
        times: 1,
        respond: {
          status: 429,
          code: 99991400,
          msg: "rate limited",
          headers: { "x-ogw-ratelimit-reset": "8" },
        },
      });
      const out = await react({ operation: "add", emoji_type: "SMILE" });
      assertSixKeys(out);
      assert.equal(out.error_code, "RATE_LIMITED");
      assert.equal(out.retryable, true);
      assert.equal(out.retry_after_seconds, 8);
      assert.equal(rig.emu.requests({ method: "POST", path: REACTIONS }).length, before + 1);
    },
  );

  await t.step(
    "a reaction on a recalled message is TARGET_REVOKED and never becomes a message",
    async () => {
      const gone = await rig.inbound({ user: D.alice.openId, chat: D.aliceP2p, text: "oops" });
      rig.emu.recall({ messageId: gone.messageId });
      const messages = rig.emu.messages(D.aliceP2p).length;
      const out = await rig.call("react", {
        message_id: gone.id,
        operation: "add",
        emoji_type: "OK",
      });
      assert.equal(out.error_code, "TARGET_REVOKED");
      assert.equal(rig.emu.messages(D.aliceP2p).length, messages);
    },
  );

  await t.step(
    "ARCH 10 a missing scope on send is PERMISSION_DENIED naming the scope and the grant link",
    async () => {
      const msg =
        "Access denied. One of the following scopes is required: [im:message:send_as_bot]. " +
        `应用尚未开通所需的应用身份权限 https://open.feishu.cn/app/${D.appId}/auth?q=im:message:send_as_bot`;
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: { code: 99991672, msg },
      });
      const out = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: "needs a scope",
      });
      assert.equal(out.error_code, "PERMISSION_DENIED");
      assert.equal(out.retryable, false);
      assert.deepEqual(out.missing_scopes, ["im:message:send_as_bot"]);
      assert.equal(
        out.help_url,
        `https://open.feishu.cn/app/${D.appId}/auth?q=im:message:send_as_bot`,
      );
      for (const k of SIX) assert.ok(k in out, k);
    },
  );

  await t.step(
    "ARCH 9 an upload Feishu refuses is UPLOAD_FAILED and no message is created; a missing upload scope is PERMISSION_DENIED",
    async () => {
      const path = join(rig.mediaDir, "pic.png");
      await Deno.writeFile(path, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
      const creates =
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
      rig.emu.faults.add({
        path: "/open-apis/im/v1/images",
        times: 1,
        respond: { code: 234001, msg: "Invalid request param." },
      });
      const failed = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        content: { type: "image", source: { type: "path", path } },
      });
      assertSixKeys(failed);
      assert.equal(failed.error_code, "UPLOAD_FAILED");
      assert.equal(failed.retryable, false);
      rig.emu.faults.add({
        path: "/open-apis/im/v1/files",
        times: 1,
        respond: {
          code: 99991672,
          msg: "Access denied. One of the following scopes is required: [im:resource].",
        },
      });
      const denied = await rig.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        content: { type: "file", source: { type: "path", path } },
      });
      assert.equal(denied.error_code, "PERMISSION_DENIED");
      assert.deepEqual(denied.missing_scopes, ["im:resource"]);
      assert.equal(
        rig.emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
        creates,
      );
    },
  );

  await t.step(
    "ARCH 10 a rate-limited send is RATE_LIMITED with retry_after_seconds from x-ogw-ratelimit-reset, and nothing is recorded",
    async () => {
      const records =
        ((await rig.call("read", { chat_id: D.bobP2p, limit: null })).messages as unknown[]).length;
      rig.emu.faults.add({
        method: "POST",
        path: "/open-apis/im/v1/messages",
        times: 1,
        respond: {
          status: 429,
          code: 99991400,
          msg: "request trigger frequency limit",
          headers: { "x-ogw-ratelimit-reset": "1" },
        },
      });
      const out = await rig.call("send", { receive_id: D.bob.openId, text: "hello?" });
      assertSixKeys(out);
      assert.equal(out.error_code, "RATE_LIMITED");
      assert.equal(out.retryable, true);
      assert.equal(out.retry_after_seconds, 1);
      assert.equal(
        ((await rig.call("read", { chat_id: D.bobP2p, limit: null })).messages as unknown[]).length,
        records,
      );
      // The pause is honoured, not turned into a failure: the next send waits and goes out.
      assert.equal(
        (await rig.call("send", { receive_id: D.bob.openId, text: "hello again" })).status,
        "sent",
      );
    },
  );
});
