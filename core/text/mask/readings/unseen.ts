import { foldedUnit, isInvisible } from '../../unseen.ts';
import { codePointAt, type Reading } from '../reading.ts';

/**
 * What does not show (core/text/unseen.ts), skipped, and a compatibility form (fullwidth `ｓ`) read
 * as the one character NFKC reads it as: the mask sees what a person sees.
 */
export const unseen: Reading = {
  name: 'what does not show, compatibility forms',
  literal: true,
  startsAt: '',
  aboveAscii: true,
  read(pass, i) {
    const s = pass.s;
    const c = s.charCodeAt(i);
    const cp = codePointAt(s, i, c);
    const width = cp > 0xffff ? 2 : 1;
    if (isInvisible(cp)) return i + width;
    const folded = foldedUnit(cp);
    if (folded >= 0) pass.emit(folded, i, i + width);
    else {
      pass.emit(c, i, i + 1);
      if (width === 2) pass.emit(s.charCodeAt(i + 1), i + 1, i + 2);
    }
    return i + width;
  },
};
