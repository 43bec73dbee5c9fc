/**
 * Small "card-like" families that render as one tag: `share_chat`,
 * `share_user`, `location`, `hongbao` and `vote`.
 * @module
 */

import { asArray, asObject, asText } from "../_json.ts";
import { attr, optionalAttr } from "../_format.ts";
import type { Conversion } from "../types.ts";

/**
 * `share_chat`: `<group_card id="oc_…"/>`.
 *
 * @example
 * ```ts
 * import { convertShareChat } from "./cards.ts";
 * if (convertShareChat({ chat_id: "oc_1" }).text !== '<group_card id="oc_1"/>') throw new Error();
 * ```
 */
export function convertShareChat(content: unknown): Conversion {
  const id = asText(asObject(content)?.chat_id);
  return {
    content: { kind: "share_chat", ...(id ? { chat_id: id } : {}) },
    text: id ? `<group_card id="${attr(id)}"/>` : "[shared chat]",
    resources: [],
  };
}

/**
 * `share_user`: `<contact_card id="ou_…"/>`.
 *
 * @example
 * ```ts
 * import { convertShareUser } from "./cards.ts";
 * if (convertShareUser({ user_id: "ou_1" }).text !== '<contact_card id="ou_1"/>') throw new Error();
 * ```
 */
export function convertShareUser(content: unknown): Conversion {
  const id = asText(asObject(content)?.user_id);
  return {
    content: { kind: "share_user", ...(id ? { user_id: id } : {}) },
    text: id ? `<contact_card id="${attr(id)}"/>` : "[shared contact]",
    resources: [],
  };
}

/**
 * `location`: `<location name="…" coords="lat:…,lng:…"/>`.
 *
 * @example
 * ```ts
 * import { convertLocation } from "./cards.ts";
 * import assert from "node:assert/strict";
 * assert.equal(
 *   convertLocation({ name: "Cafe", latitude: "39.9", longitude: "116.4" }).text,
 *   '<location name="Cafe" coords="lat:39.9,lng:116.4"/>',
 * );
 * ```
 */
export function convertLocation(content: unknown): Conversion {
  const c = asObject(content);
  const name = asText(c?.name);
  const lat = coordinate(c?.latitude);
  const lng = coordinate(c?.longitude);
  const coords = lat && lng ? `lat:${lat},lng:${lng}` : undefined;
  return {
    content: {
      kind: "location",
      ...(name ? { name } : {}),
      ...(lng ? { longitude: lng } : {}),
      ...(lat ? { latitude: lat } : {}),
    },
    text: `<location${optionalAttr("name", name)}${optionalAttr("coords", coords)}/>`,
    resources: [],
  };
}

function coordinate(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return asText(v);
}

/**
 * `hongbao` (red packet): `<hongbao text="…"/>`.
 *
 * @example
 * ```ts
 * import { convertHongbao } from "./cards.ts";
 * if (convertHongbao({ text: "Gong xi" }).text !== '<hongbao text="Gong xi"/>') throw new Error();
 * ```
 */
export function convertHongbao(content: unknown): Conversion {
  const c = asObject(content);
  const text = asText(c?.text);
  const amount = asText(c?.amount) ??
    (typeof c?.amount === "number" ? String(c.amount) : undefined);
  return {
    content: { kind: "hongbao", ...(text ? { text } : {}), ...(amount ? { amount } : {}) },
    text: `<hongbao${optionalAttr("text", text)}/>`,
    resources: [],
  };
}

/**
 * `vote`: the topic and one `• option` line each, inside `<vote>`.
 *
 * @example
 * ```ts
 * import { convertVote } from "./cards.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertVote({ topic: "Lunch?", options: ["yes", "no"] }).text, "<vote>\nLunch?\n• yes\n• no\n</vote>");
 * ```
 */
export function convertVote(content: unknown): Conversion {
  const c = asObject(content);
  const topic = asText(c?.topic);
  const options = asArray(c?.options)
    .map((o) => asText(o) ?? asText(asObject(o)?.text) ?? asText(asObject(o)?.content))
    .filter((o): o is string => o !== undefined);
  const lines = [...(topic ? [topic] : []), ...options.map((o) => `• ${o}`)];
  return {
    content: { kind: "vote", ...(topic ? { topic } : {}), options },
    text: `<vote>\n${lines.length > 0 ? lines.join("\n") : "[vote]"}\n</vote>`,
    resources: [],
  };
}
