import assert from "node:assert/strict";
import { BOT_OPEN_ID, mention, receiveEnvelope } from "../testdata/envelopes.ts";
import { normaliseMessage } from "./normalise.ts";

const ctx = { alias: "main", botOpenId: BOT_OPEN_ID, nowMs: 1785748503000 };

function normalise(messageType: string, content: unknown, mentions?: unknown[]) {
  const out = normaliseMessage(
    receiveEnvelope({ messageType, content, mentions, chatType: "group" }),
    ctx,
  );
  assert.ok(out);
  return out;
}

const post = (...els: unknown[]) => ({ title: "", content: [els] });
const keys = (out: ReturnType<typeof normalise>) => out.record.mentions.map((m) => m.key);

Deno.test("normaliseMessage() reads a post's unresolvable <at> as its visible name, with no mention entry", () => {
  const out = normalise(
    "post",
    post({ tag: "at", user_id: "@_user_1", user_name: "Tom" }, { tag: "text", text: " hi" }),
  );
  assert.equal(out.record.text, "@Tom hi");
  assert.equal(out.record.content.kind === "post" && out.record.content.text, "@Tom hi");
  assert.deepEqual(out.record.mentions, []);
});

Deno.test("normaliseMessage() reads a post's unresolvable nameless <at> as @user", () => {
  const out = normalise(
    "post",
    post({ tag: "at", user_id: "@_user_1" }, { tag: "text", text: " hi" }),
  );
  assert.equal(out.record.text, "@user hi");
  assert.deepEqual(out.record.mentions, []);
});

Deno.test("normaliseMessage() invents no mention entry for an <at> by an id missing from mentions", () => {
  const out = normalise(
    "post",
    post(
      { tag: "at", user_id: "ou_carol", user_name: "Carol" },
      { tag: "md", text: ' and <at user_id="ou_dan">Dan</at>' },
    ),
  );
  assert.equal(out.record.text, "@Carol and @Dan");
  assert.deepEqual(out.record.mentions, []);
});

Deno.test("normaliseMessage() still resolves a post's <at> by key or by open_id against mentions", () => {
  const out = normalise(
    "post",
    post(
      { tag: "at", user_id: "@_user_1", user_name: "stale" },
      { tag: "text", text: " " },
      { tag: "at", user_id: "ou_ann", user_name: "Ann" },
      { tag: "text", text: " " },
      { tag: "at", user_id: "all", user_name: "所有人" },
    ),
    [mention("@_user_1", "ou_bo", "Bo"), mention("@_user_2", "ou_ann", "Ann")],
  );
  assert.equal(out.record.text, "@Bo @Ann @all");
  assert.deepEqual(keys(out), ["@_user_1", "@_user_2"]);
});

Deno.test("normaliseMessage() reads a text's mention key missing from mentions as @user", () => {
  const out = normalise("text", { text: "@_user_1 ask @_user_10 and @_user_2 @_all" }, [
    mention("@_user_1", "ou_ann", "Ann"),
  ]);
  assert.equal(out.record.text, "@Ann ask @user and @user @all");
  assert.deepEqual(out.record.content, { kind: "text", text: out.record.text });
  assert.deepEqual(keys(out), ["@_user_1"]);
});

Deno.test("normaliseMessage() still drops the bot's own resolved mention from text", () => {
  const out = normalise("text", { text: "@_user_1 hi @_user_3" }, [
    mention("@_user_1", BOT_OPEN_ID, "Bot"),
  ]);
  assert.equal(out.record.text, "hi @user");
  assert.deepEqual(keys(out), ["@_user_1"]);
});
