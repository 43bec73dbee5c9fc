/**
 * The local commands of one agent directory: each command reads what it
 * shows (bounded, tolerant of missing or malformed files), performs its
 * effect and answers a localized control card.
 * @module
 */

import { headerName, messagesFor } from "../cards/mod.ts";
import { botLoopCard } from "./bot_loop.ts";
import { createClaimer } from "./claims.ts";
import { agentProfile, collectKanbanData } from "./data.ts";
import { readBrief, systemDocuments } from "./docs.ts";
import { needsFleet } from "./kanban.ts";
import type { ParsedCommand } from "./parse.ts";
import {
  briefCard,
  CANCEL,
  cancelledCard,
  type CardView,
  CONFIRM,
  confirmCard,
  fallbackCard,
  helpCard,
  kanbanCard,
  refusalCard,
  signalCard,
  statusCard,
  systemCard,
  taskcardCard,
} from "./render.ts";
import {
  accessAnswerCard,
  pairingCodeCard,
  pairingRequestCard,
  pairingWelcomeCard,
} from "./pairing.ts";
import { sendSignal } from "./signals.ts";
import { applyTaskcard, fileTaskcardStore } from "./taskcard.ts";
import type { AgentProfile, CommandOrigin, LocalCommands, LocalCommandsOptions } from "./types.ts";

/**
 * Creates the local commands for `options.workdir`. Unlike a full dashboard
 * scan on every command, only `/kanban 5`, `/kanban 6` and `/kanban all`
 * read the sibling agents' ledgers.
 */
export function createLocalCommands(options: LocalCommandsOptions): LocalCommands {
  const { workdir } = options;
  const warn = (msg: string, fields?: Record<string, unknown>) => {
    try {
      options.log?.warn(msg, fields);
    } catch { /* a failing logger must not fail a command */ }
  };
  const store = fileTaskcardStore(workdir, warn);
  const claimer = createClaimer(workdir);
  const redact = options.redact;

  const profile = async (): Promise<AgentProfile> => {
    try {
      return await agentProfile(workdir);
    } catch {
      return { language: null, name: null, timeZone: null };
    }
  };

  /** The agent's language table, its name for the header, and the redactor. */
  const language = async (): Promise<CardView> => {
    const p = await profile();
    return { ...messagesFor(p.language), brand: headerName(p.name) || null, redact };
  };

  /** The agent's language table, or English when it cannot be read. */
  const languageOrDefault = async (): Promise<CardView> => {
    try {
      return await language();
    } catch {
      return { ...messagesFor(null), redact };
    }
  };

  const signal = async (m: CardView, command: "refresh" | "sleep" | "clear") => {
    const result = await sendSignal(workdir, command, "feishu");
    if (result.status === "failed") warn("control signal failed", { ...result });
    return signalCard(m, command, result);
  };

  const run = async (
    cmd: ParsedCommand,
    origin: CommandOrigin,
  ): Promise<Record<string, unknown>> => {
    const m = await language();
    const now = options.now();
    switch (cmd.command) {
      case "help":
        return helpCard(m);
      case "status": {
        let health;
        try {
          health = options.health?.();
        } catch (err) {
          warn("bridge health unavailable", { error: String(err) });
        }
        return statusCard(
          m,
          await collectKanbanData(workdir, now, false),
          health,
          origin.paired,
        );
      }
      case "kanban":
        return kanbanCard(
          m,
          await collectKanbanData(workdir, now, needsFleet(cmd.argument)),
          cmd.argument,
        );
      case "system":
        return systemCard(m, await systemDocuments(workdir, cmd.argument), cmd.argument);
      case "brief":
        return briefCard(m, await readBrief(workdir));
      case "taskcard":
        return taskcardCard(m, await applyTaskcard(cmd.text, store));
      case "sleep":
      case "clear":
        // Typed, or any other button, only asks: the effect needs the confirm click.
        if (!origin.clicked || cmd.argument !== CONFIRM) {
          return origin.clicked && cmd.argument === CANCEL
            ? cancelledCard(m, cmd.command)
            : confirmCard(m, cmd.command);
        }
        return await signal(m, cmd.command);
      case "refresh":
        return await signal(m, "refresh");
      case "pair":
      case "unpair":
        // The host's access book decided; without one, the command is unavailable.
        return origin.access ? accessAnswerCard(m, origin.access) : fallbackCard(m, cmd.command);
    }
  };

  return {
    async render(cmd, origin = { clicked: false }) {
      try {
        return await run(cmd, origin);
      } catch (err) {
        warn("local command failed", { command: cmd.command, error: String(err) });
        try {
          return fallbackCard(await language(), cmd.command);
        } catch {
          return fallbackCard({ ...messagesFor(null), redact }, cmd.command);
        }
      }
    },
    async refusal(command, openId, reason) {
      try {
        return refusalCard(await language(), command, openId, reason);
      } catch {
        return refusalCard({ ...messagesFor(null), redact }, command, openId, reason);
      }
    },
    claim: claimer,
    profile,
    async botLoopCard(view) {
      return botLoopCard(await languageOrDefault(), view);
    },
    async pairingCard(view) {
      const m = await languageOrDefault();
      if (view.kind === "code") return pairingCodeCard(m, view.code);
      if (view.kind === "request") return pairingRequestCard(m, view.person, view.code);
      return pairingWelcomeCard(m);
    },
    async taskcardPreference() {
      try {
        return await store.load();
      } catch {
        return { enabled: true, normalRows: 1 };
      }
    },
  };
}
