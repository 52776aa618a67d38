/** The empty-container checks (suites/checks/empty-container.ts) against the reference, its fault and its conformant variants. */
import { expect, test } from '@playwright/test';
import type { CheckOutcome } from '../core/check/check.ts';
import { EMPTY_CONTAINER_FAULTS } from '../reference/faults/empty-container.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { emptyContainerChecks } from '../suites/checks/empty-container.ts';
import { probeCheck } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

const say = (o: CheckOutcome) => `${o.status}: ${o.reason ?? ''}`;

test('the empty container passes on the plain reference with one request per query', async () => {
  const o = await probeCheck('files.empty-container.pages');
  expect(o.status, say(o)).toBe('pass');
  expect(o.requests).toBe(3);
  // Empty pages judge the list and its first_id; nothing of the rules over listed files, nor of last_id
  // where no page gave one or said has_more true: those are not passed by this check.
  expect(o.notJudged?.map((n) => n.requirementId).sort()).toEqual([
    'files.after.strictly-after',
    'files.file.schema',
    'files.limit.page-size',
    'files.list.path-order',
    'files.pagination.last-id-is-last-listed',
    'files.pagination.last-id-when-has-more',
    'files.pagination.null-last-id',
    'files.pagination.scan-bound-position',
    'files.pagination.short-page-at-scan-bound',
  ]);
});

test('files-empty-container-has-more fails 4.1 rule 1 with the page as evidence', async () => {
  const [fault] = EMPTY_CONTAINER_FAULTS;
  const o = await probeCheck('files.empty-container.pages', { faults: [fault!.name] });
  expect(o.status, say(o)).toBe('fail');
  expect(o.failures[0]?.requirementId).toBe('files.pagination.last-id-when-has-more');
  expect(fault!.breaks).toEqual(['files.pagination.last-id-when-has-more']);
  expect(o.failures[0]?.exchanges[0]?.request.url).toContain('/containers/sess_empty/files');
});

test('the empty-container check is skipped, with the reason, without containerFiles.emptyContainerId', async () => {
  const o = await probeCheck(
    'files.empty-container.pages',
    {},
    { editTarget: (y) => y.replace(/^ {2}emptyContainerId: .*\n/m, '') },
  );
  expect(o.status).toBe('skip');
  expect(o.reason).toContain('emptyContainerId');
  expect(o.requests).toBe(0);
});

test('a container that lists files is not judged as the empty one: skipped after its pages were judged', async () => {
  const o = await probeCheck(
    'files.empty-container.pages',
    {},
    { editTarget: (y) => y.replace(/^ {2}emptyContainerId: .*$/m, '  emptyContainerId: "sess_demo-user_42"') },
  );
  expect(o.status, say(o)).toBe('skip');
  expect(o.reason).toMatch(/lists \d+ file\(s\): it is not an empty container/);
});

test('an unknown container: the answer is observed (status and what it holds), never failed', async () => {
  const o = await probeCheck('files.container-id.unknown');
  expect(o.status, say(o)).toBe('pass');
  expect(o.observations).toEqual([
    {
      requirementId: 'files.container-id.unknown',
      value: { status: 200, 'data.length': 0, has_more: false, last_id: null },
    },
  ]);
  // Another choice a deployment can make (a 404 with the 7.1 body) is observed as well, not failed.
  const e = await probeCheck('files.container-id.unknown', { faults: ['errors-files-404-status'] });
  expect(e.status, say(e)).toBe('pass');
  expect(e.observations[0]?.value).toEqual({ status: 404, 'error.code': 404, 'error.message': 'Container not found' });
});

test('no empty-container check fails or errors on a conformant variant', async () => {
  test.setTimeout(120_000);
  expect(emptyContainerChecks.length).toBeGreaterThan(0);
  const bad: string[] = [];
  for (const variant of CONFORMANT_VARIANTS) {
    for (const check of emptyContainerChecks) {
      const o = await probeCheck(check.id, variant.options);
      if (o.status !== 'pass') bad.push(`${variant.name} ${check.id} ${say(o)}`);
    }
  }
  expect(bad).toEqual([]);
});
