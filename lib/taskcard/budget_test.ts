import assert from "node:assert/strict";
import { WriteBudget } from "./budget.ts";

const HOUR = 3_600_000;
const budget = () => new WriteBudget({ activeMs: 24 * HOUR, retentionMs: 168 * HOUR });

Deno.test("routes count as active within the window, most recent first; idle past retention expire", () => {
  const b = budget();
  b.seen("a", 0);
  b.seen("b", 10 * HOUR);
  b.seen("b", 5 * HOUR); // never moves back
  assert.deepEqual(b.activeRoutes(20 * HOUR), ["b", "a"]);
  assert.equal(b.isActive("a", 24 * HOUR), true);
  assert.equal(b.isActive("a", 24 * HOUR + 1), false);
  assert.equal(b.isActive("unknown", 0), false);
  assert.deepEqual(b.activeRoutes(30 * HOUR), ["b"]);
  assert.deepEqual(b.expired(168 * HOUR + 1), ["a"]);
  assert.equal(b.retainedSince(168 * HOUR + 1), 1);
  b.forget("a");
  assert.deepEqual(b.expired(1000 * HOUR), ["b"]);
  assert.equal(b.size, 1);
});

Deno.test("a frame equal to the last one written is recognised; a dropped card forgets it", () => {
  const b = budget();
  assert.equal(b.unchanged("a", "frame"), false);
  assert.equal(b.writtenAt("a"), Number.NEGATIVE_INFINITY);
  b.written("a", "frame", 500);
  assert.equal(b.unchanged("a", "frame"), true);
  assert.equal(b.unchanged("a", "other"), false);
  assert.equal(b.writtenAt("a"), 500);
  b.written("a", null);
  assert.equal(b.unchanged("a", "frame"), false);
  assert.equal(b.writtenAt("a"), Number.NEGATIVE_INFINITY);
  // A dropped binding's card is remembered past forget (a new card must not reuse its uuid).
  b.written("a", "frame", 600);
  b.dropped("a", "main:oc_a:om_1");
  assert.equal(b.unchanged("a", "frame"), false);
  b.forget("a");
  assert.equal(b.droppedCard("a"), "main:oc_a:om_1");
  assert.equal(b.droppedCard("b"), null);
});

Deno.test("a card moves at most once per turn: at its end when superseded", () => {
  const b = budget();
  b.begin("a", false);
  assert.equal(b.rotateDue("a"), false, "a fresh card is edited in place during the turn");
  b.end("a", true);
  assert.equal(b.rotateDue("a"), true, "superseded at the end: it moves once");
  b.rotated("a", true);
  assert.equal(b.rotateDue("a"), false);
  // A turn whose card was not superseded at its end leaves it in place.
  b.begin("a", false);
  b.end("a", false);
  assert.equal(b.rotateDue("a"), false);
});

Deno.test("a stale card moves at the wake that opens a turn, and then not again in that turn", () => {
  const b = budget();
  b.begin("a", true);
  assert.equal(b.rotateDue("a"), true);
  b.rotated("a", true);
  b.begin("a", true); // another wake in the same turn changes nothing
  assert.equal(b.rotateDue("a"), false);
  b.end("a", true);
  assert.equal(b.rotateDue("a"), false, "already moved in this turn");
  // A move allowed but found needless (nothing below) does not use the turn's move.
  b.begin("a", true);
  b.rotated("a", false);
  b.end("a", true);
  assert.equal(b.rotateDue("a"), true);
  // Ending a turn that is not open changes nothing.
  b.rotated("a", true);
  b.end("a", true);
  assert.equal(b.rotateDue("a"), false);
});
