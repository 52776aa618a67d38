/**
 * Where a weak key (./weak-keys.ts) found at [a, b) of a view's text stands as the key, and is
 * masked: as a whole value, never as a piece of a word, an id or a name.
 *
 * - the whole text (a header value or name masked on its own);
 * - a credential after its scheme: `Bearer <key>`, `Basic <key>`, `Token <key>` (any case), up to a
 *   character no key holds or the end;
 * - a header line's value: after `: `, up to the line's end (`x-echo: <key>` on the console);
 * - a string value between two equal quotes that is not a JSON object's member name (a name is
 *   followed by `:`): `"<key>"` in a body, also escaped in report.json, whose view has it unescaped;
 * - a parameter's value: after `=`, up to `&`, `#`, `;`, a blank, a quote or the end (`?after=<key>`);
 * - an element's content or a bracketed value: between `>` and `<`, `[` and `]`, `(` and `)`.
 *
 * So the report's field names (`"data":`), its check ids (`files.errors.service-metadata`, dots on
 * both sides), and the document's words in prose (`data must be an array`) stay; a string value equal
 * to the key stays masked wherever it stands alone, even where it is a word of the document's own
 * (`"object": "list"` for a key `list`): a target echoing the key puts it there. Each test reads a
 * bounded number of characters around the occurrence: linear.
 */
export function standsAsKey(t: string, a: number, b: number): boolean {
  const n = t.length;
  if (a === 0 && b === n) return true;
  const before = a > 0 ? t.charCodeAt(a - 1) : -1;
  const after = b < n ? t.charCodeAt(b) : -1;
  if (before === 32 && !isKeyChar(after) && afterScheme(t, a - 1)) return true;
  if (before === 32 && a >= 2 && t.charCodeAt(a - 2) === 58 /* : */ && (after === -1 || after === 10 || after === 13))
    return true;
  if ((before === 34 || before === 39) && after === before) return !isMemberName(t, b + 1);
  if (before === 61 /* = */ && (after === -1 || ENDS_PARAMETER.includes(after))) return true;
  const closing = CLOSING.get(before);
  return closing !== undefined && after === closing;
}

/** RFC 6750 b64token characters: what a key is made of (`=` only at its end, taken as one here). */
const isKeyChar = (c: number) =>
  (c >= 48 && c <= 57) ||
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  c === 45 ||
  c === 46 ||
  c === 95 ||
  c === 126 ||
  c === 43 ||
  c === 47 ||
  c === 61;

/** `&`, `#`, `;`, blanks, quotes: what ends a parameter's value. */
const ENDS_PARAMETER = [38, 35, 59, 32, 9, 10, 13, 34, 39];

/** The character that closes a value opened by `>`, `[`, `(`. */
const CLOSING = new Map([
  [62, 60],
  [91, 93],
  [40, 41],
]);

const SCHEMES = ['bearer', 'basic', 'token'];

/** Whether the blank at `blank` follows an authorization scheme that starts a word. */
function afterScheme(t: string, blank: number): boolean {
  for (const scheme of SCHEMES) {
    const from = blank - scheme.length;
    if (from < 0 || t.slice(from, blank).toLowerCase() !== scheme) continue;
    if (from === 0 || !isKeyChar(t.charCodeAt(from - 1))) return true;
  }
  return false;
}

/** Most blanks looked at between a closing quote and a `:` (JSON written with wider spacing is a value then). */
const MAX_BLANKS = 8;

/** Whether what follows a closing quote at i makes the string a member name: blanks, then `:`. */
function isMemberName(t: string, i: number): boolean {
  let j = i;
  while (j - i < MAX_BLANKS && (t.charCodeAt(j) === 32 || t.charCodeAt(j) === 9)) j++;
  return t.charCodeAt(j) === 58;
}
