import type { Reading } from '../reading.ts';

const isBlank = (d: number) => d === 32 || d === 9 || d === 10 || d === 13;
const isGlueAfterQuote = (d: number) => isBlank(d) || d === 43;

/**
 * The glue of a string split in two, skipped: `"` (blanks) [`+`] (blanks) `"` (`"sk_li" + "ve"`,
 * `'a' 'b'`). A quote that glues nothing (not followed by a blank or `+`, as in JSON's `":"`) is itself.
 */
export const stringJoin: Reading = {
  name: 'split strings',
  literal: false,
  startsAt: `"'`,
  startPattern: `["'](?=[\\t\\n\\r +])`,
  mayStart: (s, i) => isGlueAfterQuote(s.charCodeAt(i + 1)),
  read(pass, i) {
    const s = pass.s;
    const c = s.charCodeAt(i);
    let j = i + 1;
    while (isBlank(s.charCodeAt(j))) j++;
    if (s.charCodeAt(j) === 43) {
      j++;
      while (isBlank(s.charCodeAt(j))) j++;
    }
    pass.work.read += j - i;
    if (j > i + 1 && s.charCodeAt(j) === c) {
      pass.decodedAny = true;
      return j + 1;
    }
    return -1;
  },
};
