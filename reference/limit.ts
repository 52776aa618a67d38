/**
 * The page-size parameter of listContainerFiles (4.1, 8) and list interns (4.3, 8), read under the
 * reading switches of reference/variants.ts. The default is strictInt: canonical decimal digits within
 * the bounds, anything else refused.
 */
import type { ReferenceOptions } from './options.ts';
import { strictInt, type Parsed } from './query.ts';
import { hasReading } from './variants.ts';

export function readLimit(
  opts: Pick<ReferenceOptions, 'readings'>,
  raw: string | undefined,
  min: number,
  max: number,
  dflt: number,
): Parsed<number> {
  // limit-empty-default: `limit=` is no limit at all.
  let text = raw === '' && hasReading(opts, 'limit-empty-default') ? undefined : raw;
  // limit-spelling-default: an integer spelled otherwise than in plain digits is no limit it reads.
  if (
    text !== undefined &&
    hasReading(opts, 'limit-spelling-default') &&
    !/^(0|-?[1-9][0-9]*)$/.test(text) &&
    text.trim() !== '' &&
    Number.isInteger(Number(text))
  )
    text = undefined;
  const clamped = hasReading(opts, 'limit-clamped');
  const spellings = hasReading(opts, 'limit-number-spellings');
  if (text === undefined || (!clamped && !spellings)) return strictInt(text, min, max, dflt);
  let n: number;
  if (spellings)
    n = text.trim() === '' ? NaN : Number(text); // "1e2", "2.0", "+5", "05", "0x10"
  else n = /^-?[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n)) return { ok: false }; // "abc", "1.5", "Infinity": not an integer under any reading
  // limit-clamped: the bounds are those of the page size used, not of the value accepted.
  if (clamped) return { ok: true, value: Math.min(max, Math.max(min, n)) };
  return n >= min && n <= max ? { ok: true, value: n } : { ok: false };
}
