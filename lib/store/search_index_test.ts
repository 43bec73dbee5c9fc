import assert from "node:assert/strict";
import fc from "fast-check";
import { incomingRecord } from "./testdata/records.ts";
import { withStore } from "./testdata/stores.ts";
import type { Store } from "./mod.ts";
import { requiredPieces } from "./search_plan.ts";

// Texts and patterns over characters where case folding is tricky (a sharp s
// and its capital, a long s, the Kelvin sign, accented letters, CJK), so the
// index and the regex disagree wherever they can.
const CHARS = [
  "a",
  "b",
  "c",
  "A",
  "B",
  "ß",
  "ẞ",
  "ſ",
  "s",
  "S",
  "k",
  "K",
  "K",
  "é",
  "É",
  "你",
  " ",
];
const word = fc.array(fc.oneof(fc.constantFrom(...CHARS), fc.constantFrom("a", "b", " ")), {
  maxLength: 12,
})
  .map((xs) => xs.join(""));
const atom = fc.oneof(
  fc.constantFrom(...CHARS.filter((c) => c !== " ")),
  fc.constantFrom(" ", ".", String.raw`\s`, "[ab]", "(a|b)", String.raw`\x61`),
);
const quantified = fc.tuple(atom, fc.constantFrom("", "", "", "?", "+", "*"))
  .map(([a, q]) => a + q);
const randomPattern = fc.array(quantified, { minLength: 1, maxLength: 8 })
  .map((xs) => xs.join(""));

/** A pattern around a piece of one stored text (case swapped), so the index finds rows. */
const patternFrom = (texts: string[]) =>
  fc.tuple(
    fc.array(quantified, { maxLength: 1 }),
    fc.nat(),
    fc.nat(),
    fc.integer({ min: 3, max: 5 }),
    fc.boolean(),
    fc.array(quantified, { maxLength: 1 }),
  ).map(([before, which, at, length, upper, after]) => {
    const text = texts.length ? texts[which % texts.length]! : "abc";
    const start = text.length ? at % text.length : 0;
    const piece = text.slice(start, start + length).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return before.join("") + (upper ? piece.toUpperCase() : piece) + after.join("");
  });

interface Row {
  chat: number;
  sender: number;
  text: string;
}

function fill(store: Store, rows: Row[], names: string[]): void {
  store.db.exec("DELETE FROM records; DELETE FROM contacts");
  names.forEach((name, i) => store.contacts.put("main", `ou_${i}`, { name }));
  rows.forEach((r, n) => {
    const chat = `oc_${r.chat}`;
    const id = `main:${chat}:om_${n}`;
    store.records.insert({
      account: "main",
      id,
      chatId: chat,
      direction: "incoming",
      kind: "message",
      createTime: n % 7,
      fromOpenId: `ou_${r.sender}`,
      record: incomingRecord(`om_${n}`, {
        id,
        chat_id: chat,
        text: r.text,
        from_open_id: `ou_${r.sender}`,
        from_name: null,
      }),
    });
  });
}

/** The search as a scan of every incoming record: what the index must not change. */
function scan(store: Store, pattern: string, chatId: string | null): string[] {
  const names = new Map(
    store.db.prepare("SELECT open_id, name FROM contacts").all().map((r) => [
      String(r.open_id),
      String(r.name ?? ""),
    ]),
  );
  const re = new RegExp(pattern, "i");
  return store.db.prepare(
    `SELECT id, from_open_id, search_text, chat_id FROM records
     ORDER BY create_time DESC, seq DESC`,
  ).all().filter((r) => chatId === null || r.chat_id === chatId).filter((r) => {
    const name = names.get(String(r.from_open_id)) ?? "";
    return re.test(name ? `${r.search_text} ${name}` : String(r.search_text));
  }).map((r) => String(r.id));
}

Deno.test("search through the trigram index finds exactly what a scan finds", () =>
  withStore(async (store) => {
    let indexed = 0;
    let found = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ chat: fc.nat(2), sender: fc.nat(3), text: word }), { maxLength: 30 })
          .chain((rows) =>
            fc.tuple(
              fc.constant(rows),
              fc.oneof(
                { arbitrary: randomPattern, weight: 1 },
                { arbitrary: patternFrom(rows.map((r) => r.text)), weight: 3 },
              ),
            )
          ),
        fc.array(word, { minLength: 4, maxLength: 4 }),
        fc.option(fc.nat(2)),
        async ([rows, p], names, chat) => {
          try {
            new RegExp(p, "i");
          } catch {
            return;
          }
          fill(store, rows, names);
          const chatId = chat === null ? null : `oc_${chat}`;
          const out = await store.searcher.search({
            account: "main",
            chatId,
            pattern: p,
            cap: 100,
          });
          const want = scan(store, p, chatId);
          if (requiredPieces(p).length > 0) {
            indexed++;
            if (want.length > 0) found++;
          }
          assert.equal(out.total, want.length, p);
          assert.deepEqual(out.records.map((r) => r.id), want, p);
        },
      ),
      { numRuns: 800 },
    );
    // The property must have exercised the index, not only the scan.
    assert.ok(indexed > 150 && found > 30, `${indexed} patterns had pieces, ${found} found rows`);
  }));
