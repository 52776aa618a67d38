import { isHex } from '../reading.ts';
import type { ViewWriter } from '../view.ts';

/** A percent-encoded byte: its value, and the index after it. */
export interface PercentByte {
  end: number;
  code: number;
}

/** The percent-encoded byte at i (`%` `25`* two hex), or undefined. */
export function percentByte(pass: ViewWriter, i: number): PercentByte | undefined {
  const { s, n } = pass;
  if (s.charCodeAt(i) !== 37) return undefined;
  let j = i + 1;
  while (s.charCodeAt(j) === 50 && s.charCodeAt(j + 1) === 53 && j + 1 < n) j += 2;
  pass.work.read += j - i;
  if (isHex(s.charCodeAt(j)) && isHex(s.charCodeAt(j + 1)))
    return { end: j + 2, code: parseInt(s.slice(j, j + 2), 16) };
  // `%2525`: the last `25` is the byte itself, a percent sign.
  if (j > i + 1) return { end: j, code: 37 };
  return undefined;
}
