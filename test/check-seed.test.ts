import { expect, test } from '@playwright/test';
import { checkSeed } from '../core/check/check.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';

// One seed per run, and from it one seed per check (core/check/check.ts): distinct run seeds must give a
// check distinct inputs (a weak mix can give run seeds 0 to 9 the same seed), and two checks of one
// run differ, whatever runs before them.

test('run seeds 0 to 9999 give 10,000 distinct seeds for one check', () => {
  for (const id of ['files.property.strictly-after', 'auth.property.malformed-credentials']) {
    const seeds = new Set<number>();
    for (let s = 0; s < 10_000; s++) seeds.add(checkSeed(s, id));
    expect(seeds.size, id).toBe(10_000);
  }
});

test('one run seed gives every check its own seed, the same on every call', () => {
  const seeds = ALL_CHECKS.map((c) => checkSeed(1234, c.id));
  expect(new Set(seeds).size).toBe(ALL_CHECKS.length);
  expect(ALL_CHECKS.map((c) => checkSeed(1234, c.id))).toEqual(seeds);
  for (const s of [0, 1, 2 ** 32 - 1]) expect(checkSeed(s, 'x')).toBeGreaterThanOrEqual(0);
});
