import assert from "node:assert/strict";
import type { BindingRead, TaskCardRoute } from "../store/mod.ts";
import {
  composeFrame,
  type DeleteResult,
  deliverResident,
  type EditResult,
  type ResidentTransport,
  type SendResult,
} from "./resident.ts";

const ROUTE: TaskCardRoute = { account: "main", chatId: "oc_chat", threadId: null };

/** A transport that records every call and answers from a script. */
function scripted(init: {
  bound?: string | null;
  invalid?: string;
  superseded?: boolean;
  edit?: EditResult[];
  del?: DeleteResult;
  send?: SendResult;
  /** Binds this id during the delete (a peer replaced the card meanwhile). */
  peer?: string;
}) {
  const calls: string[] = [];
  let bound = init.bound ?? null;
  const edits = [...(init.edit ?? [])];
  const t: ResidentTransport = {
    binding(): BindingRead {
      calls.push("get");
      if (init.invalid) return { state: "invalid", reason: init.invalid };
      return bound ? { state: "bound", residentId: bound } : { state: "none" };
    },
    superseded() {
      calls.push("superseded");
      return init.superseded ?? false;
    },
    edit(_r, id, text) {
      calls.push(`edit ${id} ${text}`);
      return Promise.resolve(edits.shift() ?? { kind: "ok" });
    },
    delete(_r, id) {
      calls.push(`delete ${id}`);
      if (init.peer) bound = init.peer;
      return Promise.resolve(init.del ?? { kind: "ok" });
    },
    send(_r, text, replaces) {
      calls.push(`send ${text} replacing ${replaces}`);
      return Promise.resolve(init.send ?? { kind: "sent", residentId: "main:oc_chat:om_new" });
    },
    persist(_r, id) {
      calls.push(`persist ${id}`);
      bound = id;
      return true;
    },
  };
  return { t, calls };
}

Deno.test("a route without a card gets one only when creating, then it is bound", async () => {
  const none = scripted({});
  assert.equal(await deliverResident(none.t, ROUTE, "frame", false), null);
  assert.deepEqual(none.calls, ["get"]);
  const first = scripted({});
  const out = await deliverResident(first.t, ROUTE, "frame", true);
  assert.deepEqual(out, { status: "ok", message_id: "main:oc_chat:om_new", action: "sent" });
  assert.deepEqual(first.calls, [
    "get",
    "send frame replacing null",
    "persist main:oc_chat:om_new",
  ]);
});

Deno.test("a card that is still last is edited in place; a failed edit keeps it and does nothing else", async () => {
  const ok = scripted({ bound: "main:oc_chat:om_1" });
  assert.deepEqual(await deliverResident(ok.t, ROUTE, "v2", false), {
    status: "ok",
    message_id: "main:oc_chat:om_1",
    action: "edited",
  });
  assert.deepEqual(ok.calls, ["get", "superseded", "edit main:oc_chat:om_1 v2"]);
  const failed = scripted({
    bound: "main:oc_chat:om_1",
    edit: [{ kind: "failed", error: "boom" }],
  });
  assert.deepEqual(await deliverResident(failed.t, ROUTE, "v2", true), {
    status: "error",
    error: "boom",
  });
  assert.deepEqual(failed.calls, ["get", "superseded", "edit main:oc_chat:om_1 v2"]);
});

Deno.test("a superseded card rotates old-first: delete, re-read, send, bind", async () => {
  const s = scripted({ bound: "main:oc_chat:om_1", superseded: true });
  const out = await deliverResident(s.t, ROUTE, "v3", false);
  assert.deepEqual(out, { status: "ok", message_id: "main:oc_chat:om_new", action: "rotated" });
  assert.deepEqual(s.calls, [
    "get",
    "superseded",
    "delete main:oc_chat:om_1",
    "get",
    "send v3 replacing main:oc_chat:om_1",
    "persist main:oc_chat:om_new",
  ]);
});

Deno.test("a superseded card is edited in place when it may not move now", async () => {
  const s = scripted({ bound: "main:oc_chat:om_1", superseded: true });
  const out = await deliverResident(s.t, ROUTE, "v4", false, false);
  assert.deepEqual(out, { status: "ok", message_id: "main:oc_chat:om_1", action: "edited" });
  assert.deepEqual(s.calls, ["get", "edit main:oc_chat:om_1 v4"]);
});

Deno.test("a card found gone on edit is replaced by a new one", async () => {
  const s = scripted({
    bound: "main:oc_chat:om_1",
    edit: [{ kind: "gone" }],
    del: { kind: "gone" },
  });
  const out = await deliverResident(s.t, ROUTE, "v", false);
  assert.equal(out?.action, "rotated");
  assert.ok(!("old_resident_deleted" in out!));
});

Deno.test("a failed delete during rotation sends nothing", async () => {
  const s = scripted({
    bound: "main:oc_chat:om_1",
    superseded: true,
    del: { kind: "failed", error: "nope" },
  });
  assert.deepEqual(await deliverResident(s.t, ROUTE, "v", false), {
    status: "error",
    error: "nope",
    stale_delete_failed: true,
  });
  assert.ok(!s.calls.some((c) => c.startsWith("send") || c.startsWith("persist")));
});

Deno.test("a failed send after the delete says the route may have no card, and binds nothing", async () => {
  const s = scripted({
    bound: "main:oc_chat:om_1",
    superseded: true,
    send: { kind: "failed", error: "down", indeterminate: true },
  });
  assert.deepEqual(await deliverResident(s.t, ROUTE, "v", false), {
    status: "error",
    error: "down",
    old_resident_deleted: true,
    indeterminate_send: true,
  });
  assert.ok(!s.calls.some((c) => c.startsWith("persist")));
});

Deno.test("a card bound by someone else during the delete is edited instead of sending another", async () => {
  const s = scripted({
    bound: "main:oc_chat:om_1",
    superseded: true,
    peer: "main:oc_chat:om_peer",
  });
  assert.deepEqual(await deliverResident(s.t, ROUTE, "v", false), {
    status: "ok",
    message_id: "main:oc_chat:om_peer",
    action: "adopted",
  });
  assert.ok(!s.calls.some((c) => c.startsWith("send")));
});

Deno.test("an unreadable binding blocks the route: no transport call at all", async () => {
  const s = scripted({ invalid: "resident_id is not a compound id" });
  const out = await deliverResident(s.t, ROUTE, "v", true);
  assert.equal(out?.status, "error");
  assert.equal(out?.blocked, true);
  assert.match(out!.error!, /^Failed to update Feishu Task Card: resident_id/);
  assert.deepEqual(s.calls, ["get"]);
});

Deno.test("the programmable frame is composed under its heading", () => {
  assert.equal(composeFrame("automatic-v1", "watch-v1"), "automatic-v1\n\n— TASK CARD —\nwatch-v1");
  assert.equal(composeFrame("", "watch"), "— TASK CARD —\nwatch");
  assert.equal(composeFrame("auto", null), "auto");
});
