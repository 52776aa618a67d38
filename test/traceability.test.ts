import { expect, test } from '@playwright/test';
import { catalogue, strongestLevel } from '../core/document/catalogue.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';

// The traceability matrix is derived from the check declarations; these tests keep it whole.

test('check ids are unique and every requirement they name exists', () => {
  const ids = ALL_CHECKS.map((c) => c.id);
  expect(ids.length - new Set(ids).size, 'duplicate check ids').toBe(0);
  for (const c of ALL_CHECKS) {
    expect(c.requirements.length, c.id).toBeGreaterThan(0);
    for (const r of c.requirements)
      expect(catalogue().byId.has(r), `${c.id} names unknown requirement ${r}`).toBe(true);
  }
});

test('every MUST and SHOULD requirement has a check that can fail it', () => {
  const uncovered = catalogue()
    .requirements.filter((r) => r.level !== 'UNSPECIFIED')
    .filter((r) => !ALL_CHECKS.some((c) => c.kind !== 'observation' && c.requirements.includes(r.id)))
    .map((r) => `${r.level} ${r.id} (${r.section})`);
  expect(uncovered).toEqual([]);
});

test('every observable UNSPECIFIED point has an observation', () => {
  const unobserved = catalogue()
    .requirements.filter((r) => r.level === 'UNSPECIFIED' && r.observable !== false)
    .filter((r) => !ALL_CHECKS.some((c) => c.requirements.includes(r.id)))
    .map((r) => `${r.id} (${r.section})`);
  expect(unobserved).toEqual([]);
});

test('an observation only observes: it declares no MUST or SHOULD requirement', () => {
  for (const c of ALL_CHECKS.filter((c) => c.kind === 'observation'))
    expect(strongestLevel(c.requirements), c.id).toBe('UNSPECIFIED');
});
