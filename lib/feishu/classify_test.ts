import assert from "node:assert/strict";
import { toFailure } from "../core/mod.ts";
import {
  classifyProviderFailure,
  classifyTransportFailure,
  PROVIDER_CODE_TABLE,
} from "./classify.ts";

const rows: [number, number, string, boolean][] = [
  // [code, http, error_code, retryable]
  [99991400, 429, "RATE_LIMITED", true],
  [230020, 400, "RATE_LIMITED", true],
  [11232, 400, "RATE_LIMITED", true],
  [99991402, 400, "RATE_LIMITED", true],
  [99991663, 401, "PERMISSION_DENIED", true],
  [99991661, 400, "PERMISSION_DENIED", true],
  [230011, 400, "TARGET_REVOKED", false],
  [231003, 400, "TARGET_REVOKED", false],
  [99992354, 400, "TARGET_REVOKED", false],
  [230002, 400, "TARGET_REVOKED", false],
  [230025, 400, "FORMAT_ERROR", false],
  [230001, 400, "FORMAT_ERROR", false],
  [230099, 400, "FORMAT_ERROR", false],
  [230022, 400, "FORMAT_ERROR", false],
  [230072, 400, "FORMAT_ERROR", false],
  [99991672, 403, "PERMISSION_DENIED", false],
  [99991679, 403, "PERMISSION_DENIED", false],
  [230003, 400, "PERMISSION_DENIED", false],
  [230027, 400, "PERMISSION_DENIED", false],
  [500, 500, "UNKNOWN", true],
  [55555, 500, "UNKNOWN", true],
  [424242, 200, "UNKNOWN", false],
];

for (const [code, http, want, retryable] of rows) {
  Deno.test(`classifyProviderFailure() maps ${code} to ${want} (retryable ${retryable})`, () => {
    const f = toFailure(
      classifyProviderFailure({ operation: "send", httpStatus: http, code, msg: "m" }),
    );
    assert.equal(f.error_code, want);
    assert.equal(f.retryable, retryable);
    assert.equal(f.error, `Feishu send failed: code=${code} msg=m`);
    assert.deepEqual(Object.keys(f).sort(), [
      "error",
      "error_code",
      "message",
      "retry_after_seconds",
      "retryable",
      "status",
    ]);
  });
}

Deno.test("classifyProviderFailure() lists no provider code in two rows", () => {
  const all = PROVIDER_CODE_TABLE.flatMap((r) => r.codes);
  assert.equal(new Set(all).size, all.length);
});

Deno.test("classifyProviderFailure() takes retry_after from x-ogw-ratelimit-reset before Retry-After", () => {
  const e = classifyProviderFailure({
    operation: "send",
    httpStatus: 429,
    code: 99991400,
    headers: { "X-Ogw-Ratelimit-Reset": "2", "retry-after": "9" },
  });
  assert.equal(e.retryAfterSeconds, 2);
  const r = classifyProviderFailure({
    operation: "add_reaction",
    code: 99991402,
    headers: { "Retry-After": "17" },
  });
  assert.deepEqual([r.code, r.retryable, r.retryAfterSeconds], ["RATE_LIMITED", true, 17]);
});

Deno.test("classifyProviderFailure() falls back to the HTTP status when the code is unknown", () => {
  const cases: [number, string][] = [[429, "RATE_LIMITED"], [403, "PERMISSION_DENIED"], [
    404,
    "TARGET_REVOKED",
  ], [
    400,
    "FORMAT_ERROR",
  ], [502, "UNKNOWN"]];
  for (const [status, want] of cases) {
    assert.equal(classifyProviderFailure({ operation: "send", httpStatus: status }).code, want);
  }
});

Deno.test("classifyProviderFailure() keeps the missing scope and grant link of a permission error", () => {
  const e = classifyProviderFailure({
    operation: "upload_image",
    httpStatus: 400,
    code: 99991672,
    msg:
      "Access denied. One of the following scopes is required: [im:resource:upload, im:resource].应用尚未开通所需的应用身份权限，点击链接申请：https://open.feishu.cn/app/cli_a/auth?q=im:resource:upload&op_from=openapi",
  });
  assert.equal(e.code, "PERMISSION_DENIED");
  assert.deepEqual(e.context.scopes, ["im:resource:upload", "im:resource"]);
  assert.equal(
    e.context.helpUrl,
    "https://open.feishu.cn/app/cli_a/auth?q=im:resource:upload&op_from=openapi",
  );
});

Deno.test("classifyProviderFailure() makes other upload and download errors UPLOAD_FAILED / DOWNLOAD_FAILED", () => {
  assert.equal(
    classifyProviderFailure({ operation: "upload_file", httpStatus: 400, code: 234001 }).code,
    "UPLOAD_FAILED",
  );
  assert.equal(
    classifyProviderFailure({ operation: "download_resource", httpStatus: 400, code: 234003 }).code,
    "DOWNLOAD_FAILED",
  );
  assert.equal(
    classifyProviderFailure({ operation: "upload_file", httpStatus: 429, code: 99991400 }).code,
    "RATE_LIMITED",
  );
});

Deno.test("classifyTransportFailure() calls a timed-out send indeterminate and other failures retryable", () => {
  const t = classifyTransportFailure(
    "send",
    Object.assign(new Error("timeout of 30000ms exceeded"), { code: "ECONNABORTED" }),
  );
  assert.deepEqual([t.code, t.retryable], ["SEND_TIMEOUT", false]);
  assert.match(t.message, /idempotency_key/);
  const r = classifyTransportFailure(
    "add_reaction",
    Object.assign(new Error("refused"), { code: "ECONNREFUSED" }),
  );
  assert.deepEqual([r.code, r.retryable], ["UNKNOWN", true]);
});

Deno.test("classifyProviderFailure() names a refused app secret PERMISSION_DENIED, not retryable", () => {
  const e = classifyProviderFailure({
    operation: "send",
    httpStatus: 400,
    code: 10014,
    msg: "app secret invalid",
  });
  assert.equal(e.code, "PERMISSION_DENIED");
  assert.equal(e.retryable, false);
});
