import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RequestLogEntry } from '../core/http/request-log.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { probeCheck } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

const PROPERTIES = [
  'files.property.traversal',
  'files.property.prefix',
  'files.property.strictly-after',
  'files.property.invalid-inputs',
  'files.property.strict-inputs',
  'auth.property.malformed-credentials',
  'interns.property.filter-and-size',
  'interns.property.filter-combinations',
  'interns.property.invalid-query',
];

// Legal choices the document leaves open (4.1 rules 3 and 5, RFC 4648 section 5 padding).
const CONFORMANT = [{}, { scanBound: 3 }, { paddedIds: true }, { firstIdNull: true }];

for (const id of PROPERTIES) {
  for (const options of CONFORMANT) {
    test(`${id} holds on the reference ${JSON.stringify(options)} within its budget share`, async () => {
      const outcome = await probeCheck(id, options);
      expect(outcome.reason ?? '').toBe('');
      expect(outcome.status).toBe('pass');
      expect(outcome.requests).toBeLessThanOrEqual(400);
    });
  }
}

// Data shapes with many empty pages in a row (4.1 rule 3, 8 rule 1): each property holds, or (where the
// listing is longer than its share of the budget) is not judged and says why; it never fails.
for (const name of ['long-hidden-runs', 'scan-bound-1', 'sparse-visible-files']) {
  test(`the files properties never fail on variant ${name}: they hold, or say why they are not judged`, async () => {
    const options = CONFORMANT_VARIANTS.find((v) => v.name === name)!.options;
    for (const id of PROPERTIES.filter((p) => p.startsWith('files.'))) {
      const outcome = await probeCheck(id, options);
      expect(outcome.failures, `${id}: ${outcome.reason}`).toEqual([]);
      expect(['pass', 'skip'], `${id}: ${outcome.reason}`).toContain(outcome.status);
      if (outcome.status === 'skip') expect(outcome.reason, id).toMatch(/budget|not judged/);
    }
  });
}

// Each fault that only a property can reveal, with the property that must reveal it.
const CAUGHT_BY = [
  { fault: 'files-after-inclusive', property: 'files.property.strictly-after' },
  { fault: 'files-page-larger-than-limit', property: 'files.property.prefix' },
  { fault: 'pagination-skip-item-between-pages', property: 'files.property.traversal' },
  { fault: 'pagination-has-more-false-on-truncated-page', property: 'files.property.strictly-after' },
  { fault: 'pagination-wrong-sort-order', property: 'files.property.traversal' },
  { fault: 'pagination-cursor-cycle', property: 'files.property.prefix' },
  { fault: 'pagination-cursor-backwards', property: 'files.property.prefix' },
  // An out-of-range integer limit clamped is a SHOULD failure (spec/readings.yaml: clamping is a faithful
  // reading of 4.1), so it is the SHOULD property's to catch, not the MUST files.property.invalid-inputs'.
  { fault: 'files-limit-bounds-not-enforced', property: 'files.property.strict-inputs' },
  { fault: 'files-after-invalid-accepted', property: 'files.property.invalid-inputs' },
  { fault: 'auth-invalid-key-accepted', property: 'auth.property.malformed-credentials' },
  { fault: 'interns-status-subset-ignored', property: 'interns.property.filter-and-size' },
  { fault: 'interns-page-size-off-by-one', property: 'interns.property.filter-and-size' },
  { fault: 'interns-bad-status-accepted', property: 'interns.property.invalid-query' },
  { fault: 'interns-status-dropped-with-workspace', property: 'interns.property.filter-combinations' },
];

for (const { fault, property } of CAUGHT_BY) {
  test(`${property} fails with a shrunk, replayable counterexample on ${fault}`, async () => {
    const declared = FAULTS.find((f) => f.name === fault);
    // A proof whose fault is missing from the catalogue proves nothing: it fails, it is never skipped.
    expect(declared, `${fault} is declared in reference/faults`).toBeDefined();
    const outcome = await probeCheck(property, { faults: [fault] });
    // A failing property ends in bounded work: shrinking included, within its budget share.
    expect(outcome.requests, 'a failing property ends in bounded work').toBeLessThanOrEqual(400);
    expect(outcome.status, outcome.reason).toBe('fail');
    const failure = outcome.failures[0]!;
    expect(declared!.breaks).toContain(failure.requirementId);
    expect(failure.counterexample?.seed).toEqual(expect.any(Number));
    expect(failure.counterexample?.path).toMatch(/^\d+(:\d+)*$/);
    expect(failure.message).toContain('--replay-path');
    // Named and described, not a bare value.
    expect(failure.message).toMatch(
      new RegExp(`— counterexample \\((an?|null) [^)]*the generated input of ${property.replace(/\./g, '\\.')}\\): `),
    );
    expect(failure.exchanges.length).toBeGreaterThan(0);
  });
}

test('the same seed sends the same requests', async () => {
  const logs: string[][] = [];
  for (let i = 0; i < 2; i++) {
    const log: RequestLogEntry[] = [];
    await probeCheck('files.property.strictly-after', {}, { settings: { seed: 99 }, log });
    // The port differs between the two references; the path and query are what the seed decides.
    logs.push(log.map((e) => new URL(e.url).pathname + new URL(e.url).search));
  }
  expect(logs[0]!.length).toBeGreaterThan(5);
  expect(logs[1]).toEqual(logs[0]);
});

test('a replay path reproduces the counterexample alone', async () => {
  const first = await probeCheck(
    'files.property.strictly-after',
    { faults: ['files-after-inclusive'] },
    { settings: { seed: 7 } },
  );
  const path = first.failures[0]?.counterexample?.path;
  expect(path).toBeDefined();
  const runDir = mkdtempSync(join(tmpdir(), 'replay-'));
  const replay = await probeCheck(
    'files.property.strictly-after',
    { faults: ['files-after-inclusive'] },
    { settings: { seed: 7, replayPath: path!, runDir } },
  );
  expect(replay.status).toBe('fail');
  expect(replay.failures[0]?.counterexample?.value).toEqual(first.failures[0]?.counterexample?.value);
});
