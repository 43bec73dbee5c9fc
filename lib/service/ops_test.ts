import assert from "node:assert/strict";
import { createLogger, ManualClock } from "../core/mod.ts";
import { journalPath, openJournal } from "../journal/mod.ts";
import { openStore } from "../store/mod.ts";
import { createJournalInspector } from "./ops.ts";

Deno.test("createJournalInspector() persists each read for doctor, errors cleaned, and a last read on close", async () => {
  const workdir = await Deno.makeTempDir();
  const clock = new ManualClock(Date.UTC(2025, 0, 10));
  const log = createLogger({ sink: () => {} });
  const path = journalPath(workdir);
  // One attempt allowed and a handler that always fails: the entry is dead-lettered.
  const first = await openJournal({ path, clock, log, maxAttempts: 1 });
  first.start(() => {
    throw new Error("handler refused the event with s3cret");
  });
  await first.admit({ account: "main", chatKey: "oc_1", dedupeKeys: ["e1", "m1"], payload: {} });
  await first.idle();
  await first.close();
  // Unstarted: what it admits waits.
  await using journal = await openJournal({ path, clock, log });
  await journal.admit({ account: "main", chatKey: "oc_2", dedupeKeys: ["e2"], payload: {} });
  await journal.admit({ account: "main", chatKey: "oc_2", dedupeKeys: ["e3"], payload: {} });
  const store = openStore(workdir, clock);
  try {
    const inspector = createJournalInspector({
      journal,
      clock,
      log,
      redact: (t) => t.replaceAll("s3cret", "[REDACTED]"),
      sink: store.journalFigures,
    });
    await inspector.refresh();
    const written = store.journalFigures.get();
    assert.equal(written?.updatedAt, clock.now());
    assert.deepEqual(written?.figures, {
      pending: 2,
      fifo: [{ account: "main", chat: "oc_2", depth: 2, attempts: 0, last_error: null }],
      dead_letter_count: 1,
      dead_letters: [{
        account: "main",
        chat: "oc_1",
        seq: written!.figures.dead_letters[0]!.seq,
        attempts: 1,
        error: "Error: handler refused the event with [REDACTED]",
        admitted_at: "2025-01-10T00:00:00.000Z",
        dead_at: "2025-01-10T00:00:00.000Z",
      }],
      dedupe_keys: 4,
    });
    assert.deepEqual(inspector.figures()?.dead_letter_reasons, [
      { error: "Error: handler refused the event with [REDACTED]", count: 1 },
    ]);

    await journal.admit({ account: "main", chatKey: "oc_3", dedupeKeys: ["e4"], payload: {} });
    clock.advance(500);
    await inspector.close();
    const last = store.journalFigures.get();
    assert.equal(last?.updatedAt, clock.now());
    assert.equal(last?.figures.pending, 3);
    assert.equal(last?.figures.dedupe_keys, 5);
  } finally {
    store.close();
  }
  await Deno.remove(workdir, { recursive: true });
});

Deno.test("createJournalInspector() without a sink writes nothing", async () => {
  const workdir = await Deno.makeTempDir();
  const clock = new ManualClock(0);
  const log = createLogger({ sink: () => {} });
  await using journal = await openJournal({ path: journalPath(workdir), clock, log });
  const store = openStore(workdir, clock);
  try {
    const inspector = createJournalInspector({ journal, clock, log });
    await inspector.refresh();
    assert.equal(inspector.figures()?.dedupe_keys, 0);
    await inspector.close();
    assert.equal(store.journalFigures.get(), null);
    assert.equal(clock.pendingSleeps(), 0);
  } finally {
    store.close();
  }
  await Deno.remove(workdir, { recursive: true });
});
