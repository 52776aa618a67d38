/**
 * The one mask of the suite (principle 4): every string that leaves the process passes through it,
 * and it replaces each secret by its placeholder ($API_KEY, ...) in every form a target can echo it:
 *
 * - as it is, and with its letters in any case (a target that upper-cases what it echoes);
 * - JSON / JavaScript escapes (`\u0073`, `\x73`, `\/`), any mix of escaped and plain characters, hex in
 *   either case, the backslash itself escaped again any number of times (a body quoted in report.json);
 * - percent-encoding, either case, any mix, `%25` repeated (a cursor echoed encoded and encoded again
 *   by the suite when it sends it back);
 * - base64 and base64url at each of the three byte alignments (the secret inside a larger encoded
 *   blob): the part of the encoding that depends on the secret's bytes only, as the GitHub Actions
 *   runner masks secrets;
 * - hex, either case.
 *
 * All forms are matched per character, so the encodings above also mix within one echo.
 */
export interface Secret {
  value: string;
  placeholder: string;
}

/**
 * Encoded forms (base64, hex) shorter than this are not masked: a form of a few characters would
 * mask ordinary text everywhere. The plain secret is always masked, whatever its length.
 */
export const MIN_ENCODED_CHARS = 8;

interface Pattern {
  re: RegExp;
  placeholder: string;
  /** The form in lower case when it is ASCII (a quick look before the regular expression), else undefined. */
  lower: string | undefined;
  /** Length of the form, for longest-first. */
  length: number;
}

/** Replaces every secret, in every encoding above, by its placeholder. */
export class Mask {
  private readonly values = new Set<string>();
  private patterns: Pattern[] = [];

  constructor(secrets: readonly Secret[] = []) {
    this.add(secrets);
  }

  /** More secrets, e.g. forms derived from a key (its base64 inside a Basic header). A known value is ignored. */
  add(secrets: readonly Secret[]): void {
    for (const { value, placeholder } of secrets) {
      if (value.length === 0 || this.values.has(value)) continue;
      this.values.add(value);
      for (const form of formsOf(value)) {
        this.patterns.push({ re: new RegExp(formPattern(form), 'gi'), placeholder, length: form.length, lower: /^[\x20-\x7e]*$/.test(form) ? form.toLowerCase() : undefined });
      }
    }
    // Longest first, so a secret (or form) that contains another is replaced whole.
    this.patterns.sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    // Every body of a run passes here, so a quick look first: with its escapes and percent-encodings
    // decoded (decodedForSearch), a text that does not hold an ASCII form as it is, in some case, holds
    // none of its spellings either, and the regular expression is not run.
    const lower = decodedForSearch(s).toLowerCase();
    let out = s;
    for (const { re, placeholder, lower: form } of this.patterns) {
      if (form !== undefined && !lower.includes(form)) continue;
      out = out.replace(re, () => placeholder);
    }
    return out;
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

/** The forms of a secret to look for: itself, its hex, and its base64 / base64url at three alignments. */
export function formsOf(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const encoded = [bytes.toString('hex')];
  for (let offset = 0; offset < 3; offset++) {
    const b64 = stableBase64(bytes, offset);
    encoded.push(b64, b64.replaceAll('+', '-').replaceAll('/', '_'));
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
 * The text with every spelling charPattern allows decoded to its character (`\\u0073`, `\\x73`, `\\/`,
 * `%73`, `%2573`, backslashes escaped again): where a form's spelling stands, the form stands here.
 * Only a search runs on it; what is replaced is the original text.
 */
function decodedForSearch(s: string): string {
  if (!s.includes('\\') && !s.includes('%')) return s;
  return s.replace(SPELLING, (_m, u?: string, x?: string, slash?: string, pct?: string) =>
    u !== undefined ? String.fromCharCode(parseInt(u, 16)) : x !== undefined ? String.fromCharCode(parseInt(x, 16)) : slash !== undefined ? '/' : String.fromCharCode(parseInt(pct!, 16)),
  );
}

/** A backslash, itself escaped any number of times (`\\u0073` in a JSON string), or percent-encoded. */
const BACKSLASH = String.raw`(?:\\|%(?:25)*5c)+`;
const SPELLING = new RegExp(`${BACKSLASH}(?:u([0-9a-f]{4})|x([0-9a-f]{2})|(/))|%(?:25)*([0-9a-f]{2})`, 'gi');

/** The regular expression source of one form: each character in any of its encodings. */
function formPattern(form: string): string {
  return [...form].map(charPattern).join('');
}

function charPattern(ch: string): string {
  const code = ch.codePointAt(0)!;
  const alternatives = [ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')];
  const units = Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i));
  alternatives.push(units.map((u) => `${BACKSLASH}u${hex(u, 4)}`).join(''));
  if (code < 0x100) alternatives.push(`${BACKSLASH}x${hex(code, 2)}`);
  if (ch === '/') alternatives.push(`${BACKSLASH}/`);
  alternatives.push([...Buffer.from(ch, 'utf8')].map((b) => `%(?:25)*${hex(b, 2)}`).join(''));
  return `(?:${alternatives.join('|')})`;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
