/**
 * How a `search` pattern can use the trigram index: the literal pieces every
 * match must contain. The regex still decides; the index only narrows the
 * rows it runs on, so the pieces must never exclude a real match. Anything
 * the reader is not sure of (alternation at the top, an escape it does not
 * know, a letter whose case folding the index might treat differently) ends
 * a piece or gives no pieces at all, and the search scans as before.
 * @module
 */

/** The shortest piece the trigram index can look up. */
const MIN_PIECE = 3;

/** A token of the pattern: a literal character, or something that is not one. */
const OTHER = null;
type Atom = string | null;

/**
 * True when the index's case folding and the regex's `i` flag (without `u`)
 * agree on `ch`: ASCII, or a character without case (CJK, digits, symbols).
 */
function foldsAlike(ch: string): boolean {
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80) return true;
  return ch.toUpperCase() === ch && ch.toLowerCase() === ch;
}

/** Length of a quantifier at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, then a lazy `?`); 0 if none. */
function quantifierAt(p: string, i: number): { length: number; min: number } {
  const c = p[i];
  let length = 0;
  let min = 1;
  if (c === "*" || c === "?") [length, min] = [1, 0];
  else if (c === "+") [length, min] = [1, 1];
  else if (c === "{") {
    const m = /^\{(\d+)(,\d*)?\}/.exec(p.slice(i));
    if (!m) return { length: 0, min: 1 };
    [length, min] = [m[0].length, Number(m[1])];
  } else return { length: 0, min: 1 };
  if (p[i + length] === "?") length++;
  return { length, min };
}

/** Index after the group or class that starts at `i` (`(` or `[`); -1 if unclosed. */
function skipBracket(p: string, i: number): number {
  if (p[i] === "[") {
    let j = i + 1;
    if (p[j] === "^") j++;
    while (j < p.length && p[j] !== "]") j += p[j] === "\\" ? 2 : 1;
    return j < p.length ? j + 1 : -1;
  }
  let depth = 0;
  let j = i;
  while (j < p.length) {
    const c = p[j];
    if (c === "\\") j += 2;
    else if (c === "[") {
      j = skipBracket(p, j);
      if (j < 0) return -1;
    } else {
      if (c === "(") depth++;
      else if (c === ")" && --depth === 0) return j + 1;
      j++;
    }
  }
  return -1;
}

/** The escape at `i` (a backslash): its literal character, or OTHER, and its length. */
function escapeAt(p: string, i: number): { atom: Atom; length: number } {
  const n = p[i + 1];
  if (n === undefined) return { atom: OTHER, length: 1 };
  if (!/[A-Za-z0-9]/.test(n)) return { atom: n, length: 2 };
  // Class escapes, anchors, back references and code escapes are not pieces;
  // step over their digits or names so those are not read as literals.
  if (n === "x" && /^[0-9A-Fa-f]{2}/.test(p.slice(i + 2))) return { atom: OTHER, length: 4 };
  if (n === "u" && /^[0-9A-Fa-f]{4}/.test(p.slice(i + 2))) return { atom: OTHER, length: 6 };
  if (n === "c" && /^[A-Za-z]/.test(p.slice(i + 2))) return { atom: OTHER, length: 3 };
  if (n === "k" && p[i + 2] === "<") {
    const end = p.indexOf(">", i + 3);
    return { atom: OTHER, length: end < 0 ? 2 : end - i + 1 };
  }
  if (/[0-9]/.test(n)) {
    let j = i + 1;
    while (/[0-9]/.test(p[j] ?? "")) j++;
    return { atom: OTHER, length: j - i };
  }
  return { atom: OTHER, length: 2 };
}

/**
 * The literal pieces (at least three characters each) that every match of
 * `pattern` (a JavaScript regex source, flags `i`) contains, matched
 * case-insensitively; empty when none can be named safely.
 *
 * @example
 * ```ts
 * import { requiredPieces } from "./search_plan.ts";
 * const pieces = requiredPieces(String.raw`^order\s+#\d+ shipped`);
 * if (pieces.join("|") !== "order| shipped") throw new Error(pieces.join("|"));
 * if (requiredPieces("cat|dog").length !== 0) throw new Error("alternation");
 * ```
 */
export function requiredPieces(pattern: string): string[] {
  const pieces: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length >= MIN_PIECE) pieces.push(run.join(""));
    run = [];
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    let atom: Atom;
    let length: number;
    if (c === "|") return []; // groups are skipped whole, so this one is at the top
    if (c === "\\") ({ atom, length } = escapeAt(pattern, i));
    else if (c === "(" || c === "[") {
      const end = skipBracket(pattern, i);
      if (end < 0) return [];
      [atom, length] = [OTHER, end - i];
    } else if (c === ")") return [];
    else if (c === "." || c === "^" || c === "$") [atom, length] = [OTHER, 1];
    else {
      // One code point (a surrogate pair stays whole).
      const cp = String.fromCodePoint(pattern.codePointAt(i)!);
      [atom, length] = [cp, cp.length];
    }
    i += length;
    const q = quantifierAt(pattern, i);
    i += q.length;
    if (atom === OTHER || !foldsAlike(atom) || q.min === 0) {
      flush();
      continue;
    }
    if (atom.length > 1 && q.length > 0) {
      // Without the `u` flag a quantifier repeats the low surrogate only.
      flush();
      continue;
    }
    run.push(atom);
    if (q.length > 0) {
      // `ab+c` holds "ab" and "bc", not "abc".
      flush();
      run.push(atom);
    }
  }
  flush();
  return pieces;
}

/**
 * The FTS5 query that finds rows containing every piece (each a quoted
 * phrase, which the trigram tokenizer matches as a substring).
 */
export function ftsQuery(pieces: readonly string[]): string {
  return pieces.map((p) => `"${p.replaceAll('"', '""')}"`).join(" AND ");
}

/**
 * True when a record whose searchable text is followed by `" " + name` (the
 * haystack `search` tests: the sender's contact name last) could contain a
 * piece only because of the name: the piece lies in `" " + name`, or runs from
 * the text across the space into the name's start. Over-approximates (case
 * by upper-casing both sides): it only decides which rows the regex tests.
 */
export function nameMayHold(name: string, pieces: readonly string[]): boolean {
  if (!name) return false;
  const tail = ` ${name}`.toUpperCase();
  return pieces.some((piece) => {
    const p = piece.toUpperCase();
    if (tail.includes(p)) return true;
    for (let k = p.indexOf(" "); k >= 0; k = p.indexOf(" ", k + 1)) {
      if (tail.startsWith(p.slice(k))) return true;
    }
    return false;
  });
}
