import assert from "node:assert/strict";
import { FEISHU_ACTIONS } from "./actions.ts";
import { ACTION_DESCRIPTION, TOOL_DESCRIPTION } from "./descriptions.ts";

/** Where each `name:` clause starts in the action description. */
function clauseStarts(): number[] {
  return FEISHU_ACTIONS.map((a) => ACTION_DESCRIPTION.search(new RegExp(`(^|\\s)${a}:`)));
}

Deno.test("ACTION_DESCRIPTION gives one clause per action, in canonical order", () => {
  const starts = clauseStarts();
  assert.ok(starts.every((i) => i >= 0), JSON.stringify(starts));
  assert.deepEqual([...starts].sort((a, b) => a - b), starts);
});

Deno.test("ACTION_DESCRIPTION puts the progress-card guidance before the manual line, which comes last", () => {
  const manual = clauseStarts().at(-1)!;
  const guidance = ACTION_DESCRIPTION.indexOf("placeholder true");
  assert.ok(guidance > clauseStarts().at(-2)! && guidance < manual);
  assert.match(ACTION_DESCRIPTION.slice(manual), /^ manual: .*'feishu-mcp-manual'/);
});

Deno.test("ACTION_DESCRIPTION names idempotency_key for send and reply only", () => {
  const starts = clauseStarts();
  const clause = (i: number) => ACTION_DESCRIPTION.slice(starts[i], starts[i + 1]);
  FEISHU_ACTIONS.forEach((action, i) => {
    const want = action === "send" || action === "reply";
    assert.equal(clause(i).includes("idempotency_key"), want, action);
  });
});

Deno.test("TOOL_DESCRIPTION mentions every action and the operator's ownership", () => {
  for (const action of FEISHU_ACTIONS) assert.ok(TOOL_DESCRIPTION.includes(action), action);
  assert.match(TOOL_DESCRIPTION, /must never try to reconfigure it/);
});
