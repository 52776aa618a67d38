/**
 * Own tests of the checks that judge a run whole: walks of listContainerFiles compared with
 * each other (suites/checks/pagination-walks.ts), pages of list interns at several page sizes
 * (suites/checks/interns-prefixes.ts) and filters in combination (interns.property.filter-combinations),
 * with the bounded notes they read (core/run/run-notes.ts).
 */
import { expect, test } from '@playwright/test';
import type { CheckOutcome } from '../core/check/check.ts';
import { requirement } from '../core/document/catalogue.ts';
import { RunNotes } from '../core/run/run-notes.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { firstFilesAfterEmptyStart, passedOver, type FilePageNote } from '../suites/support/cross-walks.ts';
import { notNewest, type InternPageNote } from '../suites/support/intern-prefixes.ts';
import { probeCheck, referenceTarget, runEngineAgainst, testSettings } from './support/harness.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { MemoryTransport } from './support/memory-transport.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckDeclaration } from '../core/check/check.ts';
import { Engine } from '../core/run/engine.ts';
import { startReference } from '../reference/server.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { walkPages } from '../suites/support/file-pages.ts';

test.describe.configure({ mode: 'parallel' });

const WHOLE_RUN_CHECKS = [
  'files.pagination.last-id-is-last-listed',
  'files.pagination.walks-agree',
  'interns.order.newest-prefix',
  'interns.property.filter-combinations',
];

const CASES = [
  {
    check: 'files.pagination.walks-agree',
    fault: 'files-last-id-skips-file-at-some-limits',
    requirement: 'files.pagination.next-page',
  },
  { check: 'interns.order.newest-prefix', fault: 'interns-page-not-newest', requirement: 'interns.order.newest-first' },
  {
    check: 'interns.property.filter-combinations',
    fault: 'interns-status-dropped-with-workspace',
    requirement: 'interns.status.filter',
  },
];

const show = (o: CheckOutcome) => `${o.checkId}: ${o.status} ${o.reason ?? ''}`;

for (const { check, fault, requirement } of CASES) {
  test(`${check} fails on ${fault} with ${requirement}, with the pages as evidence`, async () => {
    expect(FAULTS.find((f) => f.name === fault)?.breaks).toContain(requirement);
    const outcome = await probeCheck(check, { faults: [fault] });
    expect(outcome.status, outcome.reason).toBe('fail');
    expect(outcome.failures.map((f) => f.requirementId)).toEqual([requirement]);
    expect(outcome.failures[0]!.exchanges.length).toBeGreaterThan(check.endsWith('filter-combinations') ? 0 : 1);
  });
}

test('walks-agree names both walks: the page whose last_id lost the file, the page that lists it', async () => {
  const outcome = await probeCheck('files.pagination.walks-agree', {
    faults: ['files-last-id-skips-file-at-some-limits'],
  });
  const message = outcome.failures[0]!.message;
  expect(message).toMatch(
    /^a walk passed over "[^"]+": the page at limit=(2[1-9]|[3-5][0-9]|6[0-4]) after=\S+ ends with "[^"]+" and last_id cfile_\S+; the page at limit=\d+ after=cfile_\S+ begins with "[^"]+", but the page at limit=\d+ .* lists "[^"]+" right after/,
  );
  // Asked again as evidence: the page that ended early, the page after its last_id, the other walk's page.
  expect(outcome.failures[0]!.exchanges.length).toBeGreaterThanOrEqual(3);
});

/**
 * walks-agree as a run judges it: beside the full traversal, whose walks it compares with its own. Any
 * number of pages without a file may open a listing (4.1 rule 3 "`data` may be empty"; 8 rule 1), more than
 * its own share of the budget crosses: it then walks from where the traversal found the first file.
 */
async function walksAgreeInRun(options: Partial<ReferenceOptions>) {
  const report = await runEngineAgainst(options, {
    select: (id) => id === 'files.pagination.walks-agree' || id === 'files.property.traversal',
  });
  return report.checks.find((c) => c.checkId === 'files.pagination.walks-agree')!;
}

for (const variant of [{ name: 'plain', options: {} }, ...CONFORMANT_VARIANTS]) {
  test(`conformant variant ${variant.name}: the whole-run checks pass`, async () => {
    const alone = WHOLE_RUN_CHECKS.filter((id) => id !== 'files.pagination.walks-agree');
    const outcomes = await Promise.all(
      alone.map((id) =>
        probeCheck(id, variant.options, {
          editTarget: variant.name === 'other-silent-choices' ? otherNames : undefined,
        }),
      ),
    );
    // A SHOULD a variant's reading is reported on (interns.intern.schema for omitted null fields) is the
    // whole-response judges', seen on these checks' pages too; no MUST may fail, nothing may error or skip,
    // save a check whose every requirement the variant's data leaves nothing to judge on (its `unjudged`,
    // or what the check itself said it had nothing to judge by).
    const unjudged = new Set(('unjudged' in variant ? (variant.unjudged ?? []) : []).map((u) => u.id));
    const nothingToJudge = (o: CheckOutcome) =>
      o.status === 'skip' &&
      ALL_CHECKS.find((c) => c.id === o.checkId)!.requirements.every(
        (id) => unjudged.has(id) || o.notJudged?.some((n) => n.requirementId === id),
      );
    expect(
      outcomes.filter((o) => (o.status === 'error' || o.status === 'skip') && !nothingToJudge(o)).map(show),
    ).toEqual([]);
    expect(
      outcomes.flatMap((o) =>
        o.failures
          .filter((f) => requirement(f.requirementId).level === 'MUST')
          .map((f) => `${o.checkId}: ${f.requirementId} ${f.message}`),
      ),
    ).toEqual([]);
    const walksAgree = await walksAgreeInRun(variant.options);
    // A container that lists no file leaves no walk to compare: said, never passed.
    expect(`${walksAgree.status} ${walksAgree.reason ?? ''}`).toBe(
      variant.name === 'empty-main-container' ? 'skip the container lists no file: no walk to compare' : 'pass ',
    );
  });
}

// The hidden-listing-start shape (300 hidden objects before the first file, scan bound 1) with a fault that
// loses a file on full pages: only a walk at a small limit from the first file meets such a page.
test('on a listing that opens with hundreds of pages without a file, walks-agree walks from the first file and finds a full page whose last_id skips one', async () => {
  const shape = CONFORMANT_VARIANTS.find((v) => v.name === 'hidden-listing-start')!.options;
  const walksAgree = await walksAgreeInRun({ ...shape, faults: ['files-full-page-last-id-skips-file'] });
  expect(walksAgree.status).toBe('fail');
  expect(walksAgree.failures?.map((f) => f.requirementId)).toEqual(['files.pagination.next-page']);
  expect(walksAgree.failures?.[0]?.message).toMatch(
    /^a walk passed over "A": the page at limit=\d+ after=cfile_\S+ ends with "-dash-first.txt"/,
  );
  // Alone (--grep), it reads the full listing past those pages for the places its full pages are asked at, and
  // compares those walks: judged, and on the fault found again.
  const alone = await probeCheck('files.pagination.walks-agree', shape);
  expect(`${alone.status} ${alone.reason ?? ''}`).toBe('pass ');
  const aloneFaulty = await probeCheck('files.pagination.walks-agree', {
    ...shape,
    faults: ['files-full-page-last-id-skips-file'],
  });
  expect(aloneFaulty.failures.map((f) => f.requirementId)).toEqual(['files.pagination.next-page']);
});

test("firstFilesAfterEmptyStart: the page after a run of empty pages from the start, through any walk's cursors", () => {
  const empty = (limit: number, after: string | undefined, lastId: string) => page(limit, after, [], lastId);
  const notes = [
    empty(1, undefined, 'h1'),
    empty(1, 'h1', 'h2'),
    // Another walk's page from h2 on (the traversal's), then the first file.
    empty(1000, 'h2', 'h3'),
    page(1000, 'h3', ['a', 'b'], 'id-b'),
    page(5, 'id-b', ['c'], 'id-c'),
  ];
  expect(firstFilesAfterEmptyStart(notes, 'c')?.after).toBe('h3');
  // A start that lists a file needs no such page; a run of empty pages no walk got past has none.
  expect(firstFilesAfterEmptyStart([page(2, undefined, ['a'], 'id-a'), ...notes], 'c')).toBeUndefined();
  expect(firstFilesAfterEmptyStart(notes.slice(0, 3), 'c')).toBeUndefined();
  expect(firstFilesAfterEmptyStart(notes, 'other')).toBeUndefined();
  // A cursor handed back leads nowhere new, and ends the search.
  expect(firstFilesAfterEmptyStart([empty(1, undefined, 'h1'), empty(1, 'h1', 'h1')], 'c')).toBeUndefined();
});

/** The target file of the variant that names the interns parameters otherwise (reference/variants.ts). */
function otherNames(yaml: string): string {
  return yaml.replace(
    /^ {2}params: .*$/m,
    '  params: { limit: "page_size", status: "statuses", workspace: "workspace" }',
  );
}

test('a whole-run check reads the notes of pages other checks received, kept once per request', async () => {
  // Two checks of their own on the engine: one fetches pages, the whole-run one reads what was noted.
  const server = await startReference({});
  const transport = new MemoryTransport(server);
  try {
    let seen: readonly unknown[] = [];
    const checks: CheckDeclaration[] = [
      {
        id: 'test.fetch',
        title: 'fetch',
        operation: 'listContainerFiles',
        requirements: ['files.list.schema'],
        probe: async (ctx) =>
          void (await walkPages(ctx, ctx.target.containerFiles.containerId, { limit: 7, maxPages: 3 })),
      },
      {
        id: 'test.fetch-again',
        title: 'fetch again',
        operation: 'listContainerFiles',
        requirements: ['files.list.schema'],
        probe: async (ctx) =>
          void (await ctx.api.listContainerFiles(ctx.target.containerFiles.containerId, { limit: 7 })),
      },
      {
        id: 'test.read',
        title: 'read',
        operation: 'listContainerFiles',
        requirements: ['files.list.schema'],
        wholeRun: true,
        probe: async (ctx) => void (seen = ctx.notes.of('files.pages')),
      },
    ];
    const engine = new Engine({
      settings: testSettings(mkdtempSync(join(tmpdir(), 'notes-'))),
      target: referenceTarget(server),
      checks,
      judges: RESPONSE_JUDGES,
      transport,
    });
    engine.plan(['test.read', 'test.fetch', 'test.fetch-again']);
    const outcomes = await engine.finished();
    // Checks run together (--concurrency): the order they finish in is not theirs to keep, the whole-run one is last.
    expect([...outcomes.values()].map(show).sort()).toEqual([
      'test.fetch-again: pass ',
      'test.fetch: pass ',
      'test.read: pass ',
    ]);
    expect([...outcomes.keys()].at(-1)).toBe('test.read');
    const notes = seen as FilePageNote[];
    // Three pages walked, the first asked twice: three notes, each with its query and paths, no body.
    // In the order of their keys (core/run/run-notes.ts), whatever order the pages came in.
    expect(notes.map((n) => [n.limit, n.after === undefined]).sort()).toEqual([
      ['7', false],
      ['7', false],
      ['7', true],
    ]);
    expect(notes.find((n) => n.after === undefined)!.paths.length).toBeGreaterThan(0);
    expect(Object.keys(notes[0]!).sort()).toEqual(['after', 'container', 'hasMore', 'lastId', 'limit', 'paths']);
  } finally {
    await transport.close();
    await server.close();
  }
});

test('each whole-run check is declared to run after the others', () => {
  for (const id of ['files.pagination.walks-agree', 'interns.order.newest-prefix'])
    expect(ALL_CHECKS.find((c) => c.id === id)?.wholeRun, id).toBe(true);
});

// ---- the pure judgements, on notes written by hand

const page = (
  limit: number,
  after: string | undefined,
  paths: string[],
  lastId: string | null,
  hasMore = true,
): FilePageNote => ({ container: 'c', limit: String(limit), after, paths, lastId, hasMore });

test('passedOver: a cursor that skips a file another walk lists is found, with the walk that lost it', () => {
  const notes = [
    // limit 2: a, b | last_id names c (not listed) | d, e
    page(2, undefined, ['a', 'b'], 'id-c'),
    page(2, 'id-c', ['d', 'e'], 'id-e'),
    // limit 3: a, b, c | d ...
    page(3, undefined, ['a', 'b', 'c'], 'id-c'),
  ];
  const found = passedOver(notes);
  expect(found.map((f) => [f.walk.from, f.walk.to, f.skipped, f.requirementId])).toEqual([
    ['b', 'd', 'c', 'files.pagination.next-page'],
  ]);
});

test('passedOver: scan-bound pages (empty, opaque cursors) between two files are one step; a page dropping a file is limit-independent', () => {
  const scan = [
    page(5, undefined, ['a', 'b'], 'tok1'),
    page(5, 'tok1', [], 'tok2'),
    page(5, 'tok2', ['c', 'd'], 'id-d'),
    page(1000, undefined, ['a', 'b', 'c', 'd'], 'id-d', false),
  ];
  expect(passedOver(scan)).toEqual([]);
  const dropped = [
    page(1000, undefined, ['a', 'b', 'c', 'd'], 'id-d', false),
    page(7, undefined, ['a', 'c', 'd'], 'id-d', false),
  ];
  expect(passedOver(dropped).map((f) => [f.walk.from, f.walk.to, f.skipped, f.requirementId])).toEqual([
    ['a', 'c', 'b', 'files.pagination.limit-independent'],
  ]);
});

test('passedOver: walks that agree, in any order of their own, pass; a file listed twice is no pair', () => {
  // An order no byte comparison gives (component order, say): walks agree with each other, that is all.
  const agree = [
    page(2, undefined, ['z', 'a'], 'id-a'),
    page(2, 'id-a', ['m'], 'id-m', false),
    page(10, undefined, ['z', 'a', 'm'], 'id-m', false),
  ];
  expect(passedOver(agree)).toEqual([]);
  expect(passedOver([page(2, undefined, ['a', 'a'], 'id-a'), page(3, undefined, ['a', 'b'], 'id-b', false)])).toEqual(
    [],
  );
});

const interns = (query: Record<string, string>, list: Array<[string, number]>): InternPageNote => ({
  query,
  ids: list.map(([id]) => id),
  at: list.map(([, at]) => at),
});

test('notNewest: a page that leaves out a newer intern of the same query is found; ties and other queries are not', () => {
  const all: Array<[string, number]> = [
    ['a', 50],
    ['b', 40],
    ['c', 30],
    ['d', 20],
  ];
  // limit=2 listing b, c (newest first, but a is newer and left out).
  const found = notNewest(
    [
      interns({}, all),
      interns({ limit: '2' }, [
        ['b', 40],
        ['c', 30],
      ]),
    ],
    'limit',
  );
  expect(found.map((f) => [f.page.query, f.newer.id, f.older.id])).toEqual([[{ limit: '2' }, 'a', 'c']]);
  // The newest two: fine; a status filter is another listing.
  expect(
    notNewest(
      [
        interns({}, all),
        interns({ limit: '2' }, [
          ['a', 50],
          ['b', 40],
        ]),
        interns({ status: 'x' }, [['d', 20]]),
      ],
      'limit',
    ),
  ).toEqual([]);
  // Equal instants at the cut may come in either order.
  const tie: Array<[string, number]> = [
    ['a', 50],
    ['b', 40],
    ['c', 40],
  ];
  expect(
    notNewest(
      [
        interns({}, tie),
        interns({ limit: '2' }, [
          ['a', 50],
          ['c', 40],
        ]),
      ],
      'limit',
    ),
  ).toEqual([]);
});

test('RunNotes: one note per request, bounded in characters, the rest counted', () => {
  const notes = new RunNotes(100);
  notes.add('j', { key: 'k1', value: 1, chars: 40 });
  notes.add('j', { key: 'k1', value: 2, chars: 40 });
  notes.add('j', { key: 'k2', value: 3, chars: 40 });
  notes.add('j', { key: 'k3', value: 4, chars: 40 });
  expect(notes.of('j')).toEqual([1, 3]);
  expect(notes.dropped).toBe(1);
  expect(notes.of('other')).toEqual([]);
});
