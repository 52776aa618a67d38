import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { comparePaths } from '../core/document/file-id.ts';
import { compareIn, PATH_ORDERS } from '../suites/support/path-order.ts';

// The path orders compare strings without encoding or splitting them; here each is held to its
// definition, written the plain way (UTF-8 bytes; components split on "/" and compared one by one).
const utf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const utf16 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
function byComponents(a: string, b: string, unit: (x: string, y: string) => number): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = unit(x[i]!, y[i]!);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}
const DEFINITION = {
  'UTF-8 byte order': utf8,
  'UTF-16 code-unit order': utf16,
  'UTF-8 component order': (a: string, b: string) => byComponents(a, b, utf8),
  'UTF-16 component order': (a: string, b: string) => byComponents(a, b, utf16),
} as const;

// Characters where the orders part: "/" and what sorts around it, astral characters against
// U+E000..U+FFFF, and well-formed strings only (lone surrogates have no UTF-8 bytes).
const char = fc.constantFrom(
  '/',
  '!',
  ' ',
  '.',
  '0',
  'a',
  'Z',
  '\u00e9',
  '\ue000',
  '\uff0f',
  '\uffee',
  '\u{1f600}',
  '\u{10000}',
  '\u{1d11e}',
);
const path = fc.array(char, { maxLength: 8 }).map((cs) => cs.join(''));

test('each path order agrees with its definition on any two paths', () => {
  // Plain comparisons inside the property (Playwright's expect records a step per call, slow over
  // 10,000 of them); fast-check reports the first pair that disagrees, shrunk.
  const disagreements = (a: string, b: string): string[] => [
    ...PATH_ORDERS.filter((order) => Math.sign(compareIn(order, a, b)) !== Math.sign(DEFINITION[order](a, b))),
    ...(Math.sign(comparePaths(a, b)) !== Math.sign(utf8(a, b)) ? ['comparePaths'] : []),
  ];
  const found = fc.check(
    fc.property(path, path, (a, b) => disagreements(a, b).length === 0),
    { numRuns: 2000, seed: 42 },
  );
  const pair = found.counterexample;
  expect(
    pair ? `${disagreements(...pair).join(', ')} on ${JSON.stringify(pair)}` : 'every order agrees',
    `${found.numRuns} pairs`,
  ).toBe('every order agrees');
});
