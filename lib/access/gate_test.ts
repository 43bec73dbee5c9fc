import assert from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
import { admittedSet, checkChat, checkSendTarget, type GatedAccount } from "./gate.ts";

const ADMITTED = ["ou_owner", "ou_paired"];
function account(outbound: "any" | "admitted"): GatedAccount {
  return {
    alias: "main",
    access: { dm: "pairing", outbound },
    admits: (id) => ADMITTED.includes(id),
    admittedIds: () => [...ADMITTED],
  };
}
/** The store knows only oc_known, where ou_paired wrote. */
const knows = (_alias: string, chatId: string, ids: readonly string[]) =>
  chatId === "oc_known" && ids.includes("ou_paired");

function refusal(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof BridgeError);
    assert.equal(err.code, "TARGET_NOT_ALLOWED");
    assert.equal(err.retryable, false);
    return err.message;
  }
  throw new Error("Expected TARGET_NOT_ALLOWED but the target passed");
}

Deno.test("with outbound any, nothing is checked", () => {
  checkSendTarget(account("any"), knows, "ou_stranger", "open_id");
  checkSendTarget(account("any"), knows, "a@b.example", "email");
  checkChat(account("any"), knows, "oc_unknown");
});

Deno.test("with outbound admitted, open_ids must be admitted and the message names the rule", () => {
  checkSendTarget(account("admitted"), knows, "ou_paired", "open_id");
  const message = refusal(() => checkSendTarget(account("admitted"), knows, "ou_x", "open_id"));
  assert.match(message, /^access\.outbound is "admitted": ou_x is not an owner, allowed or paired/);
});

Deno.test("with outbound admitted, a chat must know an admitted person; other id types are refused", () => {
  checkSendTarget(account("admitted"), knows, "oc_known", "chat_id");
  checkChat(account("admitted"), knows, "oc_known");
  assert.match(refusal(() => checkChat(account("admitted"), knows, "oc_other")), /oc_other/);
  for (const type of ["email", "user_id", "union_id"]) {
    assert.match(
      refusal(() => checkSendTarget(account("admitted"), knows, "someone", type)),
      new RegExp(`a ${type} target cannot be checked`),
    );
  }
});

Deno.test("the admitted set joins owners, allowed users and paired people, without empty ids", () => {
  assert.deepEqual([...admittedSet(["ou_o", ""], null, ["ou_p", "ou_o"])], ["ou_o", "ou_p"]);
});
