import type { Target } from './target.ts';
import { TextMemo } from './text-memo.ts';

/**
 * The one mask of the suite (principle 4): every string that leaves the process passes through it,
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
 *   two (`"sk_li" + "ve"`, `'a' 'b'`), which the view skips.
 *
 * The forms searched: the secret; its hex (plain, and with `:`, `-` or ` ` between bytes); its base64
 * and base64url at each of the three byte alignments (the part that depends on the secret's bytes
 * only, as the runner's masker does), of its UTF-8 and of its UTF-16LE and UTF-16BE bytes.
 *
 * Every pass is linear in the text (no backtracking pattern, none built from a key), for a secret of
 * any length. Keys are RFC 6750 b64token, ASCII: a percent-encoded byte decodes to the character of
 * that code, which is the key's character for every ASCII key.
 */
export interface Secret {
  value: string;
  placeholder: string;
}

/**
 * The secret values of a target, for redaction, each with the placeholder printed instead. Here, not in
 * core/target.ts, so that Playwright's runner masks its console without loading the target's schema.
 */
export function secretsOf(target: Pick<Target, 'apiKey' | 'restrictedApiKey' | 'apiKeyVariable' | 'restrictedApiKeyVariable'>): Secret[] {
  // Named by the target file's own variable (`${EXAMPLE_MANAGEMENT_KEY}` -> $EXAMPLE_MANAGEMENT_KEY), so a
  // printed curl runs where the target file's variables are set; $API_KEY only for a key written literally.
  const out = [{ value: target.apiKey, placeholder: `$${target.apiKeyVariable ?? 'API_KEY'}` }];
  if (target.restrictedApiKey) out.push({ value: target.restrictedApiKey, placeholder: `$${target.restrictedApiKeyVariable ?? 'RESTRICTED_API_KEY'}` });
  return out;
}

/**
 * Encoded forms (base64, hex) shorter than this are not masked: a form of a few characters would
 * mask ordinary text everywhere. The plain secret is always masked, whatever its length.
 */
export const MIN_ENCODED_CHARS = 8;

interface Form {
  /** The form in lower case, as searched in the lower-cased decoded view. */
  lower: string;
  placeholder: string;
}

/** Replaces every secret, in every encoding above, by its placeholder. */
export class Mask {
  private readonly values = new Set<string>();
  private forms: Form[] = [];
  /** A body received again is masked as it was the first time (core/text-memo.ts). */
  private readonly memo = new TextMemo<string>();

  constructor(secrets: readonly Secret[] = []) {
    this.add(secrets);
  }

  /** More secrets, e.g. forms derived from a key (its base64 inside a Basic header). A known value is ignored. */
  add(secrets: readonly Secret[]): void {
    const known = this.values.size;
    for (const { value, placeholder } of secrets) {
      if (value.length === 0 || this.values.has(value)) continue;
      this.values.add(value);
      for (const form of formsOf(value)) this.forms.push({ lower: asciiLower(viewOf(form).text), placeholder });
    }
    // Nothing new (the client adds each request's derived forms again): the forms and the memo stand.
    if (this.values.size === known) return;
    // Longest first, so a secret (or form) that contains another is replaced whole.
    this.forms.sort((a, b) => b.lower.length - a.lower.length);
    this.memo.clear();
  }

  text(s: string): string {
    if (this.forms.length === 0 || s.length === 0) return s;
    return this.memo.of(s, (t) => this.masked(t));
  }

  private masked(s: string): string {
    // Most text a target sends spells nothing (no escape, percent sign, reference, NUL, line break
    // or split string): it is its own view, and the search needs no map back.
    const view = isPlain(s) ? undefined : decodedView(s);
    const lower = lowerCase(view ? view.text : s);
    // Spans of the original text to replace, found longest form first; a span that overlaps one
    // already taken is left (the longer form covers it).
    const taken: Array<{ from: number; to: number; placeholder: string }> = [];
    const covered = new Uint8Array(s.length);
    for (const form of this.forms) {
      if (form.lower.length === 0) continue;
      for (let at = lower.indexOf(form.lower); at >= 0; at = lower.indexOf(form.lower, at + form.lower.length)) {
        const from = view ? view.starts[at]! : at;
        const to = view ? view.ends[at + form.lower.length - 1]! : at + form.lower.length;
        // Each candidate is read once: at most one per form length of the text, so linear per form.
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

/**
 * The last pass over a whole rendered output (a report file, the console text, a log line), after
 * rendering: values parsed out of a body and serialised again (JSON.parse turns `\u0073` into `s`)
 * are masked here even if nothing masked them before.
 */
export function maskOutput(rendered: string, mask: Mask): string {
  return mask.text(rendered);
}

/** The forms of a secret to look for: itself, its hex, and base64 / base64url at three alignments. */
export function formsOf(value: string): string[] {
  const encoded: string[] = [];
  const utf8 = Buffer.from(value, 'utf8');
  const hex = utf8.toString('hex');
  const pairs = hex.match(/../g) ?? [];
  encoded.push(hex, pairs.join(':'), pairs.join('-'), pairs.join(' '));
  const utf16le = Buffer.from(value, 'utf16le');
  const utf16be = Buffer.from(utf16le).swap16();
  for (const bytes of [utf8, utf16le, utf16be]) {
    for (let offset = 0; offset < 3; offset++) {
      const b64 = stableBase64(bytes, offset);
      encoded.push(b64, b64.replaceAll('+', '-').replaceAll('/', '_'));
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

/**
 * The base64 characters that depend on the secret's bytes only, when the secret starts `offset`
 * bytes (mod 3) into the encoded data: characters before index ceil(8*offset/6) mix in the bytes
 * before it, characters from floor(8*(offset+n)/6) on mix in the bytes after it.
 */
function stableBase64(bytes: Buffer, offset: number): string {
  const all = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
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
 * Whether `s` holds nothing viewOf decodes or skips: no backslash, percent sign, ampersand, NUL,
 * line break, nor two quotes glued by blanks or `+`. Such a text is its own decoded view. Linear: a
 * run of blanks after a quote is read at most twice.
 */
function isPlain(s: string): boolean {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 || c === 37 || c === 38 || c === 0 || c === 10 || c === 13) return false;
    if (c === 34 || c === 39) {
      let j = i + 1;
      while (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9) j++;
      if (s.charCodeAt(j) === 43) {
        j++;
        while (s.charCodeAt(j) === 32 || s.charCodeAt(j) === 9) j++;
      }
      if (j > i + 1 && s.charCodeAt(j) === c) return false;
    }
  }
  return true;
}

/** The decoded view of a text: its characters, and for each the span of the original it came from. */
interface View {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

/** Encodings nest (a character reference percent-encoded, a quote escaped): decoded this many times at most. */
const ROUNDS = 4;

/**
 * The view decoded until nothing changes (at most ROUNDS linear passes), each character mapped back
 * to the span of the original text it came from.
 */
function decodedView(s: string): View {
  let view = viewOf(s);
  for (let round = 1; round < ROUNDS; round++) {
    const next = viewOf(view.text);
    if (next.text === view.text) break;
    const starts = new Int32Array(next.text.length + 1);
    const ends = new Int32Array(next.text.length + 1);
    for (let i = 0; i < next.text.length; i++) {
      starts[i] = view.starts[next.starts[i]!]!;
      ends[i] = view.ends[next.ends[i]! - 1]!;
    }
    view = { text: next.text, starts, ends };
  }
  return view;
}

/** Named character references of the characters a b64token key and its encodings are made of. */
const NAMED: Readonly<Record<string, string>> = {
  lowbar: '_', underbar: '_', sol: '/', plus: '+', period: '.', equals: '=', tilde: '~', dash: '-', hyphen: '-', minus: '-',
  amp: '&', colon: ':', num: '#', percnt: '%', bsol: '\\', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ', excl: '!', comma: ',',
};

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * One linear pass over `s`: each spelled character (an escape, a percent-encoding, a character
 * reference) becomes one character of the view; what a split or an interleaving adds is skipped.
 * Every step consumes what it scanned, so no character is read more than a constant number of times.
 */
function viewOf(s: string): View {
  const n = s.length;
  const chars = new Uint16Array(n);
  const starts = new Int32Array(n + 1);
  const ends = new Int32Array(n + 1);
  let k = 0;
  const emit = (code: number, from: number, to: number) => {
    chars[k] = code;
    starts[k] = from;
    ends[k] = to;
    k++;
  };
  /** End of a percent-encoded byte at i (`%` `25`* two hex), with its value, or undefined. */
  const percent = (i: number): { end: number; code: number } | undefined => {
    if (s.charCodeAt(i) !== 37) return undefined;
    let j = i + 1;
    while (s.charCodeAt(j) === 50 && s.charCodeAt(j + 1) === 53 && j + 1 < n) j += 2;
    if (isHex(s.charCodeAt(j)) && isHex(s.charCodeAt(j + 1))) return { end: j + 2, code: parseInt(s.slice(j, j + 2), 16) };
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
        else return j;
      }
    }
  };
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    // Skipped: NUL (UTF-16 bytes read as text), line breaks, the glue of a split string.
    if (c === 0 || c === 10 || c === 13) {
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
      if (j > i + 1 && s.charCodeAt(j) === c) {
        i = j + 1;
        continue;
      }
    }
    const run = backslashes(i);
    if (run > i) {
      const next = s.charCodeAt(run);
      if (next === 117 /* u */ && isHex(s.charCodeAt(run + 1)) && isHex(s.charCodeAt(run + 2)) && isHex(s.charCodeAt(run + 3)) && isHex(s.charCodeAt(run + 4))) {
        const code = parseInt(s.slice(run + 1, run + 5), 16);
        if (code !== 0) emit(code, i, run + 5);
        i = run + 5;
        continue;
      }
      if (next === 120 /* x */ && isHex(s.charCodeAt(run + 1)) && isHex(s.charCodeAt(run + 2))) {
        const code = parseInt(s.slice(run + 1, run + 3), 16);
        if (code !== 0) emit(code, i, run + 3);
        i = run + 3;
        continue;
      }
      if (next === 47 /* / */ || next === 34 /* " */ || next === 39 /* ' */) {
        emit(next, i, run + 1);
        i = run + 1;
        continue;
      }
      // An escaped line break (`\n`, `\r`): skipped like a raw one.
      if (next === 110 || next === 114) {
        i = run + 1;
        continue;
      }
      // Plain backslashes: each one as itself, and the run is not read again.
      for (let j = i; j < run; ) {
        const p = s.charCodeAt(j) === 92 ? j + 1 : percent(j)!.end;
        emit(92, j, p);
        j = p;
      }
      i = run;
      continue;
    }
    const p = percent(i);
    if (p) {
      if (p.code !== 0) emit(p.code, i, p.end);
      i = p.end;
      continue;
    }
    if (c === 38 /* & */) {
      const ref = characterReference(s, i);
      if (ref) {
        emit(ref.code, i, ref.end);
        i = ref.end;
        continue;
      }
    }
    emit(c, i, i + 1);
    i++;
  }
  return { text: Buffer.from(chars.buffer, chars.byteOffset, k * 2).toString('utf16le'), starts, ends };
}

/** `&#x5F;`, `&#95;`, `&lowbar;` at i: the character and the end, or undefined. Bounded in length. */
function characterReference(s: string, i: number): { code: number; end: number } | undefined {
  if (s.charCodeAt(i + 1) === 35 /* # */) {
    const hexRef = s.charCodeAt(i + 2) === 120 || s.charCodeAt(i + 2) === 88;
    let j = i + (hexRef ? 3 : 2);
    const first = j;
    while (j - first < 8 && (hexRef ? isHex(s.charCodeAt(j)) : isDigit(s.charCodeAt(j)))) j++;
    if (j === first || s.charCodeAt(j) !== 59) return undefined;
    const code = parseInt(s.slice(first, j), hexRef ? 16 : 10);
    return code > 0 && code <= 0xffff ? { code, end: j + 1 } : undefined;
  }
  let semi = i + 1;
  while (semi - i <= 10 && semi < s.length && s.charCodeAt(semi) !== 59) semi++;
  if (s.charCodeAt(semi) !== 59) return undefined;
  const char = NAMED[s.slice(i + 1, semi).toLowerCase()];
  return char === undefined ? undefined : { code: char.charCodeAt(0), end: semi + 1 };
}
