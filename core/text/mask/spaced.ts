import { SAFE_KEY_CHARS } from './safe-length.ts';
import { type View, ViewWriter } from './view.ts';
import type { MaskWork } from './work.ts';

/**
 * A key spaced out, its characters separated by runs of separators (`s k - l i v e`, `s.k.l.i.v.e`,
 * `s_k_l`, one character a line, or two by two `sk li ve`): what a person reads as the key. The
 * separators are what people space characters with: blanks and line breaks, `.`, `,`, `-`, `_`, `/`,
 * `:`, `|`. A key's own separators are separators too: its spaced form is searched without them.
 *
 * The spaced view holds only the runs of short tokens (one or two characters between separators)
 * with the separators dropped, and the characters a run touches: the last two of the token before it
 * and the first two of the token after it (a key spaced out in `x=s k l ... Z = =&y=1`, or in a JSON
 * string, starts and ends inside a token; two characters when it is spaced two by two: `[sk li ...`). Ordinary text writes words, ids and numbers of several
 * characters, not a run of single characters as long as a key, so a key's characters joined this way
 * are found where they were spaced out and nowhere else: a key made of words (`my-secret-key`) is not
 * found in the prose `my secret key`. Tokens of two characters count because the view is read over
 * the decoded text, where line breaks are already skipped (a key wrapped over lines): characters
 * spaced by line breaks and blanks in turn are joined two by two there. One pass, each character read
 * once or twice.
 */
const SEPARATORS = ' \t\n\r.,-_/:|';
const IS_SEPARATOR = Uint8Array.from({ length: 128 }, (_, c) => (SEPARATORS.includes(String.fromCharCode(c)) ? 1 : 0));
const isSeparator = (c: number) => c < 128 && IS_SEPARATOR[c] === 1;

/** The longest token a run is made of. */
const SHORT = 2;

/** The form a secret is searched by in the spaced view: itself without separators, when that is long enough. */
export function spacedForm(value: string): string | undefined {
  const joined = [...value].filter((c) => !isSeparator(c.charCodeAt(0))).join('');
  return joined.length >= SAFE_KEY_CHARS ? joined : undefined;
}

/** Characters of short tokens in a row that make a run: with the characters it touches, a key of SAFE_KEY_CHARS. */
const MIN_RUN_CHARS = SAFE_KEY_CHARS - 2 * SHORT;

/**
 * The spaced view of `t` (its runs of short tokens, joined), or undefined when it holds none. A run
 * that joins fewer than `shortest` characters (the shortest spaced form searched) is left out: no
 * form is found in it, as none holds the blank between runs. Ordinary text holds such runs (the
 * `12:30:45` of a timestamp): a view of them would be built and searched for nothing.
 */
export function spacedView(t: string, work: MaskWork, shortest = SAFE_KEY_CHARS): View | undefined {
  const n = t.length;
  work.read += n;
  /** Runs found, as [first character, end of the last one) pairs, the characters they touch included. */
  const runs: number[] = [];
  let runFrom = -1;
  /** Characters in the short tokens of the current run, and those it touches before it. */
  let chars = 0;
  let touched = 0;
  let lastEnd = -1;
  /** Where the last long token starts and ends, -1 before any. */
  let longStart = -1;
  let longEnd = -1;
  let i = 0;
  while (i < n) {
    while (i < n && isSeparator(t.charCodeAt(i))) i++;
    if (i >= n) break;
    const token = i;
    while (i < n && !isSeparator(t.charCodeAt(i))) i++;
    if (i - token <= SHORT) {
      // A run starts after a long token (or at the text's first): it touches that token's last characters.
      if (chars === 0) {
        runFrom = longEnd >= 0 ? Math.max(longStart, longEnd - SHORT) : token;
        touched = longEnd >= 0 ? longEnd - runFrom : 0;
      }
      chars += i - token;
      lastEnd = i;
      continue;
    }
    // A long token ends the run, which touches its first characters.
    const runTo = Math.min(i, token + SHORT);
    if (chars >= MIN_RUN_CHARS && touched + chars + (runTo - token) >= shortest) runs.push(runFrom, runTo);
    chars = 0;
    longStart = token;
    longEnd = i;
  }
  if (chars >= MIN_RUN_CHARS && touched + chars >= shortest) runs.push(runFrom, lastEnd);
  if (runs.length === 0) return undefined;
  const pass = new ViewWriter(t, work);
  for (let r = 0; r < runs.length; r += 2) {
    // Runs apart stay apart: a blank between them joins none (no spaced form holds one).
    if (r > 0) pass.emit(32, runs[r - 1]!, runs[r - 1]!);
    for (let j = runs[r]!; j < runs[r + 1]!; j++) if (!isSeparator(t.charCodeAt(j))) pass.itself(j, j + 1);
    work.read += runs[r + 1]! - runs[r]!;
  }
  return pass.view(false);
}
