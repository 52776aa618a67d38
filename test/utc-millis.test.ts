import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { parseUtcMillis } from '../suites/support/interns.ts';

/** What 2.5's timestamps read as through JavaScript's Date: the reading parseUtcMillis must give, field checks and all. */
function byDate(s: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})(Z|\+00:00)$/.exec(s);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString() === `${m[1]}Z` ? ms : undefined;
}

const digits = (n: number, max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, '0'));

test('a timestamp reads as Date reads it, for every field value near and past its range (2.5)', () => {
  const stamp = fc
    .tuple(
      fc.oneof(digits(4, 9999), fc.constantFrom('0000', '0099', '0100', '1900', '2000', '2100', '2400')),
      digits(2, 13),
      digits(2, 32),
      digits(2, 25),
      digits(2, 60),
      digits(2, 61),
      digits(3, 999),
      fc.constantFrom('Z', '+00:00', '+01:00', 'z', ''),
    )
    .map(([y, mo, d, h, mi, s, ms, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${zone}`);
  // A plain comparison in the property: Playwright's expect captures a stack at every call.
  fc.assert(
    fc.property(stamp, (s) => parseUtcMillis(s) === byDate(s)),
    { numRuns: 20_000, seed: 20261127 },
  );
  for (const s of [
    '2024-02-29T23:59:59.999Z',
    '2023-02-29T00:00:00.000Z',
    '1900-02-29T00:00:00.000Z',
    '2000-02-29T00:00:00.000+00:00',
    '0000-01-01T00:00:00.000Z',
    '0050-12-31T12:00:00.000Z',
    '2024-01-01T24:00:00.000Z',
    '2016-12-31T23:59:60.000Z',
  ]) {
    expect(parseUtcMillis(s), s).toBe(byDate(s));
  }
  expect(parseUtcMillis('0050-12-31T12:00:00.000Z')).toBe(new Date('0050-12-31T12:00:00.000Z').getTime());
});
