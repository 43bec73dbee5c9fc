/**
 * The cards of pairing (`access.dm: "pairing"`): the code a person who is
 * not admitted gets, the approval request an owner gets (Approve runs
 * `/pair CODE`, Deny `/pair deny CODE`), the answers of `/pair` and
 * `/unpair`, the note to a person once approved, and the paired people
 * `/status` lists. Names come from Feishu and are escaped; codes and
 * open_ids are shown only when well-formed.
 * @module
 */

import { fill } from "../cards/mod.ts";
import { button, card, type CardView } from "./card.ts";
import { safe } from "./read.ts";
import type { AccessAnswer, PersonView } from "./types.ts";

type Card = Record<string, unknown>;

const OPEN_ID = /^ou_[A-Za-z0-9_-]{1,64}$/;
const CODE = /^[a-z0-9]{6}$/;

/** Paired people listed at most on `/status`. */
export const PAIRED_SHOWN = 50;

/** A person as shown: their name when known, and their open_id to copy. */
export function who(p: PersonView): string {
  const id = OPEN_ID.test(p.openId) ? `\`${p.openId}\`` : "?";
  const name = p.name?.trim();
  return name ? `${safe(Array.from(name).slice(0, 60).join(""))} (${id})` : id;
}

/** The `/status` lines of the paired people. */
export function pairedLines(m: CardView, paired: readonly PersonView[]): string[] {
  const lines = ["", `**${m.text.paired_list}**`];
  if (paired.length === 0) lines.push(`- ${m.text.nobody}`);
  for (const p of paired.slice(0, PAIRED_SHOWN)) lines.push(`- ${who(p)}`);
  if (paired.length > PAIRED_SHOWN) lines.push(`- …(+${paired.length - PAIRED_SHOWN})`);
  return lines;
}

/** The answer to someone not admitted: the code to give an owner. */
export function pairingCodeCard(m: CardView, code: string): Card {
  return card(m, "pair", fill(m.text.pair_code, { code: CODE.test(code) ? code : "?" }), []);
}

/** An owner's approval request, with Approve and Deny. */
export function pairingRequestCard(m: CardView, person: PersonView, code: string): Card {
  const shown = CODE.test(code) ? code : "?";
  return card(m, "pair", fill(m.text.pair_request, { who: who(person), code: shown }), [
    button(m, "pair", shown, m.text.approve),
    button(m, "pair", `deny ${shown}`, m.text.deny),
  ]);
}

/** The note to a person an owner approved. */
export function pairingWelcomeCard(m: CardView): Card {
  return card(m, "pair", m.text.pair_welcome, []);
}

/** `/pair` and `/unpair`: what the access book did. */
export function accessAnswerCard(m: CardView, answer: AccessAnswer): Card {
  const title = answer.kind === "unpaired" || answer.kind === "not_paired" ||
      answer.kind === "unpair_usage"
    ? "unpair"
    : "pair";
  const body = "who" in answer
    ? fill(
      m.text[
        answer.kind === "approved"
          ? "pair_approved"
          : answer.kind === "denied"
          ? "pair_denied"
          : answer.kind
      ],
      { who: who(answer.who) },
    )
    : m.text[answer.kind === "unknown" ? "pair_unknown" : answer.kind];
  return card(m, title, body, [button(m, "status"), button(m, "help")]);
}
