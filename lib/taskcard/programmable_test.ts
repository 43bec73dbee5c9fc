import assert from "node:assert/strict";
import { join } from "node:path";
import { BODY_LIMIT, readProgrammableSlot } from "./programmable.ts";

/** A temp workdir; `status`/`body` are written under `taskcard/` when given. */
async function workdir(status?: string | Uint8Array, body?: string) {
  const dir = await Deno.makeTempDir({ prefix: "taskcard-slot-" });
  const card = join(dir, "taskcard");
  if (status !== undefined || body !== undefined) await Deno.mkdir(card);
  if (typeof status === "string") await Deno.writeTextFile(join(card, "status"), status);
  else if (status !== undefined) await Deno.writeFile(join(card, "status"), status);
  if (body !== undefined) await Deno.writeTextFile(join(card, "taskcard.md"), body);
  return {
    dir,
    card,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("an active slot yields its body as written, untrimmed", async () => {
  await using w = await workdir("active", "  one truthful frame\n");
  assert.deepEqual(await readProgrammableSlot(w.dir), {
    state: "active",
    body: "  one truthful frame\n",
  });
});

Deno.test("exactly `inactive` takes the slot away; near misses change nothing", async () => {
  await using w = await workdir("inactive", "old body");
  assert.deepEqual(await readProgrammableSlot(w.dir), { state: "inactive" });
  for (const status of ["inactive\n", " inactive", "INACTIVE"]) {
    await Deno.writeTextFile(join(w.card, "status"), status);
    assert.deepEqual(await readProgrammableSlot(w.dir), { state: "none" }, status);
  }
});

Deno.test("a status other than the two exact words is no change", async () => {
  await using w = await workdir("paused", "body");
  assert.deepEqual(await readProgrammableSlot(w.dir), { state: "none" });
  for (const status of ["active\n", "active ", "", "active".padEnd(100, "x")]) {
    await Deno.writeTextFile(join(w.card, "status"), status);
    assert.deepEqual(await readProgrammableSlot(w.dir), { state: "none" }, JSON.stringify(status));
  }
});

Deno.test("a status that is not valid UTF-8 is no change", async () => {
  await using w = await workdir(new Uint8Array([0x61, 0x63, 0xff]), "body");
  assert.deepEqual(await readProgrammableSlot(w.dir), { state: "none" });
});

Deno.test("an active slot with a whitespace-only or missing body is no change", async () => {
  await using w = await workdir("active", " \n\t\u3000\n");
  assert.deepEqual(await readProgrammableSlot(w.dir), { state: "none" });
  await Deno.remove(join(w.card, "taskcard.md"));
  assert.deepEqual(await readProgrammableSlot(w.dir), { state: "none" });
});

Deno.test("a long body is cut to exactly 3500 code points", async () => {
  await using w = await workdir("active", "a".repeat(4000));
  const slot = await readProgrammableSlot(w.dir);
  assert.ok(slot.state === "active");
  assert.equal(slot.body, "a".repeat(BODY_LIMIT));

  await Deno.writeTextFile(join(w.card, "taskcard.md"), "📋".repeat(20_000));
  const astral = await readProgrammableSlot(w.dir);
  assert.ok(astral.state === "active");
  assert.equal(Array.from(astral.body).length, 3500);
  assert.equal(astral.body, "📋".repeat(3500));

  // The bounded read ends inside an emoji here: that must not count as invalid UTF-8.
  await Deno.writeTextFile(join(w.card, "taskcard.md"), "x" + "📋".repeat(20_000));
  assert.deepEqual(await readProgrammableSlot(w.dir), {
    state: "active",
    body: "x" + "📋".repeat(3499),
  });

  const exact = "é".repeat(3500);
  await Deno.writeTextFile(join(w.card, "taskcard.md"), exact);
  assert.deepEqual(await readProgrammableSlot(w.dir), { state: "active", body: exact });
});

Deno.test("a missing taskcard directory, or a body that is a directory, is no change", async () => {
  await using none = await workdir();
  assert.deepEqual(await readProgrammableSlot(none.dir), { state: "none" });
  assert.deepEqual(await readProgrammableSlot(join(none.dir, "no-such-agent")), { state: "none" });

  await using dirBody = await workdir("active");
  await Deno.mkdir(join(dirBody.card, "taskcard.md"));
  assert.deepEqual(await readProgrammableSlot(dirBody.dir), { state: "none" });

  await using dirStatus = await workdir();
  await Deno.mkdir(join(dirStatus.card, "status"), { recursive: true });
  assert.deepEqual(await readProgrammableSlot(dirStatus.dir), { state: "none" });
});
