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
});

test('a check seed is the pinned 32-bit mix of its run seed and check id', () => {
  // A run seed printed in a report replays the same inputs with a later version of the suite: the
  // mix is pinned, value for value, at both ends of the 32-bit range of run seeds.
  expect(
    [
      [0, 'x'],
      [1, 'x'],
      [2 ** 32 - 1, 'x'],
      [1234, 'files.property.strictly-after'],
      [1234, 'auth.property.malformed-credentials'],
    ].map(([run, id]) => checkSeed(run as number, id as string)),
  ).toEqual([794621484, 3126519347, 1691292007, 3442540346, 3936883707]);
});

test('check seeds spread over all 32 bits: each bit is set for about half of 10,000 run seeds', () => {
  // An unsigned 32-bit value whose every bit is set about half the time: a mix that lost a bit (a
  // sign, a shift) would leave it always 0 or always 1.
  const setCounts = new Array<number>(32).fill(0);
  const outOfRange: number[] = [];
  for (let s = 0; s < 10_000; s++) {
    const seed = checkSeed(s, 'files.property.strictly-after');
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) outOfRange.push(seed);
    for (let bit = 0; bit < 32; bit++) if (Math.floor(seed / 2 ** bit) % 2 === 1) setCounts[bit]!++;
  }
  expect(outOfRange).toEqual([]);
  expect(setCounts.filter((n) => n < 4_500 || n > 5_500)).toEqual([]);
});
