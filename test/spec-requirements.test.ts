import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { catalogue, LEVELS } from '../core/catalogue.ts';
import { OPERATIONS } from '../core/operations.ts';

// A published requirement id is a promise: reports, CI gates and certifications cite it. This file
// pins each id to its level and sentence, so an id never silently changes meaning. Adding an id means
// adding it here; changing a pinned one means giving the new meaning a new id.
const pinned = JSON.parse(readFileSync(new URL('./fixtures/requirement-ids.json', import.meta.url), 'utf8')) as Array<{ id: string; level: string; statement: string }>;

test('requirement ids are unique, well formed and fully described', () => {
  const { requirements } = catalogue();
  const ids = requirements.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const r of requirements) {
    expect(r.id, r.id).toMatch(/^(files|models|interns|auth|general)(\.[a-z0-9]+(-[a-z0-9]+)*)+$/);
    expect(LEVELS, r.id).toContain(r.level);
    expect(OPERATIONS, r.id).toContain(r.operation);
    expect(r.section, r.id).toMatch(/^[1-9]/);
    expect(r.statement.length, r.id).toBeGreaterThan(10);
  }
  expect(requirements.length).toBeGreaterThanOrEqual(70);
  expect(requirements.length).toBeLessThanOrEqual(120);
});

test('every pinned requirement id keeps its level and meaning', () => {
  const byId = catalogue().byId;
  for (const p of pinned) {
    const r = byId.get(p.id);
    expect(r, `pinned id ${p.id} was removed`).toBeDefined();
    expect({ id: p.id, level: r!.level, statement: r!.statement }, `pinned id ${p.id} changed`).toEqual(p);
  }
});

test('every requirement id is pinned', () => {
  const known = new Set(pinned.map((p) => p.id));
  const unpinned = catalogue().requirements.filter((r) => !known.has(r.id)).map((r) => r.id);
  expect(unpinned, 'add new ids to test/fixtures/requirement-ids.json').toEqual([]);
});

test('each "not shown" point of the document is UNSPECIFIED, never MUST or SHOULD', () => {
  for (const r of catalogue().requirements) {
    if (/not shown/i.test(r.statement)) expect(r.level, r.id).toBe('UNSPECIFIED');
    if (r.level === 'UNSPECIFIED') expect(r.statement, r.id).toMatch(/not shown/i);
  }
});
