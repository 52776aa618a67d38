import type { ViewWriter } from './view.ts';

/**
 * How a view reads one encoding of a character: where it may start, and how it reads what starts
 * there. A reading writes the characters it spells with the span of the text that spells them
 * (`pass.emit(code, start, end)`: how the view maps them back to the original), and writes nothing
 * for what it skips (what does not show, the glue of a split string). The views are declared as lists
 * of readings (./views.ts); one loop reads a text with them (./view-of.ts).
 */
export interface Reading {
  readonly name: string;
  /** Read by the literal view too (what it undoes is no decoding: a person sees through it); else by the decoding views only. */
  readonly literal: boolean;
  /** The ASCII characters it may start at. */
  readonly startsAt: string;
  /** It may start at a character above ASCII that does not read as itself (core/text/unseen.ts showsAsIs). */
  readonly aboveAscii?: boolean;
  /**
   * Where it may start, as a regular expression of fixed width (a character and at most a lookahead),
   * when a character of `startsAt` alone is not enough: a pass finds the next place where some reading
   * may start with one linear scan of the engine's. Default: one character of `startsAt`.
   */
  readonly startPattern?: string;
  /** In constant time, whether it may start at i, where `s` holds a character of `startsAt` (default: always). */
  mayStart?(s: string, i: number): boolean;
  /**
   * Reads at i: the index after what it read, having written what that spells; -1 when it does not
   * apply (the next reading of the view is tried, and the character is at last its own view). It
   * counts in `pass.work.read` what it reads ahead of i in runs of unbounded length.
   */
  read(pass: ViewWriter, i: number): number;
}

export const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
export const isUpperHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70);
export const isDigit = (c: number) => c >= 48 && c <= 57;
export const isOctal = (c: number) => c >= 48 && c <= 55;

/** The code point at i (a surrogate pair read whole). */
export function codePointAt(s: string, i: number, c: number): number {
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}
