import type { Target } from '../target/target.ts';
import { MultiSearch } from './multi-search.ts';
import { TextMemo } from './text-memo.ts';
import { foldedUnit, isInvisible, showsAsIs } from './unseen.ts';

/**
 * The one mask of the suite (rule "Hostile input"): every string that leaves the process passes through it,
 * and it replaces each secret by its placeholder ($API_KEY, ...) in every form a target can echo it.
 *
 * It works as a decoder, not as a pattern per key (as the GitHub Actions runner masks every encoding
 * of a secret, and OCI's conformance redacts every output): one linear pass turns the text into a
 * decoded view, remembering where each decoded character came from, and the forms of each secret are
 * searched in that view. What the view undoes, in any mix within one echo:
 *
 * - letter case (a target that upper-cases what it echoes);
 * - JSON / JavaScript escapes (`\u0073`, `\x73`, `\/`), the backslash itself escaped again any number
 *   of times or percent-encoded (a body quoted in report.json, a cursor sent back encoded);
 * - percent-encoding, `%25` repeated;
 * - HTML / XML character references: hexadecimal, decimal, and the named ones of the characters a key
 *   is made of (`&lowbar;`, `&sol;`, `&plus;`, ...);
 * - NUL characters (UTF-16LE / BE bytes read as text), line breaks, and the glue of a string split in
 *   two (`"sk_li" + "ve"`, `'a' 'b'`), which the view skips;
 * - what does not show (core/text/unseen.ts: default-ignorable and format characters, variation
 *   selectors, tag characters, U+034F, Hangul fillers, U+2800), which the view skips, and
 *   compatibility forms (fullwidth `ｓｋ`), which it reads as NFKC reads them: the mask sees what a
 *   person sees;
 * - octal escapes (`\163`), numeric references without their `;` (`&#115`, as HTML reads them), and
 *   quoted-printable (`=73`, `=` at a line's end).
 *
 * Decoding can read a key's own characters as part of an escape (`%ab` before a key starting `cd`,
 * `=AB` before a key starting `CD`): every text is also searched in its literal view (only what does
 * not show skipped, compatibility forms folded), so no decoding hides what is plainly there.
 *
 * The forms searched: the secret, reversed and in rot13; its hex (plain, and with `:`, `-` or ` `
 * between bytes); the hex of its UTF-16 bytes and code units (`0073 006b`, `U+0073`); its bytes as
 * octal, decimal and `0x` lists; its base32 at each of the five byte alignments; its base64 and
 * base64url at each of the three byte alignments (the part that depends on the secret's bytes only,
 * as the runner's masker does), of its UTF-8 and of its UTF-16LE and UTF-16BE bytes, and the base64
 * of those base64 forms.
 *
 * Every pass is linear in the text (no backtracking pattern, none built from a key), for a secret of
 * any length. The forms of every secret are found together, in one pass per view (core/text/multi-search.ts,
 * an Aho–Corasick automaton over them), and a view is held by runs, not by character: a text that
 * spells nothing is read once to find that out and once to search it. Keys are RFC 6750 b64token,
 * ASCII: a percent-encoded byte decodes to the character of that code, which is the key's character
 * for every ASCII key.
 */
export interface Secret {
  value: string;
  placeholder: string;
}

/**
 * The secret values of a target, for redaction, each with the placeholder printed instead. Here, not in
 * core/target/target.ts, so that Playwright's runner masks its console without loading the target's schema.
 */
export function secretsOf(
  target: Pick<Target, 'apiKey' | 'restrictedApiKey' | 'apiKeyVariable' | 'restrictedApiKeyVariable' | 'headers'>,
): Secret[] {
  // Named by the target file's own variable (`${EXAMPLE_MANAGEMENT_KEY}` -> $EXAMPLE_MANAGEMENT_KEY), so a
  // printed curl runs where the target file's variables are set; $API_KEY only for a key written literally.
  const out = [{ value: target.apiKey, placeholder: `$${target.apiKeyVariable ?? 'API_KEY'}` }];
  if (target.restrictedApiKey)
    out.push({
      value: target.restrictedApiKey,
      placeholder: `$${target.restrictedApiKeyVariable ?? 'RESTRICTED_API_KEY'}`,
    });
  // --header values are secrets like the keys (a gateway's token), named by their variable.
  for (const h of target.headers ?? []) out.push({ value: h.value, placeholder: `$${h.variable}` });
  return out;
}

/**
 * Encoded forms (base64, hex, lists, rot13, ...) shorter than this are not masked: a form of one to
 * three characters would mask ordinary text everywhere (the base64 of a 2-character key at an
 * alignment is 2 characters). From four on a form is as rare in ordinary text as a 2-character key
 * itself, whose plain form is masked anyway. So: hex of keys from 2 characters, base64 and base32 at
 * every alignment from 4 (base64 at alignment 0 from 3). The plain secret is always masked, whatever
 * its length.
 */
export const MIN_ENCODED_CHARS = 4;

interface Form {
  /** The form in lower case, as searched in the lower-cased decoded view. */
  lower: string;
  placeholder: string;
}

/**
 * The forms and automaton of the secrets added so far, by the secrets (values and placeholders, in
 * order): a run makes several masks of the same keys (the client's, the reports', the console's), and
 * each is built once. A few sets at most are kept, the oldest giving way: the tables of the longest
 * key taken (core/target/target.ts MAX_KEY_CHARS) are tens of megabytes, so a process that runs many targets
 * (runConformance in a program, the suite's own tests) holds a bounded few.
 */
const BUILT = new Map<string, Built>();
const MAX_BUILT = 4;

interface Built {
  /** Every form of every secret, longest first (a secret, or form, that contains another is replaced whole). */
  forms: readonly Form[];
  /** Their automaton (core/text/multi-search.ts): every form found in one pass over a view. */
  search: MultiSearch;
}

/** What `secrets` (added in this order, `key` naming them) build, from BUILT or built now. */
function built(key: string, secrets: readonly Secret[]): Built {
  const known = BUILT.get(key);
  if (known) return known;
  const forms: Form[] = [];
  for (const { value, placeholder } of secrets)
    for (const form of formsOf(value)) forms.push({ lower: asciiLower(viewOf(form, true, false).text), placeholder });
  // A stable sort: forms of one length stay in the order of their secrets.
  forms.sort((a, b) => b.lower.length - a.lower.length);
  const made = { forms, search: new MultiSearch(forms.map((f) => f.lower)) };
  if (BUILT.size >= MAX_BUILT) BUILT.delete(BUILT.keys().next().value!);
  BUILT.set(key, made);
  return made;
}

/** Replaces every secret, in every encoding above, by its placeholder. */
export class Mask {
  private readonly values = new Set<string>();
  private readonly secrets: Secret[] = [];
  /** The secrets added, in order, as the key of what they build (BUILT). */
  private added = '';
  /** Built when a text is first masked after secrets were added (a client adds several before it sends). */
  private forms: Built | undefined;
  /**
   * A text masked again is masked as it was the first time (core/text/text-memo.ts), short ones too: a
   * run's header names and values are few, and come again with every response.
   */
  private readonly memo = new TextMemo<string>(1);

  constructor(secrets: readonly Secret[] = []) {
    this.add(secrets);
  }

  /** More secrets, e.g. forms derived from a key (its base64 inside a Basic header). A known value is ignored. */
  add(secrets: readonly Secret[]): void {
    const known = this.values.size;
    for (const secret of secrets) {
      if (secret.value.length === 0 || this.values.has(secret.value)) continue;
      this.values.add(secret.value);
      this.secrets.push(secret);
      this.added += `${secret.value}\u0000${secret.placeholder}\u0001`;
    }
    // Nothing new (the client adds each request's derived forms again): the forms and the memo stand.
    if (this.values.size === known) return;
    this.forms = undefined;
    this.memo.clear();
  }

  text(s: string): string {
    if (this.secrets.length === 0 || s.length === 0) return s;
    return this.memo.of(s, (t) => this.masked(t));
  }

  private masked(s: string): string {
    const { forms, search } = (this.forms ??= built(this.added, this.secrets));
    // Most text a target sends spells nothing (no escape, percent sign, reference, NUL, line break,
    // split string, invisible or compatibility character): it is its own view, and the search needs
    // no map back. Otherwise the decoded view and the literal one are both searched; a pass that
    // decoded nothing made the literal view already (what does not show skipped, compatibility
    // forms folded), and a literal view the same as the decoded one is searched once.
    const first = viewOf(s, true, false);
    let views: Array<View | undefined> = [undefined];
    if (!first.whole) {
      const decoded = decodedView(s, false, first);
      const literal = first.literalToo ? first : viewOf(s, false, false);
      views = literal === decoded || literal.sameAs(decoded) ? [decoded] : [decoded, literal];
    }
    // Quoted-printable in a view of its own: `=` before hex is everywhere in URLs (`after=73...`).
    if (hasQuotedPrintable(s) || (views[0] && hasQuotedPrintable(views[0].text))) views.push(decodedView(s, true));
    // Spans of the original text to replace, found longest form first; a span that overlaps one
    // already taken is left (the longer form covers it).
    const taken: Array<{ from: number; to: number; placeholder: string }> = [];
    let covered: Uint8Array | undefined;
    for (const view of views) {
      const text = view ? view.text : s;
      countWork(text.length);
      // One pass finds every form; the occurrences come grouped by form, longest form first, each
      // form's from left to right and not overlapping (what an indexOf loop per form finds).
      const found = search.search(search.asciiOnly ? text : lowerCase(text));
      countSearch(found.steps);
      for (let k = 0; k < found.pattern.length; k++) {
        const form = forms[found.pattern[k]!]!;
        const at = found.at[k]!;
        const from = view ? view.start(at) : at;
        const to = view ? view.end(at + form.lower.length - 1) : at + form.lower.length;
        // Each candidate is read once: the occurrences of one form do not overlap, so linear per form.
        countSearch(to - from);
        covered ??= new Uint8Array(s.length);
        if (covered.subarray(from, to).includes(1)) continue;
        covered.fill(1, from, to);
        taken.push({ from, to, placeholder: form.placeholder });
      }
    }
    if (taken.length === 0) return s;
    taken.sort((a, b) => a.from - b.from);
    let out = '';
    let at = 0;
    for (const t of taken) {
      out += s.slice(at, t.from) + t.placeholder;
      at = t.to;
    }
    return out + s.slice(at);
  }

  /** Header names as well as values: a target can echo the key as `x-<key>: 1`. Names masked alike are joined. */
  headers(h: Readonly<Record<string, string>>): Record<string, string> {
    const out = new Map<string, string>();
    for (const [k, v] of Object.entries(h)) {
      const name = this.text(k);
      const value = this.text(v);
      const before = out.get(name);
      out.set(name, before === undefined ? value : `${before}, ${value}`);
    }
    return Object.fromEntries(out);
  }
}

/** The forms of a secret to look for: itself and its encodings (see the class comment). */
export function formsOf(value: string): string[] {
  const encoded: string[] = [];
  const utf8 = Buffer.from(value, 'utf8');
  const bytes = [...utf8];
  const hex = utf8.toString('hex');
  const pairs = hex.match(/../g) ?? [];
  encoded.push(hex, pairs.join(':'), pairs.join('-'), pairs.join(' '));
  const utf16le = Buffer.from(value, 'utf16le');
  const utf16be = Buffer.from(utf16le).swap16();
  // UTF-16 as hex: the bytes in either order, and the code units (`0073 006b`, `U+0073U+006B`).
  const units = utf16be.toString('hex').match(/..../g) ?? [];
  encoded.push(
    utf16le.toString('hex'),
    utf16be.toString('hex'),
    units.join(' '),
    units.join(','),
    units.map((u) => `u+${u}`).join(' '),
    units.map((u) => `u+${u}`).join(''),
  );
  // The bytes as lists: octal (also as one run of digits), decimal, 0x.
  const octal = bytes.map((b) => b.toString(8).padStart(3, '0'));
  const decimal = bytes.map(String);
  const hex0x = bytes.map((b) => `0x${b.toString(16).padStart(2, '0')}`);
  encoded.push(octal.join(''), hex0x.join(''));
  for (const separator of [' ', ',', ', ', ';'])
    encoded.push(octal.join(separator), decimal.join(separator), hex0x.join(separator));
  encoded.push(rot13(value), [...value].reverse().join(''));
  for (let offset = 0; offset < 5; offset++) encoded.push(stableBase32(utf8, offset));
  for (const bytes of [utf8, utf16le, utf16be]) {
    for (let offset = 0; offset < 3; offset++) {
      const b64 = stableBase64(bytes, offset);
      encoded.push(b64, b64.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  // Base64 of base64 (a token that wraps an encoded cursor): each stable part, encoded again at each alignment.
  for (let inner = 0; inner < 3; inner++) {
    const once = Buffer.from(stableBase64(utf8, inner), 'latin1');
    for (let outer = 0; outer < 3; outer++) {
      const twice = stableBase64(once, outer);
      encoded.push(twice, twice.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  const forms = [value, ...encoded.filter((f) => f.length >= MIN_ENCODED_CHARS)];
  // Matching is case-insensitive: forms equal but for case are one form.
  const seen = new Set<string>();
  return forms.filter((f) => {
    const key = f.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 characters that depend on the secret's bytes only, `offset` bytes (mod 5) into the data. */
function stableBase32(bytes: Buffer, offset: number): string {
  const all = Buffer.concat([Buffer.alloc(offset), bytes]);
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of all) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out.slice(Math.ceil((8 * offset) / 5), Math.floor((8 * (offset + bytes.length)) / 5));
}

/**
 * The base64 characters that depend on the secret's bytes only, when the secret starts `offset`
 * bytes (mod 3) into the encoded data: characters before index ceil(8*offset/6) mix in the bytes
 * before it, characters from floor(8*(offset+n)/6) on mix in the bytes after it.
 */
function stableBase64(bytes: Buffer, offset: number): string {
  const all = Buffer.concat([Buffer.alloc(offset), bytes])
    .toString('base64')
    .replace(/=+$/, '');
  return all.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/**
 * The text in lower case, position for position. The native lower case keeps every position but for
 * U+0130, which becomes two code units (it would shift every position after it): a text holding one
 * is lowered by ASCII only. (The Kelvin sign lowers to `k`: such a text is masked as if it spelled
 * the key's `k`, which hides no more than a look-alike of the key.)
 */
function lowerCase(s: string): string {
  return s.includes('\u0130') ? asciiLower(s) : s.toLowerCase();
}

/**
 * Lower case of the ASCII letters only. Keys and their encodings are ASCII (RFC 6750 b64token), and
 * the search maps positions of this text back to the view's: `String.prototype.toLowerCase` may
 * lengthen a text (U+0130 becomes two code units), which would shift every position after it.
 */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * Work done by the mask, in characters read, for tests that prove it linear by counting instead of
 * timing (test/mask.test.ts): each pass over a text, and what a pass reads ahead of its position in
 * runs of unbounded length (blanks after a quote, backslashes, `%25` chains), so a pass that read a
 * run again at each of its characters would count the square of the run.
 */
let work = 0;
export function maskWork(): number {
  return work;
}
function countWork(chars: number): void {
  work += chars;
}

/**
 * Characters the search for the forms reads: the text once per form searched, and each candidate
 * span. What a secret added again would add to (the forms searched), counted apart from maskWork,
 * whose bound is a constant number of passes whatever the number of secrets.
 */
let searched = 0;
export function maskSearchWork(): number {
  return searched;
}
function countSearch(chars: number): void {
  searched += chars;
}

/** Whether quoted-printable (`=XX` in upper-case hex, or `=` ending a line) occurs in `s`. */
function hasQuotedPrintable(s: string): boolean {
  countWork(s.length);
  return QUOTED_PRINTABLE.test(s);
}

/** `=` before two upper-case hex digits or a line break (fixed width: linear, by the engine's scan). */
const QUOTED_PRINTABLE = /=(?:[0-9A-F]{2}|[\n\r])/;

/** The code point at i (a surrogate pair read whole) and how many code units it takes. */
function codePointAt(s: string, i: number, c: number): number {
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/**
 * A view of a text: its characters, and for each the span of the original it came from. The spans
 * are held by segment, not by character: a run of characters that are their own view (most of any
 * text) is one segment, each decoded character another, so a view costs its text and a few numbers
 * per escape, and a span is looked up (by bisection) only where a form is found. A view decoded
 * again maps through the view it was decoded from.
 */
class View {
  constructor(
    readonly text: string,
    /** Per segment: where it starts in the view, where in the text below, and where it ends there (-1: a run, one character for one). */
    private readonly at: readonly number[],
    private readonly from: readonly number[],
    private readonly to: readonly number[],
    private readonly below?: View,
    /** A decoding pass that decoded nothing: what the literal pass makes of the same text. */
    readonly literalToo = false,
    /** The view is the text it was made of, character for character (one run over all of it, or both empty). */
    readonly whole = false,
  ) {}

  /** Where the view's character k starts in the original text. */
  start(k: number): number {
    const j = this.segment(k);
    const start = this.to[j]! < 0 ? this.from[j]! + (k - this.at[j]!) : this.from[j]!;
    return this.below ? this.below.start(start) : start;
  }

  /** Where the view's character k ends in the original text. */
  end(k: number): number {
    const j = this.segment(k);
    const end = this.to[j]! < 0 ? this.from[j]! + (k - this.at[j]!) + 1 : this.to[j]!;
    return this.below ? this.below.end(end - 1) : end;
  }

  /** Over `view`, a view of this one's text: the view of the original it gives. */
  over(view: View): View {
    return new View(view.text, view.at, view.from, view.to, this);
  }

  /** Whether both views are the same text mapped the same way (searching the second finds nothing new). */
  sameAs(other: View): boolean {
    if (this.below || other.below || this.at.length !== other.at.length) return false;
    for (let j = 0; j < this.at.length; j++)
      if (this.at[j] !== other.at[j] || this.from[j] !== other.from[j] || this.to[j] !== other.to[j]) return false;
    return this.text === other.text;
  }

  private segment(k: number): number {
    let lo = 0;
    let hi = this.at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.at[mid]! <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Encodings nest (a character reference percent-encoded, a quote escaped): decoded this many times at most. */
const ROUNDS = 4;

/**
 * The view decoded until nothing changes (at most ROUNDS linear passes), each character mapped back
 * to the span of the original text it came from. A pass that changed nothing ends it: the next one
 * would read the same text again.
 */
function decodedView(s: string, quotedPrintable: boolean, first = viewOf(s, true, quotedPrintable)): View {
  let view = first;
  if (view.whole) return view;
  for (let round = 1; round < ROUNDS; round++) {
    const next = viewOf(view.text, true, quotedPrintable);
    if (next.whole || next.text === view.text) break;
    view = view.over(next);
  }
  return view;
}

/** Named character references of the characters a b64token key and its encodings are made of. */
const NAMED: Readonly<Record<string, string>> = {
  lowbar: '_',
  underbar: '_',
  sol: '/',
  plus: '+',
  period: '.',
  equals: '=',
  tilde: '~',
  dash: '-',
  hyphen: '-',
  minus: '-',
  amp: '&',
  colon: ':',
  num: '#',
  percnt: '%',
  bsol: '\\',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  nbsp: ' ',
  excl: '!',
  comma: ',',
};

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isUpperHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isOctal = (c: number) => c >= 48 && c <= 55;

/** Decoded characters gathered before they join a view's text (viewOf empties it before it returns). */
const PENDING = new Uint16Array(1024);

/** ASCII characters a pass of viewOf reads one by one (each other ASCII character is its own view). */
const stopsAt = (codes: string) =>
  Uint8Array.from({ length: 128 }, (_, c) => (codes.includes(String.fromCharCode(c)) ? 1 : 0));
const STOPS_LITERAL = stopsAt('\0\n\r');
const STOPS_DECODE = stopsAt('\0\n\r"\'\\%&');
const STOPS_QUOTED_PRINTABLE = stopsAt('\0\n\r"\'\\%&=');
/** Where a run may end, per pass: a stop, a quote before a blank or `+` (a join), a character above ASCII. */
const ENDS_LITERAL = /[\0\n\r\u0080-\uffff]/g;
const ENDS_DECODE = /[\0\n\r\\%&\u0080-\uffff]|["'][\t\n\r +]/g;
const ENDS_QUOTED_PRINTABLE = /[\0\n\r\\%&=\u0080-\uffff]|["'][\t\n\r +]/g;

/**
 * The end of the run of characters from i that are their own view: what most of a pass reads. The
 * next character that may not be (`ends`, a pattern of single characters and a quote before a blank,
 * linear) is found by the engine's own scan; one above ASCII is looked at here, with those after it
 * (a text in another script is mostly such characters, each its own view).
 */
function ownRun(s: string, i: number, stops: Uint8Array, decode: boolean, ends: RegExp): number {
  const n = s.length;
  while (i < n) {
    ends.lastIndex = i;
    if (!ends.test(s)) return n;
    let j = ends.lastIndex - 1;
    // A match of two characters (a quote and a blank or `+` after it) ends one further.
    if (
      decode &&
      j - 1 >= i &&
      isGlueAfterQuote(s.charCodeAt(j)) &&
      (s.charCodeAt(j - 1) === 34 || s.charCodeAt(j - 1) === 39)
    )
      j--;
    if (s.charCodeAt(j) < 0x80) return j;
    const limit = Math.min(n, j + 64);
    i = ownChars(s, j, limit, stops, decode);
    if (i < limit) return i;
  }
  return n;
}

const isGlueAfterQuote = (d: number) => d === 32 || d === 9 || d === 10 || d === 13 || d === 43;

/** ownRun's reading character by character, from i up to `limit` (or just past it, for a surrogate pair). */
function ownChars(s: string, i: number, limit: number, stops: Uint8Array, decode: boolean): number {
  for (; i < limit; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (stops[c] === 0) continue;
      // A quote that glues nothing (not followed by a blank or `+`, as in JSON's `":"`) is itself.
      if (decode && (c === 34 || c === 39) && !isGlueAfterQuote(s.charCodeAt(i + 1))) continue;
      return i;
    }
    const cp = codePointAt(s, i, c);
    if (!showsAsIs(cp)) return i;
    if (cp > 0xffff) i++;
  }
  return i;
}

/**
 * One linear pass over `s`: each spelled character (an escape, a percent-encoding, a character
 * reference) becomes one character of the view; what a split or an interleaving adds, and what does
 * not show, is skipped; a compatibility form becomes what it reads as. With `decode` false only the
 * last two (and NUL and line breaks) apply: the literal view. Quoted-printable is decoded only when
 * `quotedPrintable` is set. Every step consumes what it scanned,
 * so no character is read more than a constant number of times.
 */
function viewOf(s: string, decode: boolean, quotedPrintable: boolean): View {
  const n = s.length;
  countWork(n);
  const stops = decode ? (quotedPrintable ? STOPS_QUOTED_PRINTABLE : STOPS_DECODE) : STOPS_LITERAL;
  const ends = decode ? (quotedPrintable ? ENDS_QUOTED_PRINTABLE : ENDS_DECODE) : ENDS_LITERAL;
  // The view by segments (class View): runs of characters that are their own view, taken as slices
  // of `s`, and characters decoded one by one, gathered in `pending` until the next run.
  const at: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let text = '';
  let k = 0;
  let runFrom = -1;
  let runTo = -1;
  const pending = PENDING;
  let held = 0;
  const flushPending = () => {
    if (held > 0) text += String.fromCharCode.apply(null, pending.subarray(0, held) as unknown as number[]);
    held = 0;
  };
  const closeRun = () => {
    if (runTo > runFrom) {
      flushPending();
      at.push(k);
      from.push(runFrom);
      to.push(-1);
      text += runFrom === 0 && runTo === n ? s : s.slice(runFrom, runTo);
      k += runTo - runFrom;
    }
    runFrom = runTo = -1;
  };
  /** Characters from..to of `s` as themselves. */
  const itself = (start: number, end: number) => {
    if (runTo !== start) {
      closeRun();
      runFrom = start;
    }
    runTo = end;
  };
  const emit = (code: number, start: number, end: number) => {
    if (end === start + 1 && code === s.charCodeAt(start)) return itself(start, end);
    closeRun();
    at.push(k);
    from.push(start);
    to.push(end);
    pending[held++] = code;
    k++;
    if (held === pending.length) flushPending();
  };
  /** End of a percent-encoded byte at i (`%` `25`* two hex), with its value, or undefined. */
  const percent = (i: number): { end: number; code: number } | undefined => {
    if (s.charCodeAt(i) !== 37) return undefined;
    let j = i + 1;
    while (s.charCodeAt(j) === 50 && s.charCodeAt(j + 1) === 53 && j + 1 < n) j += 2;
    countWork(j - i);
    if (isHex(s.charCodeAt(j)) && isHex(s.charCodeAt(j + 1)))
      return { end: j + 2, code: parseInt(s.slice(j, j + 2), 16) };
    // `%2525`: the last `25` is the byte itself, a percent sign.
    if (j > i + 1) return { end: j, code: 37 };
    return undefined;
  };
  /** End of a run of backslashes at i, each `\` or a percent-encoded one. */
  const backslashes = (i: number): number => {
    let j = i;
    for (;;) {
      if (s.charCodeAt(j) === 92) j++;
      else {
        const p = percent(j);
        if (p && p.code === 92) j = p.end;
        else {
          countWork(j - i);
          return j;
        }
      }
    }
  };
  /** The code point of a UTF-8 sequence whose lead byte is `lead`, its continuation bytes percent-encoded too, or undefined. */
  const utf8Sequence = (lead: { end: number; code: number }): { cp: number; end: number } | undefined => {
    const more = lead.code >= 0xf0 ? (lead.code >= 0xf8 ? -1 : 3) : lead.code >= 0xe0 ? 2 : 1;
    if (more < 0) return undefined;
    let cp = lead.code & (0x3f >> more);
    let end = lead.end;
    for (let m = 0; m < more; m++) {
      const next = percent(end);
      if (!next || next.code < 0x80 || next.code > 0xbf) return undefined;
      cp = (cp << 6) | (next.code & 0x3f);
      end = next.end;
    }
    return cp >= 0x80 && cp <= 0x10ffff ? { cp, end } : undefined;
  };
  // Whether a decoding happened (an escape, a reference, a percent-encoding, a join): without one,
  // the pass made of `s` what the literal pass makes of it.
  let decodedAny = false;
  let i = 0;
  while (i < n) {
    const start = i;
    i = ownRun(s, i, stops, decode, ends);
    if (i > start) itself(start, i);
    if (i >= n) break;
    const c = s.charCodeAt(i);
    // Skipped: NUL (UTF-16 bytes read as text), line breaks, the glue of a split string.
    if (c === 0 || c === 10 || c === 13) {
      i++;
      continue;
    }
    if (c >= 0x80) {
      const cp = codePointAt(s, i, c);
      const width = cp > 0xffff ? 2 : 1;
      if (isInvisible(cp)) {
        i += width;
        continue;
      }
      const folded = foldedUnit(cp);
      if (folded >= 0) emit(folded, i, i + width);
      else {
        emit(c, i, i + 1);
        if (width === 2) emit(s.charCodeAt(i + 1), i + 1, i + 2);
      }
      i += width;
      continue;
    }
    if (!decode) {
      emit(c, i, i + 1);
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      // `"` (blanks) [+] (blanks) `"`: two string pieces joined.
      let j = i + 1;
      while (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9 || s.charCodeAt(j) === 10 || s.charCodeAt(j) === 13) j++;
      if (s.charCodeAt(j) === 43) {
        j++;
        while (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9 || s.charCodeAt(j) === 10 || s.charCodeAt(j) === 13) j++;
      }
      countWork(j - i);
      if (j > i + 1 && s.charCodeAt(j) === c) {
        decodedAny = true;
        i = j + 1;
        continue;
      }
    }
    if (c === 61 /* = */ && quotedPrintable) {
      // Quoted-printable: `=XX` (upper-case hex, RFC 2045 6.7) is a byte, `=` at a line's end a soft break.
      if (isUpperHex(s.charCodeAt(i + 1)) && isUpperHex(s.charCodeAt(i + 2))) {
        const code = parseInt(s.slice(i + 1, i + 3), 16);
        if (code !== 0) emit(code, i, i + 3);
        decodedAny = true;
        i += 3;
        continue;
      }
      if (s.charCodeAt(i + 1) === 10 || (s.charCodeAt(i + 1) === 13 && s.charCodeAt(i + 2) === 10)) {
        decodedAny = true;
        i += s.charCodeAt(i + 1) === 10 ? 2 : 3;
        continue;
      }
    }
    const run = backslashes(i);
    if (run > i) {
      const next = s.charCodeAt(run);
      if (
        next === 117 /* u */ &&
        isHex(s.charCodeAt(run + 1)) &&
        isHex(s.charCodeAt(run + 2)) &&
        isHex(s.charCodeAt(run + 3)) &&
        isHex(s.charCodeAt(run + 4))
      ) {
        const code = parseInt(s.slice(run + 1, run + 5), 16);
        if (code !== 0) emit(code, i, run + 5);
        decodedAny = true;
        i = run + 5;
        continue;
      }
      if (next === 120 /* x */ && isHex(s.charCodeAt(run + 1)) && isHex(s.charCodeAt(run + 2))) {
        const code = parseInt(s.slice(run + 1, run + 3), 16);
        if (code !== 0) emit(code, i, run + 3);
        decodedAny = true;
        i = run + 3;
        continue;
      }
      // An octal escape (`\163`, C and JavaScript strings): three digits, at most 0o377.
      if (next >= 48 && next <= 51 && isOctal(s.charCodeAt(run + 1)) && isOctal(s.charCodeAt(run + 2))) {
        const code = parseInt(s.slice(run, run + 3), 8);
        if (code !== 0) emit(code, i, run + 3);
        decodedAny = true;
        i = run + 3;
        continue;
      }
      if (next === 47 /* / */ || next === 34 /* " */ || next === 39 /* ' */) {
        emit(next, i, run + 1);
        decodedAny = true;
        i = run + 1;
        continue;
      }
      // An escaped line break (`\n`, `\r`): skipped like a raw one.
      if (next === 110 || next === 114) {
        decodedAny = true;
        i = run + 1;
        continue;
      }
      // Plain backslashes: each one as itself, and the run is not read again.
      for (let j = i; j < run; ) {
        const p = s.charCodeAt(j) === 92 ? j + 1 : percent(j)!.end;
        if (p !== j + 1) decodedAny = true;
        emit(92, j, p);
        j = p;
      }
      i = run;
      continue;
    }
    const p = percent(i);
    if (p) {
      // A character of several UTF-8 bytes, each percent-encoded (`%E2%80%8B`): read whole, so that
      // what does not show is skipped and a compatibility form folded, as in the raw text.
      const wide = p.code >= 0xc0 ? utf8Sequence(p) : undefined;
      if (wide) {
        const folded = foldedUnit(wide.cp);
        if (isInvisible(wide.cp)) {
          // skipped
        } else if (folded >= 0) emit(folded, i, wide.end);
        else if (wide.cp > 0xffff) {
          emit(0xd800 + ((wide.cp - 0x10000) >> 10), i, wide.end);
          emit(0xdc00 + ((wide.cp - 0x10000) & 0x3ff), i, wide.end);
        } else emit(wide.cp, i, wide.end);
        decodedAny = true;
        i = wide.end;
        continue;
      }
      if (p.code !== 0) emit(p.code, i, p.end);
      decodedAny = true;
      i = p.end;
      continue;
    }
    if (c === 38 /* & */) {
      const ref = characterReference(s, i);
      if (ref) {
        emit(ref.code, i, ref.end);
        decodedAny = true;
        i = ref.end;
        continue;
      }
    }
    emit(c, i, i + 1);
    i++;
  }
  closeRun();
  flushPending();
  return new View(
    text,
    at,
    from,
    to,
    undefined,
    decode && !decodedAny,
    k === n && (at.length === 0 || (at.length === 1 && to[0] === -1)),
  );
}

/**
 * `&#x5F;`, `&#95;`, `&lowbar;` at i: the character and the end, or undefined. Bounded in length. A
 * numeric reference without its `;` counts (`&#115&#107`): HTML reads it so.
 */
function characterReference(s: string, i: number): { code: number; end: number } | undefined {
  if (s.charCodeAt(i + 1) === 35 /* # */) {
    const hexRef = s.charCodeAt(i + 2) === 120 || s.charCodeAt(i + 2) === 88;
    let j = i + (hexRef ? 3 : 2);
    const first = j;
    while (j - first < 8 && (hexRef ? isHex(s.charCodeAt(j)) : isDigit(s.charCodeAt(j)))) j++;
    if (j === first) return undefined;
    const code = parseInt(s.slice(first, j), hexRef ? 16 : 10);
    const end = s.charCodeAt(j) === 59 ? j + 1 : j;
    return code > 0 && code <= 0xffff ? { code, end } : undefined;
  }
  let semi = i + 1;
  while (semi - i <= 10 && semi < s.length && s.charCodeAt(semi) !== 59) semi++;
  if (s.charCodeAt(semi) !== 59) return undefined;
  const char = NAMED[s.slice(i + 1, semi).toLowerCase()];
  return char === undefined ? undefined : { code: char.charCodeAt(0), end: semi + 1 };
}
