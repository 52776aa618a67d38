/**
 * The walks of suites/support/file-pages.ts against a listing of nothing but empty pages that end at the
 * scan bound (4.1 rule 3: "`data` may be empty"; 8 rule 1: the bound's value is not shown, so any number
 * of such pages in a row is faithful). A walk goes on while each cursor is new and forward, and its only
 * other end is the suite's own share of the budget: a question left unjudged, with the reason, never a
 * failure. So does a traversal (suites/support/traversal.ts) that outlasts its page cap.
 */
import { expect, test } from '@playwright/test';
import type { ProbeContext } from '../core/check/check.ts';
import type { ApiResponse, Query } from '../core/http/client.ts';
import { ConformanceFailure, SkipCheck } from '../core/check/errors.ts';
import { DEFAULTS, type RunSettings } from '../core/run/run-settings.ts';
import { walkAllowance, walkNotReached, walkPages, walkToFile } from '../suites/support/file-pages.ts';
import { traverse } from '../suites/support/traversal.ts';
import type { FilePageNote } from '../suites/support/cross-walks.ts';
import { lastIdsPassingOver } from '../suites/support/last-id-files.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { fullPagePlaces } from '../suites/support/full-pages.ts';
import { runEngineAgainst } from './support/harness.ts';
import { ONE_VERDICT_IN_WALKS, SEEDS, seedSettings, statusesOf } from './support/seeds.ts';
import { sharedEngineRun } from './support/shared-run.ts';

const id = (path: string) => `cfile_${Buffer.from(path, 'utf8').toString('base64url')}`;

/** A probe context whose listing answers empty scan-bound pages; `cursor(n)` is the last_id of the n-th page. */
function emptyListing(
  cursor: (n: number) => string,
  maxRequests: number = DEFAULTS.maxRequests,
): { ctx: ProbeContext; sent: Query[] } {
  const sent: Query[] = [];
  const api = {
    async listContainerFiles(containerId: string, query: Query = {}): Promise<ApiResponse> {
      sent.push(query);
      const json = { object: 'list', data: [], first_id: null, last_id: cursor(sent.length), has_more: true };
      return {
        status: 200,
        headers: {},
        text: JSON.stringify(json),
        json,
        exchange: { request: { url: `http://127.0.0.1/v1/containers/${containerId}/files` } },
      } as unknown as ApiResponse;
    },
  };
  const ctx = { api, settings: { maxRequests } } as unknown as ProbeContext;
  return { ctx, sent };
}

test('a walk to the next file follows empty scan-bound pages up to its share of the budget, then says it is not judged', async () => {
  const { ctx, sent } = emptyListing((n) => id(`b/${String(n).padStart(6, '0')}`));
  const walk = await walkToFile(ctx, 'c', { limit: 2, after: id('a.txt') });
  expect(walk.end).toBe('allowance');
  expect(sent).toHaveLength(walkAllowance(ctx));
  expect(walkAllowance(ctx)).toBe(DEFAULTS.maxRequests / 10);
  expect(walkNotReached(walk, 'after=x')).toMatch(
    /^after=x: the target answered 200 pages in a row without a file, .* so where the listing resumes is not judged$/,
  );
});

test('opaque scan cursors are followed while each is new; one handed out again ends the walk as no progress (the pagination checks judge it)', async () => {
  const opaque = await walkToFile(emptyListing((n) => `scan-${n}`).ctx, 'c', { after: id('a.txt') });
  expect(opaque.end).toBe('allowance');
  const repeated = await walkToFile(emptyListing((n) => `scan-${Math.min(n, 3)}`).ctx, 'c', { after: id('a.txt') });
  expect(repeated.end).toBe('no-progress');
  expect(repeated.pages).toHaveLength(4);
  expect(walkNotReached(repeated, 'after=x')).toBeUndefined();
  // A cursor that names a path before the previous one is no progress either.
  const backwards = await walkToFile(emptyListing((n) => id(`z/${String(100 - n).padStart(3, '0')}`)).ctx, 'c', {
    after: id('a.txt'),
  });
  expect(backwards.end).toBe('no-progress');
  expect(backwards.pages).toHaveLength(2);
});

test('walkPages with followEmpty counts only pages with a file, and ends at its share of the budget', async () => {
  const { ctx, sent } = emptyListing((n) => id(`b/${String(n).padStart(6, '0')}`), 100);
  const walk = await walkPages(ctx, 'c', { limit: 5, maxPages: 3, followEmpty: true });
  expect(walk.end).toBe('allowance');
  expect(sent).toHaveLength(10);
  const counted = await walkPages(emptyListing((n) => id(`b/${String(n).padStart(6, '0')}`)).ctx, 'c', {
    limit: 5,
    maxPages: 3,
  });
  expect(counted).toMatchObject({ end: 'max-pages' });
  expect(counted.pages).toHaveLength(3);
});

test('a traversal longer than its page cap ends skipped with the reason, never failed: a long listing is legal', async () => {
  // An endless listing of files whose every cursor is the last file listed, forward each time.
  const path = (i: number) => `p/${String(i).padStart(6, '0')}`;
  const api = {
    async listContainerFiles(containerId: string, query: Query = {}): Promise<ApiResponse> {
      const after =
        typeof query.after === 'string'
          ? Buffer.from(query.after.slice('cfile_'.length), 'base64url').toString('utf8')
          : undefined;
      const start = after === undefined ? 0 : Number(after.slice(2)) + 1;
      const data = [start, start + 1].map((i) => ({
        id: id(path(i)),
        object: 'container.file',
        container_id: containerId,
        bytes: 1,
        created_at: 1_700_000_000,
        path: path(i),
        source: 'assistant',
      }));
      const json = { object: 'list', data, first_id: data[0]!.id, last_id: data[1]!.id, has_more: true };
      return {
        status: 200,
        headers: {},
        text: JSON.stringify(json),
        json,
        exchange: { request: { url: `http://127.0.0.1/v1/containers/${containerId}/files` } },
      } as unknown as ApiResponse;
    },
  };
  const ctx = {
    api,
    settings: { maxRequests: DEFAULTS.maxRequests },
    skip: (reason: string) => {
      throw new SkipCheck(reason);
    },
  } as unknown as ProbeContext;
  const ended = await traverse(ctx, 'c', { limit: 2, pageCap: 5 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ended).toBeInstanceOf(SkipCheck);
  expect(ended).not.toBeInstanceOf(ConformanceFailure);
  expect((ended as Error).message).toBe(
    'the traversal at limit 2 had not ended after 5 pages, each with a new cursor that did not go backwards: a longer walk than the suite spends on one traversal (5 pages), so it is not judged',
  );
});

// ---- the whole listing judged within the run's budget, however long it is (reference data.ts LARGE_LISTING:
// 20,000 files, about 500 pages at limit 1000, most of them empty at the scan bound).

const LARGE_FAULT = 'files-large-listing-record-object-file';

for (const concurrency of [1, DEFAULTS.concurrency]) {
  test(`a bad record at the end of a listing of 500 pages is caught within the default budget, on seeds 1-5 at concurrency ${concurrency}`, async () => {
    test.setTimeout(300_000);
    for (const seed of [1, 2, 3, 4, 5]) {
      const report = await runEngineAgainst({ faults: [LARGE_FAULT] }, { settings: { seed, concurrency } });
      expect(report.verdict, `seed ${seed}`).toBe('non-conformant');
      expect(
        report.requirements.filter((r) => r.status === 'fail').map((r) => r.id),
        `seed ${seed}`,
      ).toEqual(['files.file.schema']);
    }
  });
}

test('with a budget that does not cover the listing, its end is said not judged: never failed, never conformant without saying so', async () => {
  test.setTimeout(120_000);
  const report = await runEngineAgainst({ faults: [LARGE_FAULT] }, { settings: { seed: 1, maxRequests: 600 } });
  expect(report.requirements.find((r) => r.id === 'files.file.schema')?.status).not.toBe('fail');
  expect(report.verdict).not.toBe('non-conformant');
  const traversal = report.checks.find((c) => c.checkId === 'files.property.traversal');
  expect(traversal?.status).toBe('skip');
  expect(traversal?.reason).toMatch(
    /the listing was read as far as \d+ file\(s\), .* no further: its share of the request budget \(240 pages at limit 1000, 0\.4 of --max-requests\) was spent with has_more still true; the files past it and their records are not judged/,
  );
});

// ---- a file lost behind hidden objects, found on every seed; a last_id that names a file the page passed over.

const failedIds = (report: { requirements: ReadonlyArray<{ id: string; status: string }> }) =>
  report.requirements.filter((r) => r.status === 'fail').map((r) => r.id);

// Both faults lose a file near the start of the listing, right behind the .sync run of hidden objects that
// follows "-dash-first.txt": the one on every page whose last_id looks past that run, the other on a full page
// only. Where a seed's random limits and places land must not decide the verdict (4.1 "Listing resumes
// strictly after that path"; 2.2 has_more "True when another page can be fetched with `after` set to
// `last_id`"), nor must the concurrency.
const LOST_NEAR_START = ['files-last-id-loses-file-near-start', 'files-full-page-last-id-skips-file'];

for (const fault of LOST_NEAR_START) {
  const declared = FAULTS.find((f) => f.name === fault)!;
  const mayFail = new Set([...declared.breaks, ...(declared.alsoFails ?? []).map((a) => a.id)]);
  // The self-test's verdict across seeds, of a fault of its sample, reads five of the runs made here: in
  // one worker, one test after another, each run is made once (test/support/shared-run.ts).
  const verdictHere = ONE_VERDICT_IN_WALKS.includes(fault);
  const run = (settings: Partial<RunSettings>) =>
    verdictHere ? sharedEngineRun({ faults: [fault] }, settings) : runEngineAgainst({ faults: [fault] }, { settings });
  test.describe(fault, () => {
    if (verdictHere) test.describe.configure({ mode: 'default' });
    for (const concurrency of [1, DEFAULTS.concurrency]) {
      test(`${fault}: a file lost near the start behind hidden objects is NON-CONFORMANT on seeds 1-10 at concurrency ${concurrency}`, async () => {
        test.setTimeout(300_000);
        for (let seed = 1; seed <= 10; seed++) {
          const report = await run({ seed, concurrency });
          const failed = failedIds(report);
          // Every requirement the fault breaks fails, and nothing it does not declare.
          expect({
            seed,
            verdict: report.verdict,
            missed: declared.breaks.filter((id) => !failed.includes(id)),
          }).toEqual({
            seed,
            verdict: 'non-conformant',
            missed: [],
          });
          expect(
            failed.filter((id) => !mayFail.has(id)),
            `seed ${seed}`,
          ).toEqual([]);
          if (fault === 'files-full-page-last-id-skips-file') {
            // 4.1 rule 2, on a page that ended at its limit: rule 3's exception names a scan position.
            expect(report.requirements.find((r) => r.id === 'files.pagination.last-id-is-last-listed')?.reason).toMatch(
              /lists \d+ files, as many as its limit, so it ended at its limit and not at the scan bound; yet its last_id cfile_QQ is the id of "A", a file it did not list/,
            );
            continue;
          }
          // The walk that finds the file lost on every page begins after the last file before the hidden
          // objects, on every seed.
          const strictlyAfter = report.checks.find((c) => c.checkId === 'files.property.strictly-after');
          expect(strictlyAfter?.reason, `seed ${seed}`).toContain(
            '(last before hidden objects, listed path "-dash-first.txt")',
          );
        }
      });
    }
    if (verdictHere)
      test(`one verdict per target: every requirement has the same status on seeds ${SEEDS.join(', ')} (even ones at concurrency 1), on fault ${fault}`, async () => {
        const statuses = new Set<string>();
        for (const seed of SEEDS) statuses.add(statusesOf(await run(seedSettings(seed))));
        expect(statuses.size, `statuses differ across seeds or concurrencies on ${fault}`).toBe(1);
      });
  });
}

test('lastIdsPassingOver: a last_id naming a file some page lists, after the page and its cursor, full pages first', () => {
  const note = (o: Partial<FilePageNote>): FilePageNote => ({
    container: 'c',
    limit: '2',
    after: undefined,
    paths: [],
    lastId: null,
    hasMore: true,
    ...o,
  });
  const notes = [
    // Ended short at the scan bound, naming the file "d" it did not list.
    note({ limit: '10', paths: ['a'], lastId: id('d') }),
    // Full at its limit, naming "d" again.
    note({ after: id('a'), paths: ['b', 'c'], lastId: id('d') }),
    // A scan position that no page lists: rule 3, not judged here.
    note({ after: id('c'), paths: [], lastId: id('c.~hidden') }),
    // Behind the page: files.pagination.progress's, not this.
    note({ after: id('e'), paths: ['f', 'g'], lastId: id('b') }),
    note({ after: id('c.~hidden'), paths: ['d', 'e'], lastId: id('e') }),
  ];
  const found = lastIdsPassingOver(notes);
  expect(found.map((f) => [f.page.paths, f.file, f.full])).toEqual([
    [['b', 'c'], 'd', true],
    [['a'], 'd', false],
  ]);
  expect(found[0]!.listedBy.paths).toEqual(['d', 'e']);
  // Another container's pages say nothing of this one's files.
  expect(lastIdsPassingOver(notes.map((n, i) => (i === 4 ? { ...n, container: 'other' } : n)))).toEqual([]);
});

// ---- a full page's last_id that names a file it did not list, at some limits only, on listings where runs of
// hidden objects end most pages (a scan bound of 1): asked where pages end at their limit, on every seed.

const SKIPS_AT_SOME_LIMITS = 'files-last-id-skips-file-at-some-limits';

for (const shape of ['scan-bound-1', 'hidden-listing-start']) {
  const options = CONFORMANT_VARIANTS.find((v) => v.name === shape)!.options;
  const declared = FAULTS.find((f) => f.name === SKIPS_AT_SOME_LIMITS)!;
  for (const concurrency of [1, DEFAULTS.concurrency]) {
    test(`${SKIPS_AT_SOME_LIMITS} on the ${shape} shape is NON-CONFORMANT on seeds 1-5 at concurrency ${concurrency}, failing exactly what it breaks`, async () => {
      test.setTimeout(300_000);
      for (const seed of [1, 2, 3, 4, 5]) {
        const report = await runEngineAgainst(
          { ...options, faults: [SKIPS_AT_SOME_LIMITS] },
          { settings: { seed, concurrency } },
        );
        expect({ seed, verdict: report.verdict, failed: failedIds(report).sort() }).toEqual({
          seed,
          verdict: 'non-conformant',
          failed: [...declared.breaks].sort(),
        });
        // 4.1 rule 2 on a page that ended at its limit: a page asked where the full listing has more files after the cursor than the limit.
        expect(report.requirements.find((r) => r.id === 'files.pagination.last-id-is-last-listed')?.reason).toMatch(
          /the page at limit=(2[1-9]|[3-5][0-9]|6[0-4]) after=cfile_\S+ lists \d+ files, as many as its limit, so it ended at its limit and not at the scan bound/,
        );
      }
    });
  }
}

// ---- the end of a listing: a page with files left after it says has_more false only where a walk at a small
// limit reaches the last files, which no walk from the start does on a long listing (listing-end.ts).

for (const shape of ['large-listing', 'long-hidden-runs']) {
  const options = CONFORMANT_VARIANTS.find((v) => v.name === shape)!.options;
  const fault = FAULTS.find((f) => f.name === 'files-has-more-false-near-end')!;
  test(`${fault.name} on the ${shape} shape is NON-CONFORMANT on seeds 1-3, failing exactly what it breaks`, async () => {
    test.setTimeout(300_000);
    for (const seed of [1, 2, 3]) {
      const report = await runEngineAgainst({ ...options, faults: [fault.name] }, { settings: { seed } });
      expect({ seed, verdict: report.verdict, failed: failedIds(report).sort() }).toEqual({
        seed,
        verdict: 'non-conformant',
        failed: [...fault.breaks].sort(),
      });
      expect(report.requirements.find((r) => r.id === 'files.pagination.next-page')?.reason).toMatch(
        /the walk after .* at limit [1-3] ends \(has_more false\) after .*, but the listing has .* after it/,
      );
    }
  });
}

test('fullPagePlaces: for each limit, the cursor of the first page of the full listing that lists more files than the limit', () => {
  const full = {
    fullerPages: [
      { after: undefined, files: 4 },
      { after: 'scan-2', files: 30 },
      { after: 'scan-3', files: 60 },
    ],
  };
  expect(fullPagePlaces(full, [1, 3, 4, 21, 34, 55, 89])).toEqual([
    { limit: 1, after: undefined },
    { limit: 3, after: undefined },
    { limit: 4, after: 'scan-2' },
    { limit: 21, after: 'scan-2' },
    { limit: 34, after: 'scan-3' },
    { limit: 55, after: 'scan-3' },
  ]);
});
