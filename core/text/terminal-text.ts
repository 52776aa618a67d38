/**
 * Text a target controls, made safe to print on a terminal (rule "Hostile input"): a body or header can
 * hold escape sequences that clear lines, move the cursor or recolour the screen, and a target could
 * print its own `verdict: CONFORMANT`. As curl and git do, such characters are shown escaped:
 *
 * - C0 controls and DEL as `\n`, `\r`, `\t`, `\x1b`, `\x7f`... (an ESC shown so, its sequence is inert text);
 * - C1 controls (U+0080..U+009F: CSI U+009B starts a sequence on some terminals) as `\x9b`...;
 * - line and paragraph separators and the bidirectional controls (which reorder what is shown,
 *   "Trojan Source") as `\u2028`, `\u202e`...;
 * - zero-width and other invisible format characters (U+00AD soft hyphen, U+180E, U+200B..U+200D,
 *   U+2060..U+2064, U+206A..U+206F, U+FEFF, U+FFF9..U+FFFB), which hide text or split a word that
 *   looks whole, as `\u200b`...;
 * - every other character that does not show (core/text/unseen.ts: default-ignorable and format
 *   characters, variation selectors, U+034F, Hangul fillers, U+2800, the tag characters, which can
 *   carry a whole hidden text), as `\ufe0f`, `\u{e0041}`...
 *
 * A newline is escaped too: a target-controlled string cannot start a console line of its own.
 * `keepNewlines` keeps `\n` for a multi-line block the suite lays out itself (each line still
 * starting with the suite's own text is then the caller's job).
 *
 * The result holds no control character, so applying it twice changes nothing.
 */
import { INVISIBLE_CLASS } from './unseen.ts';

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0, DEL, C1; U+061C (Arabic letter mark), U+200E/F (LRM, RLM), U+2028/9, U+202A..E, U+2066..9 (bidi);
// invisible format characters: U+00AD, U+180E, U+200B..D, U+2060..4, U+206A..F, U+FEFF, U+FFF9..B;
// and whatever else does not show (INVISIBLE_CLASS).
const INVISIBLE = '\\u00ad\\u180e\\u200b-\\u200d\\u2060-\\u2064\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb';
const UNSAFE = new RegExp(
  `[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069${INVISIBLE}${INVISIBLE_CLASS}]`,
  'gu',
);
const UNSAFE_BUT_NEWLINE = new RegExp(
  `[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069${INVISIBLE}${INVISIBLE_CLASS}]`,
  'gu',
);

export interface TerminalSafeOptions {
  /** Keep `\n` as a line break (for a block the suite lays out); `\r` and the rest are still escaped. */
  keepNewlines?: boolean;
}

export function terminalSafe(s: string, options: TerminalSafeOptions = {}): string {
  return s.replace(options.keepNewlines ? UNSAFE_BUT_NEWLINE : UNSAFE, escapeOne);
}

function escapeOne(c: string): string {
  const short = SHORT[c];
  if (short) return short;
  const code = c.codePointAt(0)!;
  if (code > 0xffff) return `\\u{${code.toString(16)}}`;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
