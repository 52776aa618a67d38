import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import {
  filePath,
  invalidLimit,
  invalidStatusFilter,
  malformedAuthorization,
  malformedCursor,
  pathAround,
  statusSubset,
  validLimit,
  INTERN_STATES,
} from '../generators/arbitraries/index.ts';
import { comparePaths, decodeFileId, encodeFileId } from '../core/document/file-id.ts';
import { FILES_LIMIT, INTERNS_LIMIT } from '../spec/parameter-bounds.ts';

test('bounds come from the OpenAPI document (4.1: 1..1000, 4.3: 1..500)', () => {
  expect(FILES_LIMIT()).toEqual({ min: 1, max: 1000 });
  expect(INTERNS_LIMIT()).toEqual({ min: 1, max: 500 });
});

test('arguments are checked up front', () => {
  expect(() => validLimit({ min: 5, max: 1 })).toThrow(RangeError);
  expect(() => invalidLimit({ min: 1.5, max: 3 })).toThrow(TypeError);
  expect(() => filePath({ maxLength: 0 })).toThrow(RangeError);
  expect(() => statusSubset({ minLength: 9 })).toThrow(RangeError);
  expect(() => pathAround(['b', 'a'], { compare: comparePaths })).toThrow(RangeError);
});

test('valid limits stay inside the bounds and reach both bounds', () => {
  const seen = fc.sample(validLimit(FILES_LIMIT()), { numRuns: 500, seed: 1 });
  expect(seen.every((n) => Number.isInteger(n) && n >= 1 && n <= 1000)).toBe(true);
  expect(seen).toContain(1);
  expect(seen).toContain(1000);
});

test('invalid limits are never a valid page size', () => {
  fc.assert(
    fc.property(invalidLimit(FILES_LIMIT()), ({ value, reason }) => {
      const valid =
        /^[0-9]+$/.test(value) && Number(value) >= 1 && Number(value) <= 1000 && String(Number(value)) === value;
      expect(valid).toBe(false);
      if (reason === 'out-of-range') expect(/^-?[0-9]+$/.test(value)).toBe(true);
    }),
    { numRuns: 500, seed: 2 },
  );
});

test('paths are valid Unicode that survives UTF-8 and the cursor codec', () => {
  fc.assert(
    fc.property(filePath(), (p) => {
      expect(p.length).toBeGreaterThan(0);
      expect(Buffer.from(p, 'utf8').toString('utf8')).toBe(p);
      expect(decodeFileId(encodeFileId(p))).toEqual({ ok: true, path: p, padded: false });
    }),
    { numRuns: 300, seed: 3 },
  );
});

test('paths around a listing lie where they say', () => {
  const listing = ['a', 'a b', 'a.b', 'a/b', 'b', 'é'].sort(comparePaths);
  fc.assert(
    fc.property(pathAround(listing, { compare: comparePaths }), ({ path, position }) => {
      if (position === 'listed') expect(listing).toContain(path);
      if (position === 'between') expect(listing).not.toContain(path);
      if (position === 'before-first') expect(comparePaths(path, listing[0]!)).toBeLessThan(0);
      if (position === 'after-last') expect(comparePaths(path, listing[listing.length - 1]!)).toBeGreaterThan(0);
    }),
    { numRuns: 300, seed: 4 },
  );
});

test('malformed cursors are never container file ids', () => {
  fc.assert(
    fc.property(malformedCursor(), (c) => expect(decodeFileId(c).ok).toBe(false)),
    { numRuns: 500, seed: 5 },
  );
});

test('status subsets are non-empty sets of section 3 states; invalid filters are not', () => {
  fc.assert(
    fc.property(statusSubset(), (s) => {
      expect(s.length).toBeGreaterThan(0);
      expect(new Set(s).size).toBe(s.length);
      for (const x of s) expect(INTERN_STATES).toContain(x);
    }),
    { numRuns: 200, seed: 6 },
  );
  fc.assert(
    fc.property(invalidStatusFilter(), (f) => {
      const parts = f.split(',');
      expect(parts.every((p) => (INTERN_STATES as readonly string[]).includes(p))).toBe(false);
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('malformed Authorization values are sendable header values and never a Bearer of a real key', () => {
  fc.assert(
    fc.property(malformedAuthorization(), ({ header, kind }) => {
      expect(header).toMatch(/^[\x20-\x7e]*$/);
      expect(header.startsWith('Bearer ref_')).toBe(false);
      if (kind === 'unknown-key') expect(header).toMatch(/^Bearer \S+$/);
    }),
    { numRuns: 300, seed: 8 },
  );
});
