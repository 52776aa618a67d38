import fc from 'fast-check';
import { assertIntegerRange } from './constraints.ts';

export interface ValidLimitConstraints {
  /** Smallest page size the parameter accepts (4.1: 1; 4.3: 1). */
  min: number;
  /** Largest page size the parameter accepts (4.1: 1000; 4.3: 500). */
  max: number;
}

/** A page size inside the bounds, biased towards the bounds themselves and their inner neighbours. */
export function validLimit(c: ValidLimitConstraints): fc.Arbitrary<number> {
  assertIntegerRange('validLimit', c.min, c.max);
  const edges = [...new Set([c.min, c.min + 1, c.max - 1, c.max].filter((n) => n >= c.min && n <= c.max))];
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
    { weight: 3, arbitrary: fc.integer({ min: c.min, max: c.max }) },
  );
}
