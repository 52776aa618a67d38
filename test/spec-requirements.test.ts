import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { catalogue, LEVELS } from '../core/document/catalogue.ts';
import { OPERATIONS } from '../core/document/operations.ts';
import { documentAbsentReason, findServiceDocument, quoteProblem } from '../spec/document.ts';

// A published requirement id is a promise: reports, CI gates and certifications cite it. This file
// pins each id to its level and sentence, so an id never silently changes meaning. Adding an id means
// adding it here; changing a pinned one means giving the new meaning a new id. A level changes only
// with its reason (a reading of the words, spec/readings.yaml), in the fixture and the catalogue at once.
const pinned = JSON.parse(readFileSync(new URL('./fixtures/requirement-ids.json', import.meta.url), 'utf8')) as Array<{
  id: string;
  level: string;
  statement: string;
}>;

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
  const unpinned = catalogue()
    .requirements.filter((r) => !known.has(r.id))
    .map((r) => r.id);
  expect(unpinned, 'add new ids to test/fixtures/requirement-ids.json').toEqual([]);
});

test('each "not shown" point of the document is UNSPECIFIED, never MUST or SHOULD', () => {
  for (const r of catalogue().requirements) {
    if (/not shown/i.test(r.statement)) expect(r.level, r.id).toBe('UNSPECIFIED');
    // Either the document says "not shown" or its words leave the point open (and the statement says so).
    if (r.level === 'UNSPECIFIED') expect(r.statement, r.id).toMatch(/not shown|left open/i);
  }
});

test('every requirement has a basis, quoted from a section it names', () => {
  const problems: string[] = [];
  for (const r of catalogue().requirements) {
    const basis = r.basis ?? [];
    if (basis.length === 0) problems.push(`${r.id}: no basis`);
    // "4.1 rule 3, 7.1" names 4.1 and 7.1; a quote from 7.1 also rests on a requirement of section 7.
    const named = r.section.split(',').map((s) => s.trim().split(' ')[0]!);
    for (const b of basis) {
      if (typeof b.section !== 'string' || typeof b.quote !== 'string')
        problems.push(`${r.id}: basis entries are { section, quote } strings`);
      else if (!named.some((s) => b.section === s || b.section.startsWith(`${s}.`)))
        problems.push(`${r.id}: basis section ${b.section} is not among its sections ${r.section}`);
    }
  }
  expect(problems).toEqual([]);
});

// Rule "Verdicts in both directions": a MUST rests on the document's own words. Each requirement quotes them, verbatim up to
// whitespace (table pipes and backticks included). Without the document, test/grounding.test.ts
// holds each quote to the record of the document it was found in.
test('every requirement rests on a verbatim quote of the service document', () => {
  const doc = findServiceDocument()!;
  test.skip(doc === undefined, documentAbsentReason());
  const problems = catalogue().requirements.flatMap((r) =>
    (r.basis ?? [])
      .map((b) => quoteProblem(doc, b.section, b.quote))
      .filter((p) => p !== undefined)
      .map((p) => `${r.id}: ${p}`),
  );
  expect(problems).toEqual([]);
});

test('a MUST never rests on a "not shown" sentence; an UNSPECIFIED point quotes one or says its words leave it open', () => {
  for (const r of catalogue().requirements) {
    const quotes = (r.basis ?? []).map((b) => b.quote).join(' | ');
    if (r.level === 'MUST') expect(quotes, r.id).not.toMatch(/not shown/);
    if (r.level === 'UNSPECIFIED' && !/not shown/.test(quotes)) expect(r.statement, r.id).toMatch(/left open/);
  }
});

test('the quote check finds a verbatim quote and refuses an altered one', () => {
  const doc = findServiceDocument()!;
  test.skip(doc === undefined, documentAbsentReason());
  expect(quoteProblem(doc, '4.1', 'Listing resumes   strictly after\nthat path.')).toBeUndefined();
  expect(quoteProblem(doc, '4.1', 'Listing resumes strictly after the path.')).toMatch(/not in the document/);
  expect(quoteProblem(doc, '2.1', 'Listing resumes strictly after that path.')).toMatch(/not in section 2.1/);
  expect(quoteProblem(doc, '4.9', 'Listing resumes strictly after that path.')).toMatch(/no section 4.9/);
  // Table text is quoted with its pipes and backticks, as it appears.
  expect(quoteProblem(doc, '2.2', '| object | string | yes | Always `list`. |')).toBeUndefined();
  expect(quoteProblem(doc, '2.2', 'object string yes Always list.')).toMatch(/not in the document/);
});
