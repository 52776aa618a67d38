import { isHex, isOctal, type Reading } from '../reading.ts';
import type { ViewWriter } from '../view.ts';
import { percentByte } from './percent-byte.ts';

/**
 * JSON / JavaScript / C escapes: `\u0073`, `\x73`, `\163` (octal, at most 0o377), `\/`, `\"`, `\'`,
 * the backslash itself escaped again any number of times or percent-encoded (`\\\\u0073`,
 * `%5Cu0073`: a body quoted in report.json, a cursor sent back encoded); an escaped line break
 * (`\n`, `\r`) is skipped like a raw one.
 */
export const backslashEscapes: Reading = {
  name: 'backslash escapes',
  literal: false,
  startsAt: '\\%',
  read(pass, i) {
    const s = pass.s;
    const run = backslashes(pass, i);
    if (run === i) return -1;
    const next = s.charCodeAt(run);
    let end = -1;
    if (
      next === 117 /* u */ &&
      isHex(s.charCodeAt(run + 1)) &&
      isHex(s.charCodeAt(run + 2)) &&
      isHex(s.charCodeAt(run + 3)) &&
      isHex(s.charCodeAt(run + 4))
    )
      end = run + 5;
    else if (next === 120 /* x */ && isHex(s.charCodeAt(run + 1)) && isHex(s.charCodeAt(run + 2))) end = run + 3;
    if (end > 0) {
      const code = parseInt(s.slice(run + 1, end), 16);
      if (code !== 0) pass.emit(code, i, end);
      pass.decodedAny = true;
      return end;
    }
    if (next >= 48 && next <= 51 && isOctal(s.charCodeAt(run + 1)) && isOctal(s.charCodeAt(run + 2))) {
      const code = parseInt(s.slice(run, run + 3), 8);
      if (code !== 0) pass.emit(code, i, run + 3);
      pass.decodedAny = true;
      return run + 3;
    }
    if (next === 47 /* / */ || next === 34 /* " */ || next === 39 /* ' */) {
      pass.emit(next, i, run + 1);
      pass.decodedAny = true;
      return run + 1;
    }
    if (next === 110 /* n */ || next === 114 /* r */) {
      pass.decodedAny = true;
      return run + 1;
    }
    // Plain backslashes: each one as itself, and the run is not read again.
    for (let j = i; j < run; ) {
      const p = s.charCodeAt(j) === 92 ? j + 1 : percentByte(pass, j)!.end;
      if (p !== j + 1) pass.decodedAny = true;
      pass.emit(92, j, p);
      j = p;
    }
    return run;
  },
};

/** The end of a run of backslashes at i, each `\` or a percent-encoded one. */
function backslashes(pass: ViewWriter, i: number): number {
  const s = pass.s;
  let j = i;
  for (;;) {
    if (s.charCodeAt(j) === 92) j++;
    else {
      const p = percentByte(pass, j);
      if (p && p.code === 92) j = p.end;
      else {
        pass.work.read += j - i;
        return j;
      }
    }
  }
}
