import type { Reading } from './reading.ts';
import { backslashEscapes } from './readings/backslash-escapes.ts';
import { characterReference } from './readings/character-reference.ts';
import { lineBreaks } from './readings/line-breaks.ts';
import { percent } from './readings/percent.ts';
import { quotedPrintable } from './readings/quoted-printable.ts';
import { stringJoin } from './readings/string-join.ts';
import { unseen } from './readings/unseen.ts';

/**
 * A kind of view: the readings it reads a text with (./reading.ts), tried in this order where
 * several may start at one character (a percent-encoded backslash before a percent-encoded byte),
 * and the tables a pass derives from them.
 */
export interface ViewKind {
  readonly name: string;
  /** Whether it decodes (reads more than the literal readings). */
  readonly decodes: boolean;
  /** Per ASCII character, the readings that may start there, in order. */
  readonly at: ReadonlyArray<readonly Reading[]>;
  /** The readings of characters above ASCII that do not read as themselves. */
  readonly above: readonly Reading[];
  /** Per ASCII character, 1 where a reading may start. */
  readonly stops: Uint8Array;
  /** Per ASCII character, the constant-time test of where a reading may start, when each reading there has one. */
  readonly gates: ReadonlyArray<((s: string, i: number) => boolean) | undefined>;
  /** Where the next reading may start (one character, at most a lookahead after it), scanned by the engine: linear. */
  readonly ends: RegExp;
}

const classOf = (chars: string) =>
  [...chars].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

function declare(name: string, readings: readonly Reading[]): ViewKind {
  const at = Array.from({ length: 128 }, (_, c) => readings.filter((r) => r.startsAt.includes(String.fromCharCode(c))));
  const gates = at.map((rs) => {
    const tests = rs.map((r) => r.mayStart);
    if (rs.length === 0 || tests.some((t) => t === undefined)) return undefined;
    return (s: string, i: number) => tests.some((t) => t!(s, i));
  });
  const above = readings.filter((r) => r.aboveAscii);
  const plain = readings.filter((r) => r.startPattern === undefined).map((r) => r.startsAt);
  const alternatives = [
    `[${classOf(plain.join(''))}${above.length ? '\\u0080-\\uffff' : ''}]`,
    ...readings.flatMap((r) => (r.startPattern === undefined ? [] : [r.startPattern])),
  ];
  return {
    name,
    decodes: readings.some((r) => !r.literal),
    at,
    above,
    stops: Uint8Array.from(at, (rs) => (rs.length ? 1 : 0)),
    gates,
    ends: new RegExp(alternatives.join('|'), 'g'),
  };
}

/**
 * The literal view: only what a person sees through (what does not show, NUL, line breaks). Decoding
 * can read a key's own characters as part of an escape (`%ab` before a key starting `cd`): every text
 * is also searched in this view, so no decoding hides what is plainly there.
 */
export const LITERAL = declare('literal', [lineBreaks, unseen]);

/** The decoded view: every encoding but quoted-printable, in any mix within one echo. */
export const DECODED = declare('decoded', [
  lineBreaks,
  unseen,
  stringJoin,
  backslashEscapes,
  percent,
  characterReference,
]);

/** Quoted-printable in a view of its own, read only where it occurs (readings/quoted-printable.ts). */
export const QUOTED_PRINTABLE = declare('quoted-printable', [
  lineBreaks,
  unseen,
  stringJoin,
  quotedPrintable,
  backslashEscapes,
  percent,
  characterReference,
]);
