import { isUpperHex, type Reading } from '../reading.ts';

/**
 * Quoted-printable: `=XX` (upper-case hex, RFC 2045 6.7) is a byte, `=` at a line's end a soft break.
 * Read only by a view of its own (./views.ts): `=` before hex is everywhere in URLs (`after=73...`).
 */
export const quotedPrintable: Reading = {
  name: 'quoted-printable',
  literal: false,
  startsAt: '=',
  read(pass, i) {
    const s = pass.s;
    if (isUpperHex(s.charCodeAt(i + 1)) && isUpperHex(s.charCodeAt(i + 2))) {
      const code = parseInt(s.slice(i + 1, i + 3), 16);
      if (code !== 0) pass.emit(code, i, i + 3);
      pass.decodedAny = true;
      return i + 3;
    }
    if (s.charCodeAt(i + 1) === 10 || (s.charCodeAt(i + 1) === 13 && s.charCodeAt(i + 2) === 10)) {
      pass.decodedAny = true;
      return i + (s.charCodeAt(i + 1) === 10 ? 2 : 3);
    }
    return -1;
  },
};

/** `=` before two upper-case hex digits or a line break (fixed width: linear, by the engine's scan). */
const QUOTED_PRINTABLE = /=(?:[0-9A-F]{2}|[\n\r])/;

/** Whether quoted-printable occurs in `s`: only then is its view read. */
export function hasQuotedPrintable(s: string): boolean {
  return QUOTED_PRINTABLE.test(s);
}
