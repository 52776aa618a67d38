import { foldedUnit, isInvisible } from '../../unseen.ts';
import type { Reading } from '../reading.ts';
import type { ViewWriter } from '../view.ts';
import { type PercentByte, percentByte } from './percent-byte.ts';

/**
 * Percent-encoding, `%25` repeated (a URL encoded twice). A character of several UTF-8 bytes, each
 * percent-encoded (`%E2%80%8B`), is read whole, so that what does not show is skipped and a
 * compatibility form folded, as in the raw text. Keys are RFC 6750 b64token, ASCII: a byte decodes to
 * the character of that code, which is the key's character for every ASCII key.
 */
export const percent: Reading = {
  name: 'percent-encoding',
  literal: false,
  startsAt: '%',
  read(pass, i) {
    const p = percentByte(pass, i);
    if (!p) return -1;
    pass.decodedAny = true;
    const wide = p.code >= 0xc0 ? utf8Sequence(pass, p) : undefined;
    if (!wide) {
      if (p.code !== 0) pass.emit(p.code, i, p.end);
      return p.end;
    }
    const folded = foldedUnit(wide.cp);
    if (isInvisible(wide.cp)) {
      // skipped
    } else if (folded >= 0) pass.emit(folded, i, wide.end);
    else if (wide.cp > 0xffff) {
      pass.emit(0xd800 + ((wide.cp - 0x10000) >> 10), i, wide.end);
      pass.emit(0xdc00 + ((wide.cp - 0x10000) & 0x3ff), i, wide.end);
    } else pass.emit(wide.cp, i, wide.end);
    return wide.end;
  },
};

/** The code point of a UTF-8 sequence whose lead byte is `lead`, its continuation bytes percent-encoded too, or undefined. */
function utf8Sequence(pass: ViewWriter, lead: PercentByte): { cp: number; end: number } | undefined {
  const more = lead.code >= 0xf0 ? (lead.code >= 0xf8 ? -1 : 3) : lead.code >= 0xe0 ? 2 : 1;
  if (more < 0) return undefined;
  let cp = lead.code & (0x3f >> more);
  let end = lead.end;
  for (let m = 0; m < more; m++) {
    const next = percentByte(pass, end);
    if (!next || next.code < 0x80 || next.code > 0xbf) return undefined;
    cp = (cp << 6) | (next.code & 0x3f);
    end = next.end;
  }
  return cp >= 0x80 && cp <= 0x10ffff ? { cp, end } : undefined;
}
