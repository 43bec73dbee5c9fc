/**
 * The inbound fixture corpus (`tests/fixtures/events/`): one event envelope
 * per Feishu message type and passive event the bridge reads, each with the
 * result it must give. Every fixture goes through the real normaliser (or the
 * passive projection) and must match exactly; the corpus must cover every
 * type the capability matrix promises, every registered converter and every
 * passive event type, so a new shape is one fixture away.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { normaliseMessage } from "../lib/inbound/mod.ts";
import { EVENT_TYPES, projectPassiveEvent } from "../lib/inbound/events.ts";
import { CONVERTERS } from "../lib/inbound/normalise/registry.ts";
import type { RawEnvelope } from "../lib/feishu/mod.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const DIR = join(REPO, "tests", "fixtures", "events");
const RECEIVE = "im.message.receive_v1";
/** The bot of every fixture: its mentions are `is_bot` and dropped from `text`. */
const BOT_OPEN_ID = "ou_0b7e5c2a9d14f36e8a51c07d92b4e6f1";
/** One second after the fixtures' `create_time`, so none reads as delayed. */
const NOW_MS = 1785748503000;

interface Fixture {
  name: string;
  event: RawEnvelope;
  expect: Record<string, unknown>;
}

function loadFixtures(): Fixture[] {
  const names = [...Deno.readDirSync(DIR)]
    .filter((e) => e.isFile && e.name.endsWith(".json"))
    .map((e) => e.name)
    .sort();
  return names.map((file) => {
    const raw = JSON.parse(Deno.readTextFileSync(join(DIR, file)));
    assert.equal(typeof raw?.event, "object", `${file}: no "event"`);
    assert.equal(typeof raw?.expect, "object", `${file}: no "expect"`);
    return { name: file.replace(/\.json$/, ""), event: raw.event, expect: raw.expect };
  });
}

const FIXTURES = loadFixtures();

const eventType = (f: Fixture) => String((f.event.header as { event_type?: unknown })?.event_type);
const message = (f: Fixture) =>
  (f.event.event as { message?: Record<string, unknown> } | undefined)?.message ?? {};
const messageFixtures = FIXTURES.filter((f) => eventType(f) === RECEIVE);
const messageTypes = new Set(messageFixtures.map((f) => String(message(f).message_type)));
const passiveTypes = new Set(FIXTURES.map(eventType).filter((t) => t in EVENT_TYPES));

for (const f of messageFixtures) {
  Deno.test(`the ${f.name} fixture normalises to its expected text, kind, mentions and attachments`, () => {
    const out = normaliseMessage(f.event, { alias: "main", botOpenId: BOT_OPEN_ID, nowMs: NOW_MS });
    assert.ok(out, "the envelope has a message id and a chat id");
    assert.equal(out.converterError, undefined);
    assert.deepEqual({
      text: out.record.text,
      kind: out.record.content.kind,
      mentions: out.record.mentions,
      attachments: out.descriptors,
    }, f.expect);
  });
}

for (const f of FIXTURES.filter((f) => eventType(f) in EVENT_TYPES)) {
  Deno.test(`the ${f.name} fixture projects to its expected passive event`, () => {
    assert.deepEqual(projectPassiveEvent(f.event), f.expect);
  });
}

Deno.test("every fixture is a schema 2.0 envelope of an event type the bridge reads", () => {
  for (const f of FIXTURES) {
    assert.equal(f.event.schema, "2.0", f.name);
    const header = f.event.header as Record<string, unknown>;
    for (const key of ["event_id", "event_type", "create_time", "token", "app_id", "tenant_key"]) {
      assert.equal(typeof header?.[key], "string", `${f.name}: header.${key}`);
    }
    assert.ok(eventType(f) === RECEIVE || eventType(f) in EVENT_TYPES, `${f.name}: event type`);
    if (eventType(f) !== RECEIVE) continue;
    const m = message(f);
    for (const key of ["message_id", "create_time", "chat_id", "chat_type", "message_type"]) {
      assert.equal(typeof m[key], "string", `${f.name}: message.${key}`);
    }
    assert.doesNotThrow(() => JSON.parse(String(m.content)), `${f.name}: content is a JSON string`);
  }
});

/** What each word of the matrix's "Inbound content" row means as wire `message_type`s. */
const MATRIX_TYPES: Record<string, string[]> = {
  text: ["text"],
  post: ["post"],
  image: ["image"],
  file: ["file"],
  audio: ["audio"],
  video: ["media"],
  sticker: ["sticker"],
  "interactive card": ["interactive"],
  share_chat: ["share_chat"],
  share_user: ["share_user"],
  todo: ["todo"],
  location: ["location"],
  system: ["system"],
  folder: ["folder"],
  hongbao: ["hongbao"],
  calendar: ["calendar", "general_calendar", "share_calendar_event"],
  video_chat: ["video_chat"],
  vote: ["vote"],
  merge_forward: ["merge_forward"],
  "unknown future types": [],
};

/** The type words of the matrix row, before its " — " and without parentheses. */
function matrixWords(): string[] {
  const matrix = Deno.readTextFileSync(join(REPO, "reference", "capability-matrix.md"));
  const row = matrix.split("\n").find((l) => /^\|\s*Inbound content\s*\|/.test(l));
  assert.ok(row, 'the capability matrix has an "Inbound content" row');
  const cell = row.split("|")[2]!.split(" — ")[0]!;
  return cell.replace(/\([^)]*\)/g, "").split(",").map((w) => w.trim()).filter(Boolean);
}

Deno.test("every inbound content type of the capability matrix has a fixture", () => {
  const words = matrixWords();
  assert.ok(words.length > 15, `suspiciously few types in the matrix row: ${words}`);
  const unmapped = words.filter((w) => !(w in MATRIX_TYPES));
  assert.deepEqual(unmapped, [], "map the matrix's new words to message types in MATRIX_TYPES");
  const missing = words.flatMap((w) => MATRIX_TYPES[w]!).filter((t) => !messageTypes.has(t));
  assert.deepEqual(missing, [], "add a fixture for each of these message types");
  if (words.includes("unknown future types")) {
    const future = messageFixtures.filter((f) => !CONVERTERS.has(String(message(f).message_type)));
    assert.ok(future.length > 0, "add a fixture whose message_type no converter knows");
    assert.ok(future.every((f) => f.expect.kind === "unknown"), "an unknown type reads as unknown");
  }
});

Deno.test("every message type with a converter has a fixture", () => {
  assert.deepEqual([...CONVERTERS.keys()].filter((t) => !messageTypes.has(t)), []);
});

Deno.test("every passive event type the bridge handles has a fixture", () => {
  assert.deepEqual(Object.keys(EVENT_TYPES).filter((t) => !passiveTypes.has(t)), []);
});
