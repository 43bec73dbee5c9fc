import assert from "node:assert/strict";
import {
  CODE_TTL_MS,
  decide,
  emptyLedger,
  isPaired,
  MAX_PENDING,
  MAX_REPLIES,
  normaliseCode,
  type PairingRequest,
  pendingAt,
  requestCode,
  unpair,
} from "./ledger.ts";

let n = 0;
const codes = () => `code${String(++n).padStart(2, "0")}`;
const ask = (openId: string, atMs: number, messageId = `om_${++n}`): PairingRequest => ({
  openId,
  chatId: `oc_${openId}`,
  messageId,
  atMs,
});

Deno.test("limits: one hour per code, three live codes per account, two replies per person", () => {
  assert.equal(CODE_TTL_MS, 3_600_000);
  assert.equal(MAX_PENDING, 3);
  assert.equal(MAX_REPLIES, 2);
});

Deno.test("a person gets one code while it lives, a second after it expires, then silence", () => {
  let l = emptyLedger();
  const first = requestCode(l, ask("ou_x", 0), codes);
  assert.equal(first.outcome.kind, "code");
  l = first.ledger;
  const again = requestCode(l, ask("ou_x", CODE_TTL_MS - 1), codes);
  assert.deepEqual(again.outcome, { kind: "silent", reason: "already_pending" });
  const second = requestCode(again.ledger, ask("ou_x", CODE_TTL_MS), codes);
  assert.equal(second.outcome.kind, "code");
  l = second.ledger;
  const third = requestCode(l, ask("ou_x", 2 * CODE_TTL_MS), codes);
  assert.deepEqual(third.outcome, { kind: "silent", reason: "reply_limit" });
  assert.deepEqual(pendingAt(third.ledger, 2 * CODE_TTL_MS), []);
});

Deno.test("a replayed message gets its own code again, marked as a replay, and costs nothing", () => {
  const req = ask("ou_x", 0, "om_same");
  const first = requestCode(emptyLedger(), req, codes);
  const replay = requestCode(first.ledger, req, codes);
  assert.equal(replay.outcome.kind, "code");
  if (first.outcome.kind !== "code" || replay.outcome.kind !== "code") throw new Error();
  assert.equal(replay.outcome.code, first.outcome.code);
  assert.equal(replay.outcome.replay, true);
  assert.deepEqual(replay.ledger.replies, [{ open_id: "ou_x", count: 1 }]);
});

Deno.test("an account holds at most three live codes; a fourth person waits in silence", () => {
  let l = emptyLedger();
  for (const who of ["ou_a", "ou_b", "ou_c"]) l = requestCode(l, ask(who, 0), codes).ledger;
  const fourth = requestCode(l, ask("ou_d", 1), codes);
  assert.deepEqual(fourth.outcome, { kind: "silent", reason: "account_limit" });
  assert.deepEqual(fourth.ledger.replies.map((r) => r.open_id), ["ou_a", "ou_b", "ou_c"]);
  // Once those expire, the fourth person is answered.
  assert.equal(requestCode(l, ask("ou_d", CODE_TTL_MS), codes).outcome.kind, "code");
});

Deno.test("a new code never repeats a live one", () => {
  const l = requestCode(emptyLedger(), ask("ou_a", 0), () => "aaaaaa").ledger;
  const seq = ["aaaaaa", "aaaaaa", "bbbbbb"];
  const next = requestCode(l, ask("ou_b", 0), () => seq.shift()!);
  assert.deepEqual(next.ledger.pending.map((p) => p.code), ["aaaaaa", "bbbbbb"]);
});

Deno.test("approval pairs the person and resets their count; denial withdraws only the code", () => {
  const l = requestCode(emptyLedger(), ask("ou_x", 0), () => "k3f9qa").ledger;
  const denied = decide(l, "k3f9qa", "deny", { by: "ou_o", atMs: 1 });
  assert.deepEqual(denied.outcome, { kind: "denied", openId: "ou_x", chatId: "oc_ou_x" });
  assert.equal(isPaired(denied.ledger, "ou_x"), false);
  assert.deepEqual(denied.ledger.replies, [{ open_id: "ou_x", count: 1 }]);
  assert.deepEqual(decide(denied.ledger, "k3f9qa", "approve", { by: "ou_o", atMs: 2 }).outcome, {
    kind: "unknown",
  });

  const ok = decide(l, " `K3F9QA` ", "approve", { by: "ou_o", atMs: 5 });
  assert.equal(ok.outcome.kind, "approved");
  assert.deepEqual(ok.ledger.paired, [{ open_id: "ou_x", approved_by: "ou_o", approved_at_ms: 5 }]);
  assert.deepEqual(ok.ledger.pending, []);
  assert.deepEqual(ok.ledger.replies, []);
  assert.deepEqual(requestCode(ok.ledger, ask("ou_x", 6), codes).outcome, {
    kind: "silent",
    reason: "paired",
  });
});

Deno.test("an expired, unknown or malformed code is unknown and changes nothing", () => {
  const l = requestCode(emptyLedger(), ask("ou_x", 0), () => "k3f9qa").ledger;
  for (const [code, at] of [["k3f9qa", CODE_TTL_MS], ["zzzzzz", 1], ["k3f9q", 1], ["", 1]]) {
    const r = decide(l, code as string, "approve", { by: "ou_o", atMs: at as number });
    assert.deepEqual(r.outcome, { kind: "unknown" }, String(code));
    assert.equal(isPaired(r.ledger, "ou_x"), false);
  }
  assert.equal(normaliseCode("k3f9qa!"), null);
});

Deno.test("unpair removes the person with their codes and count, and says whether they were paired", () => {
  let l = requestCode(emptyLedger(), ask("ou_x", 0), () => "k3f9qa").ledger;
  l = decide(l, "k3f9qa", "approve", { by: "ou_o", atMs: 1 }).ledger;
  const out = unpair(l, "ou_x");
  assert.equal(out.removed, true);
  assert.deepEqual(out.ledger, emptyLedger());
  assert.equal(unpair(out.ledger, "ou_x").removed, false);
});
