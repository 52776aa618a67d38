/**
 * `conformance diff A B`: the real CLI on real reports. The suite runs twice on the plain reference,
 * once on each variant that makes other choices where the document is silent, and once on a fault;
 * every assertion below reuses those reports. The runs are the engine's in-process, each reference
 * answering without a connection (test/support/harness.ts runEngineAgainst, the report model of
 * report.json): what is tested here is the diff command, which reads report files; the suite's own
 * command line and its runs over HTTP are tested elsewhere.
 *
 * The variants made of one reading of the document's words (`options.readings`, spec/readings.yaml)
 * are left out: they differ on MUST points both readings pass, which the implementation profile does
 * not record, and the self-test already runs each of them.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReferenceOptions } from '../reference/options.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { requirement } from '../core/document/catalogue.ts';
import { compareReports, type ObservationDifference, type ReportComparison } from '../reports/diff-compare.ts';
import { COUNT_FIELDS } from '../reports/diff-counts.ts';
import { EXIT_CODE } from '../reports/format.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { runEngineAgainst, runScript } from './support/harness.ts';

test.describe.configure({ mode: 'serial' });

/** A fault that breaks one MUST requirement (4.3: has_more is a boolean), and that requirement. */
const FAULT = { name: 'interns-has-more-string', requirement: 'interns.list.schema' };

interface Run {
  file: string;
  report: ConformanceReport;
}

/** The variants that choose otherwise where the document says "not shown". */
const SILENT_CHOICES = CONFORMANT_VARIANTS.filter((v) => !v.options.readings && v.refusedByPreflight === undefined);

/**
 * Data shapes the document allows (a small scan bound, long runs of hidden objects: 8 rule 1, 4.1 rule 3):
 * what needs a shape they lack (two files on one page, a page that ends full) is not judged there, so a
 * requirement the reference passes may be skipped with the reason said; never failed.
 */
const DATA_SHAPES = [
  'tiny-scan-bound',
  'long-hidden-runs',
  'scan-bound-1',
  'sparse-visible-files',
  'large-listing',
  'hidden-listing-start',
  'key-without-interns',
];
const notJudgedOnShape = (name: string, d: { a: { status: string }; b: { status: string; reason?: string } }) =>
  DATA_SHAPES.includes(name) &&
  d.a.status === 'pass' &&
  d.b.status === 'skip' &&
  /not judged|budget|lists no intern/.test(d.b.reason ?? '');

const runs = new Map<string, Run>();
const dir = mkdtempSync(join(tmpdir(), 'diff-test-'));

/** The seed of every run below: one seed, so two runs of one implementation send the same requests. */
const SEED = 1234;

/** The suite's run, in-process, against the reference started with the given options (a fault, a conformant variant). */
function runAgainst(options: Partial<ReferenceOptions>): Promise<ConformanceReport> {
  return runEngineAgainst(options, { settings: { seed: SEED } });
}

/** Keeps a run's report as a file; `expectedCode` is the exit code the command line gives its verdict. */
function keep(name: string, report: ConformanceReport, expectedCode: number): void {
  expect(EXIT_CODE[report.verdict], `suite run ${name}: ${report.verdict}`).toBe(expectedCode);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(report));
  runs.set(name, { file, report });
}

function run(name: string): Run {
  const r = runs.get(name);
  if (!r) throw new Error(`no report ${name}`);
  return r;
}

function diff(args: string[]) {
  return runScript('cli/diff.ts', args, { timeoutMs: 30_000 });
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  // One at a time: the machine's cores are shared, and a run's timing must not starve another's.
  keep('plain', await runAgainst({}), 0);
  // Another reference with the same seed: the same implementation run again.
  keep('plain-again', await runAgainst({}), 0);
  for (const v of SILENT_CHOICES) keep(v.name, await runAgainst(v.options), 0);
  keep('fault', await runAgainst({ faults: [FAULT.name] }), 1);
});

// With one seed: other seeds send other property inputs.
test('two runs of one implementation with one seed agree: exit 0', async () => {
  const out = await diff([run('plain').file, run('plain-again').file]);
  expect(out.stderr).toBe('');
  expect(out.stdout).toContain('The two reports agree');
  expect(out.stdout).not.toContain('Requirements whose status differs');
  expect(out.code).toBe(0);
});

/**
 * What each variant chose where the document is silent, read from its declared options
 * (reference/variants.ts), and where the implementation profile must show it. The comparison is the
 * same one the CLI prints (checked below by its text).
 */
const CHOICES: Record<
  string,
  Array<{ id: string; shows: (b: Record<string, unknown>, a: Record<string, unknown>) => boolean }>
> = {
  'tiny-scan-bound': [
    // 8 rule 1: a bound of 3 gives more empty pages with has_more true than the reference's 64.
    {
      id: 'files.scan-bound.value',
      shows: (b, a) => Number(b['emptyPagesWithHasMore']) > Number(a['emptyPagesWithHasMore']),
    },
  ],
  'sparse-extra-charset': [
    // 2.4: endpoint fields left out or null where presence and nullability are not shown.
    {
      id: 'models.endpoint.required-fields',
      shows: (b) => Array.isArray(b['sometimesAbsent']) && b['sometimesAbsent'].length > 0,
    },
    { id: 'models.endpoint.nullability', shows: (b) => JSON.stringify(b).includes('"null"') },
    // Unknown extra fields (x_reference) beside data and has_more.
    {
      id: 'interns.pagination.next-page',
      shows: (b) => Object.keys(b['fieldsBeyondDataAndHasMore'] as object).length > 0,
    },
  ],
  'other-silent-choices': [
    {
      id: 'interns.params.names',
      shows: (b) => JSON.stringify(b) === JSON.stringify(variantOptions('other-silent-choices').internsParams),
    },
    {
      id: 'interns.limit.default',
      shows: (b) => b['defaultPageSize'] === variantOptions('other-silent-choices').internsDefaultPageSize,
    },
    {
      id: 'interns.errors.string-code-status',
      shows: (b) => b['status'] === variantOptions('other-silent-choices').stringErrorStatus?.invalid_body,
    },
    {
      id: 'auth.key-kind-per-operation',
      shows: (b) =>
        JSON.stringify(b['acceptedBy']) ===
        JSON.stringify(variantOptions('other-silent-choices').restrictedKeyAcceptedBy),
    },
  ],
  // Padding of ids (RFC 4648 leaves it open) and a null first_id (4.1 rule 5) are judged, both
  // readings pass, but no requirement of the catalogue records which one a target chose: the profile
  // has nothing to show, and the diff says the two agree (see the test below).
  'padded-ids-null-first-id': [],
  // Long runs of hidden objects (large-listing: runs of 3000 among 20,000 files) and a scan bound of 1:
  // many more empty pages with has_more true (8 rule 1, 4.1 rule 3).
  ...Object.fromEntries(
    ['long-hidden-runs', 'scan-bound-1', 'sparse-visible-files', 'large-listing', 'hidden-listing-start'].map(
      (name) => [
        name,
        [
          {
            id: 'files.scan-bound.value',
            shows: (b: Record<string, unknown>, a: Record<string, unknown>) =>
              Number(b['emptyPagesWithHasMore']) > Number(a['emptyPagesWithHasMore']),
          },
        ],
      ],
    ),
  ),
  // A key that lists no intern: no requirement records what a key sees, so the profile shows nothing.
  'key-without-interns': [],
  // 8 rule 4: the 408s list interns gave now and then, retried (never a check's answer).
  'transient-statuses': [
    { id: 'interns.timeout.length', shows: (b, a) => b['answered408'] === true && a['answered408'] !== true },
  ],
};

function variantOptions(name: string) {
  const v = CONFORMANT_VARIANTS.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return v.options;
}

function only(values: unknown[]): Record<string, unknown> {
  expect(values, 'one distinct observed value').toHaveLength(1);
  return values[0] as Record<string, unknown>;
}

test('every conformant variant: no requirement differs, and the profile shows what the variant chose', async () => {
  expect(Object.keys(CHOICES).sort()).toEqual(SILENT_CHOICES.map((v) => v.name).sort());
  for (const v of SILENT_CHOICES) {
    const comparison: ReportComparison = compareReports(run('plain').report, run(v.name).report, {
      a: 'plain',
      b: v.name,
    });
    expect(
      comparison.statuses.filter((d) => !notJudgedOnShape(v.name, d)),
      `${v.name}: a conformant variant is judged as the reference is`,
    ).toEqual([]);
    const byId = new Map<string, ObservationDifference>(comparison.observations.map((d) => [d.id, d]));
    for (const choice of CHOICES[v.name]!) {
      const d = byId.get(choice.id);
      expect(d, `${v.name}: ${choice.id} differs`).toBeDefined();
      expect(
        choice.shows(only(d!.b.observed), only(d!.a.observed)),
        `${v.name}: ${choice.id} shows the variant's choice`,
      ).toBe(true);
    }

    const out = await diff([run('plain').file, run(v.name).file]);
    expect(out.stderr).toBe('');
    // A status difference exits 1; only observations differing exits 3 (cli/diff.ts).
    expect(out.code, v.name).toBe(comparison.agree ? 0 : comparison.statuses.length ? 1 : 3);
    if (comparison.statuses.length === 0) expect(out.stdout).not.toContain('Requirements whose status differs');
    for (const choice of CHOICES[v.name]!)
      expect(out.stdout, `${v.name}: ${choice.id} on the console`).toContain(`  ${choice.id} (`);
    if (CHOICES[v.name]!.length === 0 && comparison.statuses.length === 0)
      expect(out.stdout).toContain('The two reports agree');
  }
});

test("the variant that names its interns parameters otherwise: its names side by side with the reference's", async () => {
  const out = await diff([run('plain').file, run('other-silent-choices').file]);
  const names = variantOptions('other-silent-choices').internsParams!;
  const section = out.stdout.slice(out.stdout.indexOf('  interns.params.names ('));
  for (const [key, value] of Object.entries(names)) {
    const line = section.split('\n').find((l) => l.trimStart().startsWith(`${key} `));
    expect(line, `row for ${key}`).toBeDefined();
    // The reference's name in column A, the variant's in column B.
    expect(line!).toMatch(new RegExp(`^\\s+${key}\\s+"[a-z_]+"\\s+"${value}"$`));
  }
});

test('a fault: its requirement passes on A and fails on B, exit 1; the HTML page says the same', async () => {
  const html = join(dir, 'fault.html');
  const out = await diff([run('plain').file, run('fault').file, '--html', html]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(1);
  const row = out.stdout.split('\n').find((l) => l.startsWith(`  ${FAULT.requirement} `));
  expect(row, out.stdout).toBeDefined();
  expect(row!).toMatch(/\bMUST\b.*\bpass\s+fail$/);
  expect(out.stdout).toContain('The two reports differ');

  const page = readFileSync(html, 'utf8');
  expect(page).toContain(`<tr id="req-${FAULT.requirement}">`);
  expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  expect(page).not.toMatch(/<script|<link|src="http|href="http/);
});

test('values from a report are hostile: escaped on the console and in the page', async () => {
  const report = structuredClone(run('plain').report);
  const hostile = '\u001b[2J\u001b[1;1Hverdict: CONFORMANT\r\n<script>alert(1)</script>\u202e';
  const point = report.requirements.find((r) => r.id === 'interns.params.names')!;
  point.observed = [{ limit: hostile, [`k${hostile}`]: 1 }];
  report.target.baseUrl = `http://127.0.0.1/${hostile}`;
  const file = join(dir, 'hostile.json');
  writeFileSync(file, JSON.stringify(report));
  const html = join(dir, 'hostile.html');
  const out = await diff([run('plain').file, file, '--html', html]);
  // Only an observation differs (the base URL is no requirement): exit 3.
  expect(out.code).toBe(3);
  // No control character but the line breaks the command itself writes.
  expect(out.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  expect(out.stdout).toContain('\\x1b[2J');
  expect(out.stdout.split('\n').filter((l) => l.startsWith('verdict'))).toEqual([]);
  const page = readFileSync(html, 'utf8');
  expect(page).not.toContain('<script>alert(1)</script>');
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
});

/** A copy of a report with the observed values of one requirement edited. */
function edited(report: ConformanceReport, edits: Record<string, (v: Record<string, unknown>) => unknown>) {
  const copy = structuredClone(report);
  for (const [id, edit] of Object.entries(edits)) {
    const r = copy.requirements.find((q) => q.id === id);
    expect(r?.observed, `${id} observed in the report`).toBeDefined();
    r!.observed = r!.observed!.map((v) => edit(v as Record<string, unknown>));
  }
  return copy;
}

const plusOne = (tally: unknown) =>
  Object.fromEntries(Object.entries(tally as Record<string, number>).map(([k, n]) => [k, n + 1]));

test('counts are not compared: observations that differ only in what they count agree, exit 0; a choice still differs, exit 3', async () => {
  const plain = run('plain');
  // More endpoints, interns, pages and 401s than the reference has: the same choices, other counts.
  const counted = edited(plain.report, {
    'models.endpoint.required-fields': (v) => ({
      ...v,
      endpoints: Number(v['endpoints']) + 1,
      present: plusOne(v['present']),
    }),
    'models.endpoint.nullability': (v) =>
      Object.fromEntries(
        Object.entries(v).map(([k, f]) =>
          k === 'endpoints'
            ? [k, Number(f) + 1]
            : [
                k,
                {
                  ...(f as object),
                  onEndpoints: {
                    ...(f as { onEndpoints: object }).onEndpoints,
                    types: plusOne((f as { onEndpoints: { types: object } }).onEndpoints.types),
                  },
                },
              ],
        ),
      ),
    'interns.intern.nullable-types': (v) =>
      Object.fromEntries(
        Object.entries(v).map(([k, f]) =>
          k === 'interns'
            ? [k, Number(f) * 2]
            : [k, { ...(f as object), types: plusOne((f as { types: object }).types) }],
        ),
      ),
    'models.errors.other-statuses': (v) => plusOne(v),
    'files.scan-bound.value': (v) => ({ ...v, pagesWalked: Number(v['pagesWalked']) + 7 }),
  });
  const countsFile = join(dir, 'counts-only.json');
  writeFileSync(countsFile, JSON.stringify(counted));
  const same = await diff([plain.file, countsFile]);
  expect(same.stderr).toBe('');
  expect(same.stdout).toContain('The two reports agree');
  expect(same.code).toBe(0);

  // One field that every endpoint carried now missing from one of them, and a status never seen before: choices.
  const chose = edited(counted, {
    'models.endpoint.required-fields': (v) => ({
      ...v,
      inEvery: (v['inEvery'] as string[]).filter((f) => f !== 'tag'),
      sometimesAbsent: [...(v['sometimesAbsent'] as string[]), 'tag'],
    }),
    'models.errors.other-statuses': (v) => ({ ...v, '429': 1 }),
  });
  const choiceFile = join(dir, 'other-choice.json');
  writeFileSync(choiceFile, JSON.stringify(chose));
  const other = await diff([plain.file, choiceFile]);
  expect(other.code).toBe(3);
  const comparison = compareReports(plain.report, chose, { a: 'plain', b: 'chose' });
  expect(comparison.observations.map((d) => d.id).sort()).toEqual([
    'models.endpoint.required-fields',
    'models.errors.other-statuses',
  ]);
  // The leaves shown are the choices, never the counts beside them.
  const leaves = comparison.observations.flatMap((d) => d.leaves.map((l) => `${d.id} ${l.path}`));
  expect(leaves).toEqual([
    'models.endpoint.required-fields inEvery',
    'models.endpoint.required-fields sometimesAbsent',
    'models.errors.other-statuses (value)',
  ]);
  expect(other.stdout).not.toMatch(/^\s+(endpoints|present)\s/m);
});

test('every count-like field named for the comparison is one a check observes, under a requirement the document leaves open', () => {
  const has = (value: unknown, path: readonly string[]): boolean => {
    if (path.length === 0) return true;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const [head, ...rest] = path;
    const entries = Object.entries(value).filter(([k]) => head === '*' || k === head);
    return entries.some(([, v]) => has(v, rest));
  };
  for (const [id, fields] of Object.entries(COUNT_FIELDS)) {
    expect(requirement(id).level, id).toBe('UNSPECIFIED');
    // Observed in some run of this file (a 408's time only where the variant answers 408s).
    const observed = [...runs.values()].flatMap((r) => r.report.requirements.find((q) => q.id === id)?.observed ?? []);
    for (const path of [...(fields.counts ?? []), ...(fields.tallies ?? [])])
      expect(
        observed.some((v) => has(v, path)),
        `${id}: ${path.join('.') || '(value)'} is observed`,
      ).toBe(true);
  }
});

test('bad input: one line on stderr, exit 2, for every kind', async () => {
  const plain = run('plain');
  const write = (name: string, content: string) => {
    const f = join(dir, name);
    writeFileSync(f, content);
    return f;
  };
  const other = (edit: (r: ConformanceReport) => void) => {
    const r = structuredClone(plain.report);
    edit(r);
    return write(`edited-${Math.random().toString(36).slice(2)}.json`, JSON.stringify(r));
  };
  const link = join(dir, 'link.html');
  symlinkSync(join(dir, 'elsewhere.html'), link);
  const cases: Array<{ args: string[]; says: RegExp }> = [
    { args: [plain.file, join(dir, 'missing.json')], says: /missing\.json.*no such file/ },
    { args: [plain.file, write('broken.json', '{"reportVersion": 1,')], says: /broken\.json.* is not valid JSON/ },
    {
      args: [plain.file, write('other.json', '{"name": "not a report"}')],
      says: /other\.json.* is not a conformance report/,
    },
    {
      args: [plain.file, other((r) => (r.suite.version = '9.9.9'))],
      says: new RegExp(
        `different suite versions \\(A conformance-suite ${plain.report.suite.version.replaceAll('.', '\\.')}, B .* 9\\.9\\.9\\)`,
      ),
    },
    {
      args: [plain.file, other((r) => (r.specVersion = '2.0.0'))],
      says: /different versions of the service document \(A 1\.0\.0, B 2\.0\.0\)/,
    },
    { args: [plain.file], says: /takes two reports, got 1/ },
    // An unknown option in the main command's words, with the nearest of diff's own options.
    {
      args: [plain.file, plain.file, '--colour'],
      says: /^conformance diff: unknown option --colour \(see --help\)\n$/,
    },
    {
      args: [plain.file, plain.file, '--htlm', 'x.html'],
      says: /^conformance diff: unknown option --htlm \(did you mean --html\?\) \(see --help\)\n$/,
    },
    { args: [plain.file, '/dev/zero'], says: /is not a regular file/ },
    // A report directory given for its report.json: the line names the file to give.
    {
      args: [plain.file, dirname(plain.file)],
      says: / is a directory: give its report\.json \(.*\/report\.json"?\)\n$/,
    },
    { args: [plain.file, plain.file, '--html', link], says: /symbolic link; refusing/ },
  ];
  for (const c of cases) {
    const out = await diff(c.args);
    expect(out.code, c.args.join(' ')).toBe(2);
    expect(out.stderr.trimEnd().split('\n'), c.args.join(' ')).toHaveLength(1);
    expect(out.stderr).toMatch(/^conformance diff: /);
    expect(out.stderr).toMatch(c.says);
    expect(out.stdout).toBe('');
  }
});

test('--help says how to use it, exit 0', async () => {
  const out = await diff(['--help']);
  expect(out.code).toBe(0);
  // As the other commands' usage: the command that runs it here (a clone's npm script).
  expect(out.stdout).toMatch(/^usage: npm run conformance:diff -- A\/report\.json B\/report\.json/);
  expect(out.stdout).toContain(
    'Exit code: 0 the two agree; 1 the status of a requirement differs; 3 only observations differ',
  );
});
