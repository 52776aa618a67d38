/**
 * The verdict says how much of each listing it judged (rule "No green without evidence"): per container
 * of the target file and for interns, pages and records seen and whether the end was reached, else why;
 * --require-all treats a listing its limits cut like a MUST not judged.
 */
import { expect, test } from '@playwright/test';
import { LARGE_LISTING } from '../reference/data.ts';
import { reportHtml } from '../reports/html.ts';
import { summaryMarkdown } from '../reports/summary-md.ts';
import { runEngineAgainst } from './support/harness.ts';
import { runSuiteAgainst } from './support/run-against.ts';

test('on the reference every listing is read to its end, and every output says so', async () => {
  test.setTimeout(120_000);
  const report = await runEngineAgainst({}, { settings: { seed: 1 } });
  expect(report.verdict).toBe('conformant');
  const coverage = report.run.coverage!;
  const main = coverage.containers.find((c) => c.field === 'containerId')!;
  expect(main.ended).toBe(true);
  expect(main.cut).toBeUndefined();
  expect(main.pages).toBeGreaterThan(0);
  expect(main.files).toBeGreaterThan(0);
  expect(coverage.containers.map((c) => [c.field, c.ended])).toEqual([
    ['containerId', true],
    ['restartedContainerId', true],
    ['emptyContainerId', true],
  ]);
  // The reference holds more interns than the checks ask for: the first pages only, said so, never a limit.
  expect(coverage.interns).toMatchObject({ ended: false, cut: 'sampled' });
  expect(coverage.interns.pages).toBeGreaterThan(0);
  expect(summaryMarkdown(report)).toMatch(
    /- Listing container containerId: \d+ file\\\(s\\\) in \d+ page\\\(s\\\), read to its end/,
  );
  expect(reportHtml(report)).toMatch(
    /<dt>Listing<\/dt><dd>container containerId: \d+ file\(s\) in \d+ page\(s\), read to its end/,
  );
});

test('a listing longer than the budget is said not read to its end, for the budget; --require-all makes the run INCOMPLETE naming it', async () => {
  test.setTimeout(180_000);
  const report = await runEngineAgainst({ hiddenRuns: LARGE_LISTING }, { settings: { seed: 1, maxRequests: 600 } });
  const main = report.run.coverage!.containers.find((c) => c.field === 'containerId')!;
  expect({ ended: main.ended, cut: main.cut }).toEqual({ ended: false, cut: 'budget' });
  expect(main.pages).toBeGreaterThanOrEqual(300);
  // Never a failure: the budget is the suite's own limit.
  expect(report.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
  expect(report.verdict).not.toBe('non-conformant');
  expect(report.run.incomplete ?? '').not.toContain('listing');
  const strict = await runEngineAgainst(
    { hiddenRuns: LARGE_LISTING },
    { settings: { seed: 1, maxRequests: 600, requireAll: true } },
  );
  expect(strict.verdict).toBe('incomplete');
  expect(strict.run.incomplete).toContain(
    'listing(s) not read to the end (--require-all): container containerId (not read to its end: the request budget',
  );
});

test('the console closing lines say how far each listing was read', async () => {
  test.setTimeout(150_000);
  const run = await runSuiteAgainst({});
  expect(run.report?.verdict).toBe('conformant');
  expect(run.stdout).toMatch(/^listing container containerId: \d+ file\(s\) in \d+ page\(s\), read to its end$/m);
  expect(run.stdout).toMatch(
    /^listing interns: \d+ intern\(s\) in \d+ page\(s\), not read to its end: the checks ask only its first pages$/m,
  );
});

test('a key that lists no intern leaves the workspace of every intern not judged for that cause, not for a target field another check needs', async () => {
  test.setTimeout(120_000);
  const report = await runEngineAgainst(
    { internsNone: true },
    {
      settings: { seed: 1 },
      editTarget: (t) => {
        delete t.interns.cursorParam;
      },
    },
  );
  expect(report.verdict).toBe('conformant');
  const workspace = report.requirements.find((r) => r.id === 'interns.intern.workspace-of-key')!;
  expect(workspace.status).toBe('skip');
  expect(workspace.reason).toBe('the key lists no interns: nothing to judge');
  expect(workspace.cause).toBeUndefined();
  expect(report.run.coverage!.interns).toMatchObject({ pages: expect.any(Number), interns: 0, ended: true });
});

test('a key that lists no intern: no rule over the interns a page lists passes without one, each not judged for that cause; the rules over the answers themselves still judged', async () => {
  test.setTimeout(120_000);
  const report = await runEngineAgainst({ internsNone: true }, { settings: { seed: 1 } });
  expect(report.verdict).toBe('conformant');
  const status = (id: string) => {
    const r = report.requirements.find((q) => q.id === id)!;
    return `${r.status} ${r.reason ?? ''}`.trim();
  };
  // Order, states, workspace and count of the interns listed; the fields of an intern (2.5, 2.6, 4.3).
  for (const id of [
    'interns.order.newest-first',
    'interns.status.filter',
    'interns.workspace.filter',
    'interns.limit.respected',
    'interns.intern.fields-present',
    'interns.intern.field-types',
  ])
    expect(status(id), id).toMatch(/^skip the key lists no interns: /);
  // A list, its page sizes accepted, a refused maximum: judged on the answers, interns or none.
  for (const id of ['interns.list.schema', 'interns.limit.bounds-accepted', 'interns.limit.maximum'])
    expect(status(id), id).toBe('pass');
  // A check that judged one of its requirements and had nothing for the others passes the one only.
  const property = report.checks.find((c) => c.checkId === 'interns.property.filter-and-size')!;
  expect(property.status).toBe('pass');
  expect(property.notJudged?.map((n) => n.requirementId).sort()).toEqual([
    'interns.limit.respected',
    'interns.order.newest-first',
    'interns.status.filter',
  ]);
  // One with nothing to judge for any of its requirements is a skip with the reason.
  const combinations = report.checks.find((c) => c.checkId === 'interns.property.filter-combinations')!;
  expect(`${combinations.status} ${combinations.reason}`).toBe(
    'skip the key lists no interns: no page of the property listed one',
  );
});
