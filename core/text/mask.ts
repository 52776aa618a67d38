import { proxySecrets } from '../http/proxy.ts';
import type { Target } from '../target/target.ts';
import { formsOf } from './mask/forms.ts';
import { asciiLower, lowerCase } from './mask/lower-case.ts';
import { hasQuotedPrintable } from './mask/readings/quoted-printable.ts';
import { spacedForm, spacedView } from './mask/spaced.ts';
import { standsAsKey } from './mask/stands-as-key.ts';
import type { View } from './mask/view.ts';
import { decodedView, viewOf } from './mask/view-of.ts';
import { DECODED, LITERAL, QUOTED_PRINTABLE } from './mask/views.ts';
import { isWeakKey } from './mask/weak-keys.ts';
import { type MaskWork, noWork } from './mask/work.ts';
import { MultiSearch } from './multi-search.ts';
import { TextMemo } from './text-memo.ts';

export { MIN_ENCODED_CHARS } from './mask/forms.ts';
export { isWeakKey, weakKeyWarnings } from './mask/weak-keys.ts';
export type { MaskWork } from './mask/work.ts';

/**
 * The one mask of the suite (rule "Hostile input"): every string that leaves the process passes through it,
 * and it replaces each secret by its placeholder ($API_KEY, ...) in every form a target can echo it.
 *
 * It works as a decoder, not as a pattern per key (as the GitHub Actions runner masks every encoding
 * of a secret, and OCI's conformance redacts every output): one linear pass turns the text into a
 * decoded view, remembering where each decoded character came from, and the forms of each secret are
 * searched in that view. The views are declared as lists of readings, one per encoding
 * (core/text/mask/views.ts, core/text/mask/readings/); what they undo, in any mix within one echo:
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
 *   quoted-printable (`=73`, `=` at a line's end);
 * - a key spaced out, its characters separated by blanks, dots, dashes, underscores, slashes or line
 *   breaks (`s k - l i v e`), searched in a view of its own (core/text/mask/spaced.ts).
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
 * A weak key (shorter than 8 characters, or one of the document's words: core/text/mask/weak-keys.ts)
 * is masked only where it stands as the key (core/text/mask/stands-as-key.ts: the whole text, after
 * `Bearer`, a header line's value, a whole string or parameter value), in its plain form and its
 * encodings of the key alone: masked everywhere, it would rewrite the document's words, the report's
 * field names and check ids. The run warns of it at load (weakKeyWarnings).
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
  // A proxy's credentials (HTTPS_PROXY=http://user:pass@proxy:3128) are sent as Proxy-Authorization: secrets too.
  out.push(...proxySecrets());
  return out;
}

interface Form {
  /** The form in lower case, as searched in the lower-cased decoded view. */
  lower: string;
  placeholder: string;
  /** A form of a weak key: replaced only where it stands as the key (core/text/mask/stands-as-key.ts). */
  whole: boolean;
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
  /** The secrets' spaced forms (core/text/mask/spaced.ts), their automaton and the length of the shortest, when a secret has one. */
  spaced?: { forms: readonly Form[]; search: MultiSearch; shortest: number };
}

/** What `secrets` (added in this order, `key` naming them) build, from BUILT or built now. */
function built(key: string, secrets: readonly Secret[]): Built {
  const known = BUILT.get(key);
  if (known) return known;
  const forms: Form[] = [];
  // A form is searched as the decoded view reads it; building is the key's work, not a text's: not counted.
  const uncounted = noWork();
  for (const { value, placeholder } of secrets) {
    const whole = isWeakKey(value);
    for (const form of formsOf(value, whole))
      forms.push({ lower: asciiLower(viewOf(form, DECODED, uncounted).text), placeholder, whole });
  }
  // A stable sort: forms of one length stay in the order of their secrets.
  forms.sort((a, b) => b.lower.length - a.lower.length);
  const spaced: Form[] = [];
  for (const { value, placeholder } of secrets) {
    const form = isWeakKey(value) ? undefined : spacedForm(value);
    if (form) spaced.push({ lower: asciiLower(form), placeholder, whole: false });
  }
  spaced.sort((a, b) => b.lower.length - a.lower.length);
  const made: Built = {
    forms,
    search: new MultiSearch(forms.map((f) => f.lower)),
    ...(spaced.length
      ? {
          spaced: {
            forms: spaced,
            search: new MultiSearch(spaced.map((f) => f.lower)),
            shortest: spaced[spaced.length - 1]!.lower.length,
          },
        }
      : {}),
  };
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
  /** What this mask has read (core/text/mask/work.ts). */
  private readonly counted = noWork();

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

  /** The characters this mask has read so far, for tests that prove it linear by counting (core/text/mask/work.ts). */
  work(): MaskWork {
    return { ...this.counted };
  }

  private masked(s: string): string {
    const made = (this.forms ??= built(this.added, this.secrets));
    const work = this.counted;
    // Most text a target sends spells nothing (no escape, percent sign, reference, NUL, line break,
    // split string, invisible or compatibility character): it is its own view, and the search needs
    // no map back. Otherwise the decoded view and the literal one are both searched; a pass that
    // decoded nothing made the literal view already (what does not show skipped, compatibility
    // forms folded), and a literal view the same as the decoded one is searched once.
    const first = viewOf(s, DECODED, work);
    let views: Array<View | undefined> = [undefined];
    if (!first.whole) {
      const decoded = decodedView(s, DECODED, work, first);
      const literal = first.literalToo ? first : viewOf(s, LITERAL, work);
      views = literal === decoded || literal.sameAs(decoded) ? [decoded] : [decoded, literal];
    }
    if (quotedPrintableIn(s, work) || (views[0] && quotedPrintableIn(views[0].text, work)))
      views.push(decodedView(s, QUOTED_PRINTABLE, work));
    // Spans of the original text to replace, found longest form first; a span that overlaps one
    // already taken is left (the longer form covers it).
    const taken: Taken[] = [];
    const covered = { by: undefined as Uint8Array | undefined };
    for (const view of views) this.take(s, view, made, taken, covered);
    // A key spaced out, in the view of the decoded text's runs of single characters.
    if (made.spaced) {
      const base = views[0];
      const spaced = spacedView(base ? base.text : s, work, made.spaced.shortest);
      if (spaced) this.take(s, base ? base.over(spaced) : spaced, made.spaced, taken, covered);
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

  /** Adds to `taken` the spans of `s` where `view` (undefined: `s` itself) holds one of `forms`. */
  private take(
    s: string,
    view: View | undefined,
    { forms, search }: { forms: readonly Form[]; search: MultiSearch },
    taken: Taken[],
    covered: { by: Uint8Array | undefined },
  ): void {
    const work = this.counted;
    const text = view ? view.text : s;
    work.read += text.length;
    // One pass finds every form; the occurrences come grouped by form, longest form first, each
    // form's from left to right and not overlapping (what an indexOf loop per form finds).
    const found = search.search(search.asciiOnly ? text : lowerCase(text));
    work.searched += found.steps;
    for (let k = 0; k < found.pattern.length; k++) {
      const form = forms[found.pattern[k]!]!;
      const at = found.at[k]!;
      const from = view ? view.start(at) : at;
      const to = view ? view.end(at + form.lower.length - 1) : at + form.lower.length;
      // A weak key's form stands as the key in the view (a quoted value escaped in report.json) or in
      // the text itself (a header line's end, a line break the view skips).
      if (form.whole && !standsAsKey(text, at, at + form.lower.length) && !(view && standsAsKey(s, from, to))) continue;
      // Each candidate is read once: the occurrences of one form do not overlap, so linear per form.
      work.searched += to - from;
      covered.by ??= new Uint8Array(s.length);
      if (covered.by.subarray(from, to).includes(1)) continue;
      covered.by.fill(1, from, to);
      taken.push({ from, to, placeholder: form.placeholder });
    }
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

/** A span of the original text to replace by a placeholder. */
interface Taken {
  from: number;
  to: number;
  placeholder: string;
}

/** Whether quoted-printable occurs in `s` (one pass, counted). */
function quotedPrintableIn(s: string, work: MaskWork): boolean {
  work.read += s.length;
  return hasQuotedPrintable(s);
}
