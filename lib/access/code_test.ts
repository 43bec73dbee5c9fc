import assert from "node:assert/strict";
import { newPairingCode, PAIRING_ALPHABET, PAIRING_CODE_LENGTH } from "./code.ts";

Deno.test("a pairing code is six lowercase letters or digits", () => {
  assert.equal(PAIRING_ALPHABET, "abcdefghijklmnopqrstuvwxyz0123456789");
  assert.equal(PAIRING_CODE_LENGTH, 6);
  for (let i = 0; i < 2000; i++) assert.match(newPairingCode(), /^[a-z0-9]{6}$/);
});

Deno.test("every character of the alphabet can appear, and codes differ", () => {
  const seen = new Set<string>();
  const codes = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const code = newPairingCode();
    codes.add(code);
    for (const c of code) seen.add(c);
  }
  assert.equal(seen.size, PAIRING_ALPHABET.length);
  assert.ok(codes.size > 1990, `only ${codes.size} distinct codes of 2000`);
});

Deno.test("bytes past the last whole multiple of 36 are redrawn, not folded (no bias)", () => {
  // 252..255 would fold onto a..d; they must be skipped.
  let call = 0;
  const random = (into: Uint8Array) => {
    into.fill(call++ === 0 ? 252 : 0);
    if (call === 1) into[0] = 255;
    else into.set([0, 1, 35, 36, 37, 71]);
    return into;
  };
  assert.equal(newPairingCode(random), "ab9ab9");
  assert.equal(call, 2);
});
