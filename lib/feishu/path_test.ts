import assert from "node:assert/strict";
import { createLogger } from "../core/mod.ts";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../emulator/mod.ts";
import { createFeishuApi } from "./client.ts";
import type { FeishuApi } from "./api.ts";

const quiet = createLogger({ sink: () => {} });

function apiOn(emu: Emulator): FeishuApi {
  return createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log: quiet,
    timeoutMs: 5000,
  });
}

/** The requests past the token call, as `METHOD path?query`. */
function calls(emu: Emulator): string[] {
  return emu.requests().filter((r) => !r.path.includes("/auth/")).map((r) => {
    const q = new URLSearchParams(r.query as Record<string, string>).toString();
    return `${r.method} ${r.path}${q ? `?${q}` : ""}`;
  });
}

async function failure(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("Expected the call to fail but it succeeded");
}

Deno.test("the REST wrapper encodes a hostile id into its own path segment on the intended endpoint, which answers not-found", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  const { messageId: target } = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: "x",
  });
  const body = { msgType: "text", content: JSON.stringify({ text: "hi" }) };
  const cases: [string, () => Promise<unknown>, string][] = [
    [
      "delete",
      () => api.deleteMessage("../chats/oc_emu_team"),
      "DELETE /open-apis/im/v1/messages/..%2Fchats%2Foc_emu_team",
    ],
    [
      "update",
      () => api.updateMessage({ messageId: "../chats/oc_emu_team", ...body }),
      "PUT /open-apis/im/v1/messages/..%2Fchats%2Foc_emu_team",
    ],
    [
      "patch",
      () => api.patchMessage({ messageId: "om_1#x", content: "{}" }),
      "PATCH /open-apis/im/v1/messages/om_1%23x",
    ],
    [
      "reply",
      () =>
        api.replyMessage({
          messageId: "../../contact/v3/users/ou_emu_alice",
          replyInThread: false,
          ...body,
        }),
      "POST /open-apis/im/v1/messages/..%2F..%2Fcontact%2Fv3%2Fusers%2Fou_emu_alice/reply",
    ],
    ["get", () => api.getMessage("%2e%2e"), "GET /open-apis/im/v1/messages/%252e%252e"],
    [
      "add reaction",
      () => api.addReaction("om_1?x=1", "SMILE"),
      "POST /open-apis/im/v1/messages/om_1%3Fx%3D1/reactions",
    ],
    [
      "remove reaction",
      () => api.removeReaction(target!, "rc/../../x"),
      `DELETE /open-apis/im/v1/messages/${target}/reactions/rc%2F..%2F..%2Fx`,
    ],
    [
      "user name",
      () => api.userName("../../im/v1/chats/oc_emu_team"),
      "GET /open-apis/contact/v3/users/..%2F..%2Fim%2Fv1%2Fchats%2Foc_emu_team?user_id_type=open_id",
    ],
    [
      "chat info",
      () => api.chatInfo("oc_emu_team/members"),
      "GET /open-apis/im/v1/chats/oc_emu_team%2Fmembers",
    ],
  ];
  for (const [name, run, expected] of cases) {
    const before = calls(emu).length;
    const err = await failure(run());
    const seen = calls(emu).slice(before);
    assert.deepEqual(seen, [expected], name);
    const record = emu.requests().at(-1)!;
    assert.notEqual(record.code, 0, `${name}: ${err.message}`);
    assert.equal(record.faulted ?? false, false);
  }
  // Nothing acted on the chat or the target message.
  assert.ok(emu.world.chats.has(D.team));
  assert.equal(emu.world.messages.get(target!)?.deleted, false);
});

Deno.test("the REST wrapper refuses an empty, `.` or `..` id (a URL parser would collapse it) with INVALID_ARGUMENT and sends nothing", async () => {
  await using emu = await startEmulator();
  const api = apiOn(emu);
  const { messageId: target } = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    text: "x",
  });
  for (const id of ["", ".", ".."]) {
    for (
      const [field, run] of [
        ["message_id", () => api.deleteMessage(id)],
        ["message_id", () => api.addReaction(id, "SMILE")],
        ["reaction_id", () => api.removeReaction(target!, id)],
        ["message_id", () => api.downloadResource(id, "file_v3_1", "file")],
        ["file_key", () => api.downloadResource(target!, id, "file")],
        ["chat_id", () => api.chatInfo(id)],
      ] as const
    ) {
      const err = await failure(run());
      assert.equal(err.code, "INVALID_ARGUMENT", `${field} ${JSON.stringify(id)}`);
      assert.match(err.message, new RegExp(field));
    }
  }
  assert.deepEqual(calls(emu), []);
});
