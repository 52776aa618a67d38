import fc from 'fast-check';
import { filePath } from './file-path.ts';

/** Where a generated path lies relative to an observed listing. */
export type PathPosition = 'listed' | 'between' | 'before-first' | 'after-last' | 'spread' | 'arbitrary';

// Probe points spread over the key space, whatever the data: a listing that ended early shows up as
// files after one of them that the traversal never listed.
const SPREAD = ['-', '0', '5', 'A', 'M', 'Z', '_', 'a', 'f', 'm', 's', 'z', '~', '\u00e9', '\u4e00', '\u{1F600}'];

/**
 * Paths positioned against a listing observed on the target (4.1 "any container file id"): listed
 * ones, ones strictly between two consecutive listed paths, before the first, after the last, probe
 * points spread over the key space, and arbitrary ones. The listing must be in the order `compare` gives.
 */
export interface PathAroundConstraints {
  /** The path order the listing is in (the target's lexicographic order, 2.2 / 4.1). */
  compare: (a: string, b: string) => number;
}

export function pathAround(
  listing: readonly string[],
  constraints: PathAroundConstraints,
): fc.Arbitrary<{ path: string; position: PathPosition }> {
  if (!Array.isArray(listing)) throw new TypeError('pathAround: listing must be an array of paths');
  if (typeof constraints?.compare !== 'function')
    throw new TypeError('pathAround: constraints.compare must be a function');
  const comparePaths = constraints.compare;
  for (let i = 1; i < listing.length; i++) {
    if (comparePaths(listing[i - 1]!, listing[i]!) >= 0)
      throw new RangeError(`pathAround: listing is not in strictly increasing path order at ${i}`);
  }
  const arbitrary = fc.oneof(
    filePath().map((path) => ({ path, position: 'arbitrary' as const })),
    fc.constantFrom(...SPREAD).map((path) => ({ path, position: 'spread' as const })),
  );
  if (listing.length === 0) return arbitrary;
  const first = listing[0]!;
  const last = listing[listing.length - 1]!;
  const index = fc.integer({ min: 0, max: listing.length - 1 });
  return fc.oneof(
    index.map((i) => ({ path: listing[i]!, position: 'listed' as const })),
    // p + "\u0000" sorts right after p and before any longer listed path p + x.
    index.map((i) => ({ path: `${listing[i]!}\u0000`, position: 'between' as const })),
    fc
      .constant({ path: '\u0000', position: 'before-first' as const })
      .filter(({ path }) => comparePaths(path, first) < 0),
    fc.constant({ path: `${last}\u{10FFFF}`, position: 'after-last' as const }),
    { weight: 2, arbitrary },
  );
}
