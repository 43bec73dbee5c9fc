import { deepEqual, ok } from "node:assert/strict";
import {
  APPROVAL_KEYS,
  DESCRIBED_COMMANDS,
  MESSAGE_KEYS,
  type Messages,
  TASK_KEYS,
} from "./keys.ts";
import { fill, messagesFor, TABLES } from "./mod.ts";

const SECTIONS: Record<keyof Messages, readonly string[]> = {
  text: MESSAGE_KEYS,
  describe: DESCRIBED_COMMANDS,
  task: TASK_KEYS,
  approval: APPROVAL_KEYS,
};

/** Han ideographs (CJK Unified, Extension A, Compatibility) and CJK punctuation. */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/** zh/wen values that may rightly carry no Chinese character. None today. */
const NO_CJK_ALLOWED = new Set<string>([]);

const placeholders = (s: string) => [...s.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]).sort();

Deno.test("every language table has exactly every key of every section, none empty", () => {
  for (const [lang, table] of Object.entries(TABLES)) {
    for (const [section, keys] of Object.entries(SECTIONS)) {
      const values = (table as unknown as Record<string, Record<string, unknown>>)[section];
      ok(values, `${lang}.${section} is missing`);
      deepEqual(Object.keys(values).sort(), [...keys].sort(), `${lang}.${section} keys`);
      for (const key of keys) {
        const v: unknown = values[key];
        ok(typeof v === "string" && v.trim() !== "", `${lang}.${section}.${key} is empty`);
      }
    }
  }
});

Deno.test("no English is left in the zh and wen tables (each value has a Chinese character)", () => {
  for (const lang of ["zh", "wen"] as const) {
    for (const [section, keys] of Object.entries(SECTIONS)) {
      const values = (TABLES[lang] as unknown as Record<string, Record<string, string>>)[section]!;
      for (const key of keys) {
        const id = `${lang}.${section}.${key}`;
        if (NO_CJK_ALLOWED.has(id)) continue;
        ok(CJK.test(values[key] ?? ""), `${id} has no Chinese: ${JSON.stringify(values[key])}`);
        // A value copied from English would be the English value itself.
        ok(
          values[key] !==
            (TABLES.en as unknown as Record<string, Record<string, string>>)[section]![key],
        );
      }
    }
  }
});

Deno.test("every translation fills the same placeholders as English", () => {
  for (const [section, keys] of Object.entries(SECTIONS)) {
    const en = (TABLES.en as unknown as Record<string, Record<string, string>>)[section]!;
    for (const lang of ["zh", "wen"] as const) {
      const values = (TABLES[lang] as unknown as Record<string, Record<string, string>>)[section]!;
      for (const key of keys) {
        deepEqual(placeholders(values[key]!), placeholders(en[key]!), `${lang}.${section}.${key}`);
      }
    }
  }
});

Deno.test("the Task Card texts read in the agent's language", () => {
  deepEqual(fill(messagesFor("zh").task.title, { name: "scribe" }), "scribe 任务卡片");
  deepEqual(fill(messagesFor("wen").task.title, { name: "scribe" }), "scribe 任务之牒");
  deepEqual(fill(messagesFor("fr").task.other_steps, { n: 2 }), "Steps in other conversations: 2");
  deepEqual(fill(messagesFor("zh_CN").task.other_steps, { n: 2 }), "其他会话中还有 2 步");
});
