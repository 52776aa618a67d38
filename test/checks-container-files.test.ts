/** The listContainerFiles checks (suites/checks/container-files.ts) against the reference, its faults and its conformant variants. */
import { test, expect } from '@playwright/test';
import type { CheckOutcome } from '../core/check/check.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONTAINER_FILES_FAULTS } from '../reference/faults/container-files.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { containerFilesChecks } from '../suites/checks/container-files.ts';
import { containerFilesAfterChecks } from '../suites/checks/container-files-after.ts';
import { containerFilesLimitChecks } from '../suites/checks/container-files-limit.ts';
import { paginationChecks } from '../suites/checks/pagination.ts';

/** The example-based checks of listContainerFiles: one request or page, the query parameters, multi-page walks. */
const CHECKS = [
  ...containerFilesChecks,
  ...containerFilesLimitChecks,
  ...containerFilesAfterChecks,
  ...paginationChecks,
];
import { probeCheck, runEngineAgainst } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

const say = (o: CheckOutcome) => `${o.status}: ${o.reason ?? ''}`;

/** Each check, the fault that proves it, and the requirement the fault breaks. */
const PROOFS: ReadonlyArray<{ check: string; fault: string; requirement: string }> = [
  { check: 'files.response.schema', fault: 'files-list-wrong-object', requirement: 'files.list.schema' },
  { check: 'files.response.schema', fault: 'files-wrong-object', requirement: 'files.file.schema' },
  { check: 'files.response.schema', fault: 'files-wrong-source', requirement: 'files.file.schema' },
  { check: 'files.response.schema', fault: 'files-list-media-type', requirement: 'files.list.media-type' },
  { check: 'files.file.id', fault: 'files-raw-path-ids', requirement: 'files.file.id-encodes-path' },
  { check: 'files.file.id', fault: 'files-standard-base64-ids', requirement: 'files.file.id-url-safe-alphabet' },
  {
    check: 'files.file.container-id-echo',
    fault: 'files-container-id-not-echoed',
    requirement: 'files.file.container-id-echo',
  },
  {
    check: 'files.file.created-at-seconds',
    fault: 'files-created-at-millis',
    requirement: 'files.file.created-at-seconds',
  },
  { check: 'files.file.path-relative', fault: 'files-absolute-paths', requirement: 'files.file.path-relative' },
  { check: 'files.list.path-order', fault: 'files-locale-order', requirement: 'files.list.path-order' },
  // UTF-8 and UTF-16 order are both faithful (spec/readings.yaml), but one of them throughout.
  { check: 'files.list.path-order', fault: 'files-order-inconsistent', requirement: 'files.list.path-order' },
  { check: 'files.list.first-id', fault: 'files-first-id-wrong', requirement: 'files.list.first-id' },
  {
    check: 'files.container-id.restarted',
    fault: 'files-restarted-container-rejected',
    requirement: 'files.container-id.restarted',
  },
  { check: 'files.limit.default', fault: 'files-default-limit-50', requirement: 'files.limit.default' },
  { check: 'files.limit.default-value', fault: 'files-default-limit-50', requirement: 'files.limit.default-value' },
  {
    check: 'files.limit.default-maximum',
    fault: 'files-page-larger-than-limit',
    requirement: 'files.limit.default-maximum',
  },
  { check: 'files.limit.maximum', fault: 'files-limit-above-maximum-served', requirement: 'files.limit.maximum' },
  {
    check: 'files.limit.out-of-range-rejected',
    fault: 'files-limit-above-maximum-served',
    requirement: 'files.limit.out-of-range-rejected',
  },
  { check: 'files.limit.bounds-accepted', fault: 'files-limit-1-rejected', requirement: 'files.limit.bounds-accepted' },
  {
    check: 'files.limit.out-of-range-rejected',
    fault: 'files-limit-bounds-not-enforced',
    requirement: 'files.limit.out-of-range-rejected',
  },
  {
    check: 'files.limit.non-integer-rejected',
    fault: 'files-limit-non-integer-accepted',
    requirement: 'files.limit.non-integer-rejected',
  },
  // The next two faults are the pagination area's (reference/faults/pagination.ts).
  { check: 'files.limit.page-size', fault: 'files-page-larger-than-limit', requirement: 'files.limit.page-size' },
  { check: 'files.after.strictly-after', fault: 'files-after-inclusive', requirement: 'files.after.strictly-after' },
  {
    check: 'files.after.listed-unusual-paths',
    fault: 'files-after-nfc-normalized',
    requirement: 'files.after.strictly-after',
  },
  {
    check: 'files.after.any-file-id',
    fault: 'files-after-unknown-path-rejected',
    requirement: 'files.after.any-file-id',
  },
  {
    check: 'files.after.invalid-rejected',
    fault: 'files-after-invalid-accepted',
    requirement: 'files.after.invalid-rejected',
  },
  {
    check: 'files.after.no-prefix-rejected',
    fault: 'files-after-invalid-accepted',
    requirement: 'files.after.no-prefix-rejected',
  },
  {
    check: 'files.after.no-prefix-rejected',
    fault: 'files-after-unprefixed-accepted',
    requirement: 'files.after.no-prefix-rejected',
  },
  {
    check: 'files.pagination.last-id-when-has-more',
    fault: 'files-last-id-null-with-has-more',
    requirement: 'files.pagination.last-id-when-has-more',
  },
  {
    check: 'files.pagination.last-id-is-last-listed',
    fault: 'files-last-id-not-last',
    requirement: 'files.pagination.last-id-is-last-listed',
  },
  {
    check: 'files.pagination.scan-bound-position',
    fault: 'files-scan-bound-position-behind',
    requirement: 'files.pagination.scan-bound-position',
  },
  {
    check: 'files.pagination.null-last-id',
    fault: 'files-null-last-id-with-data',
    requirement: 'files.pagination.null-last-id',
  },
  {
    check: 'files.pagination.short-page-at-scan-bound',
    fault: 'files-short-page-without-scan-bound',
    requirement: 'files.pagination.short-page-at-scan-bound',
  },
];

const OBSERVATIONS = ['files.scan-bound.observed', 'files.rate-limit.observed', 'files.limit.spelling'];

test.describe('plain reference', () => {
  for (const check of CHECKS) {
    test(`${check.id} passes`, async () => {
      const o = await probeCheck(check.id);
      expect(o.status, say(o)).toBe('pass');
      if (check.kind === 'observation') expect(o.observations.length).toBeGreaterThan(0);
      else
        expect(o.requests, 'a handful of requests, or the few it declares').toBeLessThanOrEqual(
          Math.max(12, check.estimatedRequests ?? 0),
        );
    });
  }
});

test.describe('faults', () => {
  for (const { check, fault, requirement } of PROOFS) {
    test(`${check} fails on ${fault} with ${requirement}`, async () => {
      // A proof whose fault is missing from the catalogue fails here: it proves nothing, so it is never skipped.
      expect(
        FAULTS.find((f) => f.name === fault)?.breaks,
        `${fault} is declared in reference/faults and breaks ${requirement}`,
      ).toContain(requirement);
      const o = await probeCheck(check, { faults: [fault] });
      expect(o.status, say(o)).toBe('fail');
      expect(o.failures[0]?.requirementId, say(o)).toBe(requirement);
      expect(o.failures[0]?.exchanges.length, 'the response is the evidence').toBeGreaterThan(0);
    });
  }

  test('a listing in no one order fails path order alone, whatever the seed: never the cursor rules its pairs happen to meet', async () => {
    // A page pairs a cursor with its first path and a scan position with its last: when that pair is
    // in some reading's order but not in the one the listing's other pairs showed, the order is broken,
    // not the cursor (suites/support/page-rules.ts). Seeds 4 and 7 draw such pairs, which the cursor
    // rule (strictly-after) must not fail.
    const files = (id: string) => id.startsWith('files.');
    for (const seed of [1, 4, 7]) {
      const report = await runEngineAgainst(
        { faults: ['files-order-inconsistent'] },
        { select: files, settings: { seed } },
      );
      expect(
        report.requirements.filter((r) => r.status === 'fail').map((r) => r.id),
        `seed ${seed}`,
      ).toEqual(['files.list.path-order']);
    }
  });

  test('every fault of this area proves a check', () => {
    for (const f of CONTAINER_FILES_FAULTS) {
      expect(
        PROOFS.some((p) => p.fault === f.name),
        f.name,
      ).toBe(true);
      expect(f.name).toMatch(/^files-/);
      // One requirement, or the MUST every reading agrees on and the SHOULD of one reading: each proven.
      for (const r of f.breaks)
        expect(
          PROOFS.some((p) => p.fault === f.name && p.requirement === r),
          `${f.name} breaks ${r}`,
        ).toBe(true);
    }
  });

  test('every check of this file is proved by a fault, or is an observation', () => {
    for (const c of CHECKS) {
      if (c.kind === 'observation') expect(OBSERVATIONS).toContain(c.id);
      else
        expect(
          PROOFS.some((p) => p.check === c.id),
          c.id,
        ).toBe(true);
    }
  });
});

test('a path with a control character as after is observed whichever way the target answers it: refused with 400 or accepted with 200', async () => {
  for (const [options, answered] of [
    [{}, 'acceptedWith200'],
    [{ readings: ['cursor-control-refused'] }, 'refusedWith400'],
  ] as const) {
    const o = await probeCheck('files.property.strictly-after', options, { settings: { seed: 1 } });
    expect(o.status).toBe('pass');
    const seen = o.observations.filter((x) => x.requirementId === 'files.after.control-char-paths');
    expect(seen, JSON.stringify(options)).toHaveLength(1);
    expect(Object.keys(seen[0]!.value as object)).toEqual([answered]);
  }
});

// A conformant choice is never a failure.
const VARIANTS: ReadonlyArray<[string, Partial<ReferenceOptions>]> = [
  ['paddedIds', { paddedIds: true }],
  ['firstIdNull', { firstIdNull: true }],
  ['scanBound 3', { scanBound: 3 }],
  ['extraFields', { extraFields: true }],
  ['charset', { contentType: 'application/json; charset=utf-8' }],
  // Readings of spec/readings.yaml that no check of this file reports, not even as a SHOULD.
  ...(
    [
      'path-order-utf16',
      'cursor-padding-required',
      'cursor-control-refused',
      'scan-cursor-opaque',
      'has-more-when-full',
      'limit-number-spellings',
      'limit-empty-default',
      'limit-spelling-default',
      'unknown-container-forbidden',
    ] as const
  ).map((r): [string, Partial<ReferenceOptions>] => [`reading ${r}`, { readings: [r] }]),
  // Data shapes with any number of empty pages in a row (4.1 rule 3, 8 rule 1): the suite's own page bounds never fail them.
  ...(['long-hidden-runs', 'scan-bound-1', 'sparse-visible-files'] as const).map(
    (name): [string, Partial<ReferenceOptions>] => [
      `variant ${name}`,
      CONFORMANT_VARIANTS.find((v) => v.name === name)!.options,
    ],
  ),
];

test.describe('conformant variants', () => {
  for (const [name, options] of VARIANTS) {
    test(`no check fails on ${name}`, async () => {
      const bad: string[] = [];
      for (const check of CHECKS) {
        const o = await probeCheck(check.id, options);
        if (o.status === 'fail' || o.status === 'error') bad.push(`${check.id} ${say(o)}`);
      }
      expect(bad).toEqual([]);
    });
  }
});

// The suite's own bounds (pages followed, the share of the budget one walk spends) end in going on or
// in a requirement not judged with the reason, never in a failure (4.1 rule 3: "`data` may be empty",
// as many pages in a row as hidden objects lie in a row; 8 rule 1: the scan bound's value is not shown).
test.describe("the suite's own bounds", () => {
  const variant = (name: string) => CONFORMANT_VARIANTS.find((v) => v.name === name)!.options;

  test('after a listed file followed by 3000 hidden objects (47 empty pages at limit 2), the listing is followed to the next file and judged', async () => {
    const o = await probeCheck('files.after.listed-unusual-paths', variant('long-hidden-runs'));
    expect(o.status, say(o)).toBe('pass');
    // The first unusual path, " leading space.txt", is followed by the 3000: more than three pages were followed.
    expect(o.requests).toBeGreaterThan(47);
  });

  test('a search for two files on a page that spends its share of the budget on empty pages ends skipped, with the reason', async () => {
    // maxRequests 100: one walk may send 10 requests (file-pages.ts WALK_BUDGET_SHARE), fewer than the 47 empty pages.
    const o = await probeCheck('files.after.strictly-after', variant('long-hidden-runs'), {
      settings: { maxRequests: 100 },
    });
    expect(o.status, say(o)).toBe('skip');
    expect(o.reason).toMatch(/^no page of the first 10 at limit 5 \(1 of them with a file\) lists two files$/);
    expect(o.failures).toEqual([]);
    // With the default budget the walk goes on through the empty pages and judges.
    const judged = await probeCheck('files.after.strictly-after', variant('long-hidden-runs'));
    expect(judged.status, say(judged)).toBe('pass');
  });
});
