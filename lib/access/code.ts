/**
 * Pairing codes: six characters from lowercase letters and digits, drawn
 * without bias from a cryptographic source (bytes past the last whole
 * multiple of the alphabet are redrawn, not folded).
 * @module
 */

/** The characters a pairing code is made of. */
export const PAIRING_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** How many characters a pairing code has. */
export const PAIRING_CODE_LENGTH = 6;

/** A well-formed pairing code (what `/pair` accepts after lower-casing). */
export const PAIRING_CODE = /^[a-z0-9]{6}$/;

/** Fills a byte array with random bytes (`crypto.getRandomValues` by default). */
export type RandomBytes = (into: Uint8Array) => Uint8Array;

const secure: RandomBytes = (into) => crypto.getRandomValues(into);

/**
 * A new pairing code.
 *
 * @example
 * ```ts
 * import { newPairingCode, PAIRING_CODE } from "./code.ts";
 * if (!PAIRING_CODE.test(newPairingCode())) throw new Error();
 * ```
 */
export function newPairingCode(random: RandomBytes = secure): string {
  const size = PAIRING_ALPHABET.length;
  // 252 = 7 × 36: a byte below it maps evenly onto the alphabet.
  const limit = 256 - (256 % size);
  let out = "";
  while (out.length < PAIRING_CODE_LENGTH) {
    for (const byte of random(new Uint8Array(PAIRING_CODE_LENGTH * 2))) {
      if (byte >= limit) continue;
      out += PAIRING_ALPHABET[byte % size];
      if (out.length === PAIRING_CODE_LENGTH) break;
    }
  }
  return out;
}
