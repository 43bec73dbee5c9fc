/**
 * End to end, the tenant token's life: Feishu revokes the token mid-run and
 * the next send goes out after exactly one new token request; when no token
 * can be had (the token endpoint refuses the app), a send fails with a final
 * PERMISSION_DENIED, and the status resource and `doctor` name the auth state.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";
import { BUNDLED, ENTRY, REPO } from "./_server.ts";

type Rec = Record<string, unknown>;

const TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";
const tokenRequests = (emu: Emulator) => emu.requests({ path: TOKEN_PATH }).length;

async function doctorJson(workdir: string): Promise<Rec> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-env",
      ...(BUNDLED ? ["--no-config"] : []),
      ENTRY,
      "doctor",
      "--config",
      join(workdir, "config.json"),
      "--workdir",
      workdir,
      "--json",
    ],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("a revoked token is replaced once; a token Feishu will not issue is a final PERMISSION_DENIED that status and doctor name", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  let closed = false;
  try {
    await emu.ws.whenReady();
    const send = (text: string) =>
      bridge.call("send", {
        receive_id: D.aliceP2p,
        receive_id_type: "chat_id",
        content: { type: "text", text },
      });
    assert.equal((await send("first")).status, "sent");

    emu.faults.revokeTokens();
    const before = tokenRequests(emu);
    const after = await send("after the revocation");
    assert.equal(after.status, "sent", JSON.stringify(after));
    assert.equal(tokenRequests(emu) - before, 1);
    const texts = emu.messages(D.aliceP2p).filter((m) => m.sender.type === "app")
      .map((m) => JSON.parse(m.content).text);
    assert.deepEqual(texts, ["first", "after the revocation"]);
    const ok = (await bridge.account()).auth as Rec;
    assert.equal(ok.state, "ok");
    assert.equal(ok.refreshes, 1);
    assert.equal(ok.summary, null);

    // Revoked again, and the token endpoint now refuses the app's secret.
    emu.faults.revokeTokens();
    emu.faults.add({
      method: "POST",
      path: TOKEN_PATH,
      respond: { code: 10014, msg: "app secret invalid" },
    });
    const refused = await send("no token");
    assert.equal(refused.status, "failed");
    assert.equal(refused.error_code, "PERMISSION_DENIED");
    assert.equal(refused.retryable, false);
    assert.match(String(refused.message), /token request refused: app secret invalid/);
    const status = await bridge.status();
    const auth = ((status.accounts as Rec[])[0]!).auth as Rec;
    assert.equal(auth.state, "token_request_failed");
    assert.match(String(auth.summary), /^auth: token request failed at \d{4}-[^ ]+Z \(.*10014/);
    assert.ok((status.notes as string[]).includes(`account main: ${auth.summary}`));

    // Stopping writes the final health snapshot, auth state included.
    await bridge.close();
    closed = true;
    const report = await doctorJson(bridge.server.workdir);
    assert.equal(report.healthy, false);
    assert.ok(
      (report.attention as string[]).includes(`account main: ${auth.summary}`),
      JSON.stringify(report.attention),
    );
    assert.equal(((report.connections as Rec[])[0]!).auth_state, auth.summary);
  } finally {
    if (!closed) await bridge.close();
  }
});
