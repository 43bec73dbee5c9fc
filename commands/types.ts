/**
 * The shapes the local commands' host provides and receives.
 * @module
 */

import type { LocalCommand } from "./names.ts";
import type { ParsedCommand } from "./parse.ts";

/** The bridge's own health, shown by `/status`. */
export interface BridgeHealth {
  accounts: { alias: string; connection: string; last_event_at: string | null }[];
  /** Journal entries pending. */
  queue_depth: number;
  dead_letters: number;
  /** Dead letters grouped by their last error, most frequent first. */
  dead_letter_reasons?: { error: string; count: number }[];
  /** Dedupe keys the journal holds (its memory of seen events). */
  dedupe_keys?: number;
  /** Typing reactions still to remove. */
  typing_pending?: number;
  /** Chats dissolved or left by the bot (writes there are refused). */
  gone_chats?: number;
  /** This month's Feishu API calls. */
  quota?: {
    month: string;
    used: number;
    monthly_calls: number | null;
    warning: string | null;
    saving: boolean;
  };
}

/** What {@link LocalCommands} works on. */
export interface LocalCommandsOptions {
  /** The agent directory; a missing or empty one shows "unavailable". */
  workdir: string;
  /** Current time in ms. */
  now: () => number;
  /** The bridge's health, shown on `/status` under the agent summary. */
  health?: () => BridgeHealth;
  log?: { warn(msg: string, fields?: Record<string, unknown>): void };
  /** The server's redactor (card style): every card body and label passes it. */
  redact?: (text: string) => string;
}

/** What the agent's settings say about it (each field null when unknown). */
export interface AgentProfile {
  language: string | null;
  name: string | null;
  /** An IANA time zone as written (unchecked). */
  timeZone: string | null;
}

/** A person as cards show them. */
export interface PersonView {
  openId: string;
  name: string | null;
}

/** What the host's access book did for `/pair` or `/unpair` (the command only shows it). */
export type AccessAnswer =
  | { kind: "approved" | "denied" | "unpaired" | "not_paired"; who: PersonView }
  | { kind: "unknown" | "pair_usage" | "unpair_usage" };

/** How a command came: typed in a message, or a control card's button. */
export interface CommandOrigin {
  /** True for a button; `/clear` and `/sleep` run only from their confirm button. */
  clicked: boolean;
  /** `/pair`, `/unpair`: what the access book did (absent: pairing is not available). */
  access?: AccessAnswer;
  /** `/status`: the account's paired people (absent: not listed). */
  paired?: readonly PersonView[];
}

/** Why a control command was refused (see `controlRight` in lib/account). */
export type RefusalReason = "not_owner" | "no_owner";

/** The local commands of one agent directory. */
export interface LocalCommands {
  /**
   * Runs a command (signals for refresh, and for sleep and clear when
   * clicked with `confirm` — otherwise they answer a confirm card; the
   * preference file for taskcard) and returns its control card. Never
   * throws: an unexpected error still yields a card.
   */
  render(cmd: ParsedCommand, origin?: CommandOrigin): Promise<Record<string, unknown>>;
  /** The card refusing a control command to `openId`; runs nothing. Never throws. */
  refusal(
    command: LocalCommand,
    openId: string,
    reason: RefusalReason,
  ): Promise<Record<string, unknown>>;
  /**
   * Claims a control click's event id for an account; false when it was
   * already claimed or the claim store cannot be read or written.
   */
  claim(alias: string, eventId: string): Promise<boolean>;
  /** The current Task Card preference. */
  taskcardPreference(): Promise<{ enabled: boolean; normalRows: number }>;
  /** The agent's language, name and time zone, read from its files now; never throws. */
  profile(): Promise<AgentProfile>;
  /** A pairing card in the agent's language (see `pairing.ts`); never throws. */
  pairingCard(view: PairingCardView): Promise<Record<string, unknown>>;
  /** The owners' note that the loop guard holds other bots' messages in a chat; never throws. */
  botLoopCard(view: BotLoopView): Promise<Record<string, unknown>>;
}

/** A chat where other bots' messages reached the loop guard's cap. */
export interface BotLoopView {
  chatId: string;
  /** The chat's name, when Feishu gave it. */
  chatName: string | null;
  /** At most `max` bot messages wake the agent per `windowSeconds`. */
  max: number;
  windowSeconds: number;
}

/** Which pairing card to build. */
export type PairingCardView =
  | { kind: "code"; code: string }
  | { kind: "request"; person: PersonView; code: string }
  | { kind: "welcome" };
