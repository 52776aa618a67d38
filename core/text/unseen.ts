/**
 * What a person does not see, and what reads the same (rule "Hostile input": the mask sees what a person
 * sees). Shared by the mask (core/text/mask.ts), which looks through such characters, and the terminal
 * (core/text/terminal-text.ts), which shows them escaped.
 *
 * Invisible: the default-ignorable code points (variation selectors, U+034F combining grapheme
 * joiner, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the tag characters U+E0000..E007F,
 * zero-width characters), every format character (Cf: bidi controls, soft hyphen, BOM), the line and
 * paragraph separators, and U+2800 (braille pattern blank, which renders as a blank but is no space).
 */
export const INVISIBLE_CLASS = '\\p{Default_Ignorable_Code_Point}\\p{Cf}\\p{Zl}\\p{Zp}\\u2800';

const INVISIBLE = new RegExp(`^[${INVISIBLE_CLASS}]$`, 'u');

/**
 * Per code point above ASCII, computed once: 0 shown as is, 1 invisible, else 2 + the one code unit
 * NFKC folds it to. The BMP in a fixed table (stored plus one, 0 for not yet known); code points
 * above it in a map of bounded size, so a body of a million distinct characters grows nothing.
 */
const bmp = new Int32Array(0x10000);
const astral = new Map<number, number>();
const MAX_ASTRAL_KNOWN = 4096;

function classify(cp: number): number {
  if (cp < 0x10000 && bmp[cp] !== 0) return bmp[cp]! - 1;
  const cached = astral.get(cp);
  if (cached !== undefined) return cached;
  const ch = String.fromCodePoint(cp);
  let kind: number;
  if (INVISIBLE.test(ch)) kind = 1;
  else {
    // Compatibility forms read as another character (fullwidth `ｓ`, mathematical `𝐬`): folded when
    // NFKC gives one code unit, as a reader reads it.
    const folded = ch.normalize('NFKC');
    kind = folded.length === 1 && folded !== ch ? 2 + folded.charCodeAt(0) : 0;
  }
  if (cp < 0x10000) bmp[cp] = kind + 1;
  else if (astral.size < MAX_ASTRAL_KNOWN) astral.set(cp, kind);
  return kind;
}

/** Whether the code point does not show. */
export function isInvisible(cp: number): boolean {
  return cp >= 0x80 && classify(cp) === 1;
}

/** The one code unit a code point reads as under NFKC, or -1 when it reads as itself. */
export function foldedUnit(cp: number): number {
  if (cp < 0x80) return -1;
  const kind = classify(cp);
  return kind >= 2 ? kind - 2 : -1;
}

/** Whether the code point reads as itself: shown, and not folded (ASCII always). */
export function showsAsIs(cp: number): boolean {
  return cp < 0x80 || classify(cp) === 0;
}
