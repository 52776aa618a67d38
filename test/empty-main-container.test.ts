/**
 * A main container that lists no file (variant empty-main-container; 2.2 data "May be empty"): what needs
 * a listed file, a page with has_more true or one that ended at the scan bound is said not judged with
 * that cause, never passed (rule "No green without evidence"); what an empty listing shows stays judged.
 * The run is never NON-CONFORMANT, and --require-all makes it INCOMPLETE.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { preflight } from '../cli/preflight.ts';
import { startReference } from '../reference/server.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { probeCheck, referenceTarget, runEngineAgainst, testSettings } from './support/harness.ts';

const variant = CONFORMANT_VARIANTS.find((v) => v.name === 'empty-main-container')!;

const status = (report: ConformanceReport, id: string) => report.requirements.find((r) => r.id === id)!.status;

/** Each check's requirements it said it had nothing to judge by, with the reason. */
const notJudgedBy = (report: ConformanceReport) =>
  Object.fromEntries(
    report.checks
      .filter((c) => (c.notJudged ?? []).length > 0 && !c.checkId.startsWith('files.empty-container'))
      .map((c) => [c.checkId, c.notJudged!.map((n) => n.requirementId).sort()]),
  );

test('an empty main container: the rules over listed files not judged with their cause, the rules an empty listing shows judged', async () => {
  test.setTimeout(120_000);
  const report = await runEngineAgainst(variant.options, { settings: { seed: 1 } });
  expect(report.verdict).toBe('conformant');
  expect(report.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
  // Judged on what the empty listing shows: its shape and media type, first_id on an empty page, has_more
  // false with nothing after any cursor, the limits and cursors it accepts or refuses; and on the restarted
  // container's files, what a listed file of any container shows.
  for (const id of [
    'files.list.schema',
    'files.list.media-type',
    'files.list.first-id',
    'files.pagination.next-page',
    'files.limit.bounds-accepted',
    'files.limit.maximum',
    'files.after.any-file-id',
    'files.after.no-prefix-rejected',
    'files.file.container-id-echo',
    'files.pagination.null-last-id',
  ])
    expect(status(report, id), id).toBe('pass');
  // Not judged: every MUST the variant declares so, and nothing else of the MUSTs.
  const mustNotPassed = report.requirements.filter((r) => r.level === 'MUST' && r.status !== 'pass').map((r) => r.id);
  expect(mustNotPassed.sort()).toEqual(variant.unjudged!.map((u) => u.id).sort());
  for (const id of mustNotPassed) expect(status(report, id), id).toBe('skip');
  // Each check over the main container says which of its requirements it had nothing to judge by.
  expect(notJudgedBy(report)).toEqual({
    'files.response.schema': ['files.file.schema'],
    'files.limit.default-maximum': ['files.limit.default-maximum'],
    'files.limit.default': ['files.limit.default'],
    'files.limit.default-value': ['files.limit.default-value'],
    'files.limit.page-size': ['files.limit.page-size'],
    'files.pagination.last-id-when-has-more': ['files.pagination.last-id-when-has-more'],
    'files.pagination.last-id-is-last-listed': [
      'files.pagination.last-id-is-last-listed',
      'files.pagination.next-page',
    ],
    'files.pagination.short-page-at-scan-bound': ['files.pagination.short-page-at-scan-bound'],
    'files.property.strictly-after': [
      'files.after.strictly-after',
      'files.limit.maximum',
      'files.limit.page-size',
      'files.list.path-order',
      'files.pagination.last-id-is-last-listed',
      'files.pagination.last-id-when-has-more',
      'files.pagination.null-last-id',
      'files.pagination.scan-bound-position',
    ],
  });
  // Each with its own cause.
  for (const c of report.checks.filter((c) => c.checkId.startsWith('files.') && !c.checkId.includes('empty-container')))
    for (const n of c.notJudged ?? [])
      expect(n.reason, `${c.checkId} ${n.requirementId}`).toMatch(/^the container lists no file: /);
  // A check with something judged passes it; one with nothing is a skip with the reason, never a pass.
  const outcome = (id: string) => report.checks.find((c) => c.checkId === id)!;
  expect(outcome('files.response.schema').status).toBe('pass');
  expect(outcome('files.property.strictly-after').status).toBe('pass');
  expect(`${outcome('files.limit.page-size').status} ${outcome('files.limit.page-size').reason}`).toBe(
    'skip the container lists no file: its listing at limit 1 and at limit 7 ended without one, so no listed file to judge it by',
  );
  // --require-all: a MUST not judged is INCOMPLETE, whatever its cause.
  const strict = await runEngineAgainst(variant.options, { settings: { seed: 1, requireAll: true } });
  expect(strict.verdict).toBe('incomplete');
  expect(strict.run.incomplete).toMatch(/^\d+ MUST requirement\(s\) not judged \(--require-all\): /);
});

test('the same checks on the plain reference say nothing is left unjudged: the cause is the empty listing', async () => {
  for (const id of ['files.response.schema', 'files.limit.page-size', 'files.pagination.last-id-when-has-more']) {
    const o = await probeCheck(id, {});
    expect(`${o.status} ${o.notJudged?.length ?? 0}`, id).toBe('pass 0');
  }
  const empty = await probeCheck('files.limit.page-size', variant.options);
  expect(empty.status).toBe('skip');
});

test('the command line refuses the variant at its preflight (exit 2), as the variant declares', async () => {
  expect(variant.refusedByPreflight).toBeDefined();
  const server = await startReference(variant.options);
  try {
    const said = await preflight(referenceTarget(server), testSettings(mkdtempSync(join(tmpdir(), 'empty-main-'))));
    expect(said.fatal).toMatch(
      /^containerFiles\.containerId "[^"]+" lists no file \(200 with an empty data and has_more false\)/,
    );
  } finally {
    await server.close();
  }
});
