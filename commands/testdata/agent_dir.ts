/** Test helpers: temporary agent directories. */

import { dirname, join } from "node:path";

/** A fresh parent folder with an empty agent dir `name` inside; returns the agent dir. */
export async function tempAgent(name = "alpha"): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "lc-test-" });
  const dir = join(parent, name);
  await Deno.mkdir(dir);
  return dir;
}

/** Writes a file (creating folders). */
export async function put(path: string, text: string | Uint8Array): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  if (typeof text === "string") await Deno.writeTextFile(path, text);
  else await Deno.writeFile(path, text);
}

/** Removes a temp agent's parent folder. */
export async function cleanup(dir: string): Promise<void> {
  await Deno.remove(dirname(dir), { recursive: true });
}

/** The markdown body and buttons of a control card. */
export function parts(card: Record<string, unknown>): {
  title: string;
  body: string;
  buttons: { label: string; command: string; argument: string; value: unknown }[];
  bytes: number;
} {
  const els = (card.body as { elements: Record<string, unknown>[] }).elements;
  return {
    title: (card.header as { title: { content: string } }).title.content,
    body: String(els[0]!.content),
    buttons: els.slice(1).map((b) => {
      const v = b.value as { lingtai_control: { command: string; argument: string } };
      return {
        label: (b.text as { content: string }).content,
        command: v.lingtai_control.command,
        argument: v.lingtai_control.argument,
        value: b.value,
      };
    }),
    bytes: new TextEncoder().encode(JSON.stringify(card)).length,
  };
}
