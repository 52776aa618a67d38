import fc from 'fast-check';
import { assertIntegerRange } from './constraints.ts';

export interface InvalidLimitConstraints {
  min: number;
  max: number;
}

/** Why a generated value is not a valid page size: out of range, or not an integer at all. */
export type InvalidLimit = { value: string; reason: 'out-of-range' | 'not-an-integer' };

/**
 * A query value that is not a valid page size (4.1 / 4.3): neighbours of the bounds, negatives, huge
 * numbers, and strings that are not integers. Leading zeros, signs and spaces are left out: a server
 * may read "05" or "+5" as 5 without breaking the document.
 */
export function invalidLimit(c: InvalidLimitConstraints): fc.Arbitrary<InvalidLimit> {
  assertIntegerRange('invalidLimit', c.min, c.max);
  const outOfRange = fc
    .oneof(
      fc.constantFrom(c.min - 1, c.max + 1, -1, 0).filter((n) => n < c.min || n > c.max),
      fc.integer({ min: c.max + 1, max: 2 ** 31 }),
      fc.integer({ min: -(2 ** 31), max: c.min - 1 }),
      fc.constant(Number.MAX_SAFE_INTEGER),
    )
    .map((n) => ({ value: String(n), reason: 'out-of-range' as const }));
  const hugeDigits = fc
    .integer({ min: 20, max: 40 })
    .map((n) => ({ value: '9'.repeat(n), reason: 'out-of-range' as const }));
  const notInteger = fc
    .oneof(
      fc.constantFrom('abc', '1.5', '', '1e2', 'NaN', 'Infinity', 'null', '0x10', '[1]', '2.0'),
      fc
        .double({ min: c.min, max: c.max, noNaN: true })
        .filter((d) => !Number.isInteger(d))
        .map((d) => String(d)),
      fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom(...'abcxyz-_.!~') }),
    )
    .map((value) => ({ value, reason: 'not-an-integer' as const }));
  return fc.oneof(outOfRange, hugeDigits, notInteger);
}
