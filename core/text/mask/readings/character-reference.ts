import { isDigit, isHex, type Reading } from '../reading.ts';

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

/**
 * HTML / XML character references: `&#x5F;`, `&#95;`, and the named ones of NAMED (`&lowbar;`),
 * bounded in length. A numeric reference without its `;` counts (`&#115&#107`): HTML reads it so.
 */
export const characterReference: Reading = {
  name: 'character references',
  literal: false,
  startsAt: '&',
  read(pass, i) {
    const s = pass.s;
    let code: number;
    let end: number;
    if (s.charCodeAt(i + 1) === 35 /* # */) {
      const hexRef = s.charCodeAt(i + 2) === 120 || s.charCodeAt(i + 2) === 88;
      let j = i + (hexRef ? 3 : 2);
      const first = j;
      while (j - first < 8 && (hexRef ? isHex(s.charCodeAt(j)) : isDigit(s.charCodeAt(j)))) j++;
      if (j === first) return -1;
      code = parseInt(s.slice(first, j), hexRef ? 16 : 10);
      end = s.charCodeAt(j) === 59 ? j + 1 : j;
      if (code <= 0 || code > 0xffff) return -1;
    } else {
      let semi = i + 1;
      while (semi - i <= 10 && semi < s.length && s.charCodeAt(semi) !== 59) semi++;
      if (s.charCodeAt(semi) !== 59) return -1;
      const char = NAMED[s.slice(i + 1, semi).toLowerCase()];
      if (char === undefined) return -1;
      code = char.charCodeAt(0);
      end = semi + 1;
    }
    pass.emit(code, i, end);
    pass.decodedAny = true;
    return end;
  },
};
