import { showsAsIs } from '../unseen.ts';
import { codePointAt } from './reading.ts';
import { type View, ViewWriter } from './view.ts';
import type { ViewKind } from './views.ts';
import type { MaskWork } from './work.ts';

/**
 * One linear pass over `s` with the readings of `kind` (./views.ts): each spelled character (an
 * escape, a percent-encoding, a character reference) becomes one character of the view, what a split
 * or an interleaving adds and what does not show is skipped, and every other character is itself.
 * Every reading consumes what it scanned, so no character is read more than a constant number of times.
 */
export function viewOf(s: string, kind: ViewKind, work: MaskWork): View {
  const n = s.length;
  work.read += n;
  const pass = new ViewWriter(s, work);
  let i = 0;
  while (i < n) {
    const start = i;
    i = ownRun(s, i, kind);
    if (i > start) pass.itself(start, i);
    if (i >= n) break;
    const c = s.charCodeAt(i);
    const readings = c < 0x80 ? kind.at[c]! : kind.above;
    let next = -1;
    for (let r = 0; r < readings.length && next < 0; r++) next = readings[r]!.read(pass, i);
    if (next < 0) {
      pass.emit(c, i, i + 1);
      next = i + 1;
    }
    i = next;
  }
  return pass.view(kind.decodes);
}

/** Encodings nest (a character reference percent-encoded, a quote escaped): decoded this many times at most. */
const ROUNDS = 4;

/**
 * The view decoded until nothing changes (at most ROUNDS linear passes), each character mapped back
 * to the span of the original text it came from. A pass that changed nothing ends it: the next one
 * would read the same text again.
 */
export function decodedView(s: string, kind: ViewKind, work: MaskWork, first = viewOf(s, kind, work)): View {
  let view = first;
  if (view.whole) return view;
  for (let round = 1; round < ROUNDS; round++) {
    const next = viewOf(view.text, kind, work);
    if (next.whole || next.text === view.text) break;
    view = view.over(next);
  }
  return view;
}

/**
 * The end of the run of characters from i that are their own view: what most of a pass reads. The
 * next character where a reading may start (`kind.ends`, linear) is found by the engine's own scan;
 * one above ASCII is looked at here, with those after it (a text in another script is mostly such
 * characters, each its own view).
 */
function ownRun(s: string, i: number, kind: ViewKind): number {
  const n = s.length;
  const ends = kind.ends;
  while (i < n) {
    ends.lastIndex = i;
    if (!ends.test(s)) return n;
    const j = ends.lastIndex - 1;
    if (s.charCodeAt(j) < 0x80) return j;
    const limit = Math.min(n, j + 64);
    i = ownChars(s, j, limit, kind);
    if (i < limit) return i;
  }
  return n;
}

/** ownRun's reading character by character, from i up to `limit` (or just past it, for a surrogate pair). */
function ownChars(s: string, i: number, limit: number, kind: ViewKind): number {
  for (; i < limit; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (kind.stops[c] === 0) continue;
      const gate = kind.gates[c];
      if (gate && !gate(s, i)) continue;
      return i;
    }
    const cp = codePointAt(s, i, c);
    if (kind.above.length > 0 && !showsAsIs(cp)) return i;
    if (cp > 0xffff) i++;
  }
  return i;
}
