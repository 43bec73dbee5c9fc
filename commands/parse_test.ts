import { deepEqual, equal } from "node:assert/strict";
import { CATALOG, parseCommand } from "./parse.ts";

Deno.test("parseCommand() trims, strips the bot suffix, lower-cases and keeps the argument", () => {
  deepEqual(parseCommand("  /help  "), { command: "help", argument: "", text: "/help" });
  deepEqual(parseCommand("/KANBAN@LingTaiBot  all "), {
    command: "kanban",
    argument: "all",
    text: "/KANBAN@LingTaiBot  all",
  });
  deepEqual(parseCommand("/system core\trules  v2")?.argument, "core\trules  v2");
  deepEqual(parseCommand("/taskcard@SomeBot off")?.command, "taskcard");
  equal(parseCommand("/status\nmore")?.argument, "more");
});

Deno.test("parseCommand() ignores non-commands and unknown names", () => {
  for (const t of ["help", "", "   ", "/future-command", "/", "/@Bot", "x /help", "/helpme"]) {
    equal(parseCommand(t), null, t);
  }
  equal(parseCommand(42 as unknown as string), null);
});

Deno.test("the catalog lists the default commands, then the hidden ones", () => {
  deepEqual(CATALOG.default, ["help", "kanban", "taskcard", "refresh", "sleep", "clear"]);
  deepEqual(CATALOG.hidden, ["status", "system", "brief", "pair", "unpair"]);
});
