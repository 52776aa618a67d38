import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseTarget } from '../core/target/target.ts';
import { startReference } from '../reference/server.ts';
import { rejectedKeyTarget, startHtmlTarget } from '../bench/failing-targets.ts';
import { dredd } from '../bench/peers/dredd.ts';
import { junitFailures } from '../bench/peers/schemathesis.ts';
import { hyperfine, hyperfineVersion, runOnce, type Ran } from '../bench/run.ts';
import { suiteOutcome } from '../bench/suite-run.ts';
import { nodeOfSuite, suiteArgv, useNode } from '../bench/commands.ts';
import { playwrightFloorArgv } from '../bench/playwright-floor.ts';
import type { BenchResults } from '../bench/results.ts';
import { RESULTS_FILE, resultsFile, writeResultsFile } from '../bench/results-file.ts';
import type { SuiteOutcome } from '../bench/suite-run.ts';

// The bench's own parts that its figures rest on: the command lines hyperfine times are the ones the
// bench ran, what each run said is read from its report or its output, and its failing targets fail
// the way the figures say (not by a broken target file).

const ran = (over: Partial<Ran>): Ran => ({ code: 0, timedOut: false, wallMs: 1, stdout: '', stderr: '', ...over });

test('hyperfine runs each contender with its arguments as given, and its JSON export is read back', async () => {
  test.skip(!hyperfineVersion(), 'hyperfine is not installed (the bench says so and exits 2)');
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  try {
    const script =
      "require('fs').appendFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)) + '\\n'); process.exit(Number(process.argv[2]))";
    const out = join(dir, 'argv.jsonl');
    const results = await hyperfine(
      [
        { name: 'exits 3', argv: [process.execPath, '-e', script, out, '3', "it's a b", '$HOME'] },
        { name: 'exits 0', argv: [process.execPath, '-e', script, out, '0'] },
      ],
      { runs: 2, cwd: dir, env: {}, json: join(dir, 'hyperfine.json'), capMs: 60_000 },
    );
    expect(results.map((r) => r.command)).toEqual(['exits 3', 'exits 0']);
    expect(results[0]!.exit_codes).toEqual([3, 3]);
    expect(results[1]!.times).toHaveLength(2);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string[]);
    expect(lines).toContainEqual(['3', "it's a b", '$HOME']);
    expect(lines).toHaveLength(4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a suite run is read from its report; a refused run, which writes none, by its last line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  try {
    const refused = suiteOutcome(
      ran({ code: 2, stderr: 'npm warn x\nconformance: apiKey was rejected by every operation\n' }),
      dir,
      false,
    );
    expect(refused).toMatchObject({
      verdict: 'none',
      exitCode: 2,
      stderrLine: 'conformance: apiKey was rejected by every operation',
    });
    expect(refused.problem).toBeUndefined();
    expect(suiteOutcome(ran({ code: 1 }), dir).problem).toMatch(/^no report.json \(exit 1\)/);
    const report = {
      verdict: 'non-conformant',
      run: { requests: 40, requestsSaved: 7 },
      checks: [
        { checkId: 'a', status: 'fail' },
        { checkId: 'b', status: 'pass' },
        { checkId: 'c', status: 'error' },
      ],
      requirements: [
        { id: 'R1', status: 'fail', level: 'MUST' },
        { id: 'R2', status: 'fail', level: 'SHOULD' },
        { id: 'R3', status: 'pass', level: 'MUST' },
      ],
    };
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    expect(suiteOutcome(ran({ code: 1 }), dir)).toMatchObject({
      verdict: 'non-conformant',
      requests: 40,
      saved: 7,
      checks: 3,
      failedChecks: ['a'],
      erroredChecks: ['c'],
      failedRequirements: ['R1', 'R2'],
      failedMust: ['R1'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the peers' failures are read from their own output: Dredd's transactions, Schemathesis's JUnit report", () => {
  const out = [
    'pass: GET (200) /interns duration: 5ms',
    'fail: GET (401) /interns duration: 2ms',
    'fail: GET (200) /interns duration: 3ms',
    'fail: GET (200) /interns duration: 3ms',
    'info: Displaying failed tests...',
    'fail: GET (401) /interns duration: 2ms',
  ].join('\n');
  expect(dredd.read(ran({ code: 1, stdout: out }), '').failures).toEqual([
    'GET (401) /interns',
    'GET (200) /interns #2',
    'GET (200) /interns #3',
  ]);
  expect(dredd.read(ran({ code: 1, stderr: 'error: spec not found' }), '').problem).toMatch(
    /^no transaction ran: error: spec not found/,
  );
  const xml =
    '<testsuite><testcase name="GET /interns"><failure message="x">- ST108 Response violates schema\n- ST201 Schema-violating request accepted</failure></testcase><testcase name="GET /models/{a}/{b}/endpoints"/></testsuite>';
  expect(junitFailures(xml)).toEqual([
    'GET /interns: ST108 Response violates schema',
    'GET /interns: ST201 Schema-violating request accepted',
  ]);
});

test('the HTML target answers every request with 200 text/html and is described by a valid target file', async () => {
  const reference = await startReference();
  const html = await startHtmlTarget(reference);
  try {
    const target = parseTarget(html.yaml, 'target.yaml', { env: html.env });
    expect(target.baseUrl).toBe(html.baseUrl);
    for (const path of ['/interns', '/containers/x/files?limit=1', '/nowhere']) {
      const res = await fetch(html.baseUrl + path, {
        headers: { authorization: `Bearer ${reference.keys.management}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<html>');
    }
  } finally {
    await html.close();
    await reference.close();
  }
});

test('the rejected-key target is the reference with a key it answers 401 to', async () => {
  const reference = await startReference();
  try {
    const t = rejectedKeyTarget(reference);
    const target = parseTarget(t.yaml, 'target.yaml', { env: t.env });
    expect(target.apiKey).not.toBe(reference.keys.management);
    const res = await fetch(`${reference.baseUrl}/interns`, { headers: { authorization: `Bearer ${target.apiKey}` } });
    expect(res.status).toBe(401);
  } finally {
    await reference.close();
  }
});

test("Playwright's floor row is a real run of one empty test by the runner the suite uses, from a folder with no node_modules", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  try {
    const r = await runOnce(playwrightFloorArgv(dir), { cwd: dir, env: { FORCE_COLOR: '0' }, capMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\b1 passed\b/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--node: every suite command runs on the node given (npm through the PATH its script reads), the bench's own otherwise", () => {
  try {
    useNode('/opt/node-22/bin/node');
    expect(nodeOfSuite()).toBe('/opt/node-22/bin/node');
    expect(suiteArgv('dist', ['--seed', '1'])[0]).toBe('/opt/node-22/bin/node');
    expect(suiteArgv('tsx', [])[0]).toBe('/opt/node-22/bin/node');
    const npm = suiteArgv('npm', []);
    expect(npm.slice(0, 3)).toEqual(['env', `PATH=/opt/node-22/bin:${process.env['PATH'] ?? ''}`, 'npm']);
  } finally {
    useNode(undefined);
  }
  expect(suiteArgv('dist', [])[0]).toBe(process.execPath);
  expect(suiteArgv('npm', [])[0]).toBe('npm');
});

// The results file (bench/RESULTS.md): the figures under one header of date, command, commit and
// machine, and the tables the bench prints. Written from a results model made here, no bench run.
const outcome = (over: Partial<SuiteOutcome>): SuiteOutcome => ({
  exitCode: 0,
  timedOut: false,
  wallMs: 2_000,
  verdict: 'conformant',
  requests: 491,
  checks: 117,
  failedChecks: [],
  erroredChecks: [],
  failedRequirements: [],
  failedMust: [],
  ...over,
});

const results: BenchResults = {
  date: '2030-01-02T03:04:05.000Z',
  command: 'npm run bench -- --rows latency,catalogue',
  mode: 'full',
  runs: 1,
  seed: 1234,
  machine: {
    nproc: 2,
    cpu: 'Test CPU Model 9000',
    memoryGb: 24,
    os: 'Linux 6.1 (free memory 20.0 GB)',
    loadavgStart: [1, 1, 1],
    loadavgEnd: [0.5, 0.5, 0.5],
  },
  versions: { node: 'v20.99.0', '@playwright/test': '1.65.1', commit: 'abc1234' },
  peers: [{ name: 'Dredd', available: false, reason: 'skipped (--no-peers)', configuration: 'dredd' }],
  latency: {
    runs: 5,
    delayMs: 50,
    contenders: [
      {
        id: 'suite (default)',
        contest: 'latency',
        label: 'suite, --concurrency 8 (default)',
        outcome: { exitCode: 0, verdict: 'conformant', requests: 435, saved: 373 },
        timing: {
          command: 'suite',
          mean: 3.72,
          stddev: 0.06,
          median: 3.7,
          min: 3.66,
          max: 3.81,
          user: 2.5,
          system: 0.3,
          times: [3.66, 3.7, 3.72, 3.75, 3.81],
          exit_codes: [0, 0, 0, 0, 0],
        },
      },
    ],
  },
  targets: [
    { name: 'reference', kind: 'reference', description: 'the reference', suite: [outcome({})], peers: {} },
    {
      name: 'files-after-inclusive',
      kind: 'fault',
      description: 'after resumes at the named path',
      breaks: ['files.after.strictly-after'],
      suite: [
        outcome({
          exitCode: 1,
          verdict: 'non-conformant',
          failedRequirements: ['files.after.strictly-after'],
          failedMust: ['files.after.strictly-after'],
        }),
      ],
      peers: {},
    },
  ],
  problems: [],
  elapsedMs: 385_000,
  partial: false,
};

test('the results file: one header of date, command, commit, machine and Node.js, then the tables the bench prints', () => {
  const text = resultsFile(results);
  expect(text.startsWith('# Bench results\n')).toBe(true);
  const header = text.slice(0, text.indexOf('### '));
  for (const row of [
    '| Date | 2030-01-02T03:04:05.000Z |',
    '| Command | `npm run bench -- --rows latency,catalogue` (full; 5 timed run(s) per contender side by side; 1 verdict run per conformant variant, 1 per fault; seed 1234; took 385 s) |',
    '| Commit | abc1234 |',
    '| Machine | Test CPU Model 9000, 2 cores, 24 GB memory; Linux 6.1 (free memory 20.0 GB) |',
    '| Node.js | v20.99.0 |',
  ])
    expect(header, row).toContain(row);
  // Each is said once, in the header: the tables below carry no second date or machine.
  expect(text.split('2030-01-02').length - 1).toBe(1);
  expect(text.split('Test CPU Model 9000').length - 1).toBe(1);
  // The tables: the latency row as hyperfine timed it, the verdict rows of the catalogue.
  expect(text).toContain('### At 50 ms per request');
  expect(text).toMatch(
    /^\| suite, --concurrency 8 \(default\) \| 3\.72 s ± 0\.06 \(3\.66–3\.81\) \| 2\.8 s \| exit 0; conformant; 435 requests, 373 answered from the run's memory \|$/m,
  );
  expect(text).toContain('### Faults caught and false failures');
  expect(text).toMatch(/^\| this suite \| 1 of 1 \(1 on the requirement the fault breaks\) \|/m);
  expect(text).toMatch(/^\| files-after-inclusive \| files\.after\.strictly-after \| ✔ \|/m);
  expect(text).toContain('### Reference and conformant variants');
  expect(text.endsWith('\n')).toBe(true);
});

test('the results file is written where it is asked for, bench/RESULTS.md by default, holding what the console prints', () => {
  expect(RESULTS_FILE.endsWith(join('bench', 'RESULTS.md'))).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  try {
    const path = join(dir, 'RESULTS.md');
    writeResultsFile(results, path);
    expect(readFileSync(path, 'utf8')).toBe(resultsFile(results));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The committed file has the same shape: a title and one header with the date, commit and machine.
  const committed = readFileSync(RESULTS_FILE, 'utf8');
  expect(committed.startsWith('# Bench results\n')).toBe(true);
  for (const row of ['| Date |', '| Commit |', '| Machine |', '| Node.js |']) expect(committed, row).toContain(row);
});
