/**
 * Sentences of the agent manual held to the code: each claim below is
 * looked for in `reference/manual.md` and checked against the function that
 * makes it true, so the two cannot drift apart unnoticed. (The end-to-end
 * suites prove the behaviour against the emulator; this file ties it to the
 * words the agent reads.)
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { checkReceiveId, requireMessageRecord } from "../lib/actions/_targets.ts";
import { DEFAULT_BOT_WAKES } from "../lib/config/mod.ts";
import { BridgeError } from "../lib/core/mod.ts";
import { shouldReact } from "../lib/inbound/admission.ts";
import type { StoredRecord } from "../lib/store/mod.ts";
import { REPO } from "./_server.ts";

const MANUAL = Deno.readTextFileSync(join(REPO, "reference", "manual.md")).replace(/\s+/g, " ");

/** The error code `run` throws, or null. */
function codeOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (err) {
    return err instanceof BridgeError ? err.code : "not a BridgeError";
  }
}

const sent = (flags: Record<string, unknown>) =>
  ({ kind: "sent", record: { id: "main:oc_1:om_1", ...flags } }) as unknown as StoredRecord;

Deno.test("manual: a send to the events conversation is INVALID_ARGUMENT before any request", () => {
  assert.ok(
    MANUAL.includes('A `send` to `receive_id: "events"` is `INVALID_ARGUMENT` before any request'),
  );
  assert.equal(codeOf(() => checkReceiveId("events", "chat_id")), "INVALID_ARGUMENT");
  assert.equal(codeOf(() => checkReceiveId("oc_1", "chat_id")), null);
});

Deno.test("manual: the bridge's own cards cannot be replied to, reacted to, edited or deleted", () => {
  assert.ok(MANUAL.includes("`task_card: true` (the chat's resident Task Card)"));
  assert.ok(MANUAL.includes("`local_command: true` (a control card answering a local command)"));
  assert.ok(
    MANUAL.includes(
      "`reply`, `react`, `edit` and `delete` on their ids are `INVALID_ARGUMENT` before any request",
    ),
  );
  // reply, edit and delete check the stored record with this function; react too.
  for (const flags of [{ task_card: true }, { local_command: true }]) {
    assert.equal(
      codeOf(() => requireMessageRecord(sent(flags), "main:oc_1:om_1")),
      "INVALID_ARGUMENT",
    );
  }
  assert.equal(codeOf(() => requireMessageRecord(sent({}), "main:oc_1:om_1")), null);
});

Deno.test("manual: every admitted message asks for the chat's Typing, which sits on the newest pending one", () => {
  assert.ok(MANUAL.includes("`Typing` on the newest pending message of a chat"));
  const message = (id: string) => ({
    event: {
      sender: { sender_id: { open_id: "ou_a" } },
      message: { message_id: id, chat_id: "oc_1", chat_type: "p2p" },
    },
  });
  // A second pending message asks for the Typing as the first did (presence moves it there).
  for (const id of ["om_1", "om_2"]) assert.equal(shouldReact(message(id)).typing, true);
});

Deno.test("the manual's loop guard numbers are the defaults", () => {
  const { max, windowSeconds } = DEFAULT_BOT_WAKES;
  const claim = `at most ${max} bot messages wake you within any ${windowSeconds / 60} minutes`;
  assert.ok(MANUAL.includes(claim), claim);
});
