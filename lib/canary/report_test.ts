import assert from "node:assert/strict";
import type { CheckResult } from "./checks.ts";
import { OutputGuard, renderJson, renderTable, WITHHELD } from "./report.ts";

const SECRET = "app-secret-0123456789";
const TOKEN = "t-g1044qeGEDXTB6NDJOXFLZ";

function guard(): OutputGuard {
  const g = new OutputGuard();
  g.addSecret(SECRET);
  return g;
}

const leaky: CheckResult[] = [
  { name: "config", status: "pass", detail: `secret ${SECRET}`, evidence: { token: TOKEN } },
  {
    name: "long_connection",
    status: "fail",
    detail: "wss://host/ws?ticket=abc123&device_id=1 closed",
    fix: `line one\nBearer ${TOKEN}`,
  },
];

Deno.test("renderTable() shows neither a configured secret nor a tenant token nor a ticket", () => {
  const out = renderTable(leaky, guard());
  assert.ok(!out.includes(SECRET) && !out.includes(TOKEN) && !out.includes("abc123"), out);
  assert.match(out, /^feishu-mcp canary: FAIL \(1 passed, 1 failed, 0 skipped\)/);
  assert.match(out, /long_connection FAIL {3}wss:\/\/host\/ws\?ticket=\[REDACTED\]/);
  assert.match(out, /fix: line one\n {28}Bearer \[REDACTED\]/);
});

Deno.test("renderJson() redacts every string and stays one valid JSON object", () => {
  const out = renderJson(leaky, guard());
  assert.ok(!out.includes(SECRET) && !out.includes(TOKEN) && !out.includes("abc123"), out);
  assert.equal(out.trim().split("\n").length, 1);
  const parsed = JSON.parse(out);
  assert.equal(parsed.ok, false);
  assert.deepEqual(parsed.checks.map((c: CheckResult) => c.status), ["pass", "fail"]);
});

Deno.test("OutputGuard refuses a string the redactor would leave a secret in", () => {
  const g = new OutputGuard();
  // Shorter than the redactor's minimum, so only the last line of defence catches it.
  g.addSecret("xyz");
  assert.equal(g.clean("a xyz b"), WITHHELD);
  assert.equal(g.clean("plain words"), "plain words");
});

Deno.test("renderJson() says ok only when every check passed", () => {
  const pass: CheckResult = { name: "config", status: "pass", detail: "ok" };
  const skip: CheckResult = { name: "dm", status: "skip", detail: "skipped" };
  assert.equal(JSON.parse(renderJson([pass], guard())).ok, true);
  assert.equal(JSON.parse(renderJson([pass, skip], guard())).ok, false);
  assert.equal(JSON.parse(renderJson([], guard())).ok, false);
});
