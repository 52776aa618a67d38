import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../reports/model.ts';
import { LOCK, MARKER } from '../reports/safe-files.ts';
import { REPORT_FILES } from '../reports/write-report.ts';
import { ConformanceRunError, runConformance } from '../cli/api.ts';
import { ROOT, runCli } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

/** Every stop ends in a verdict with evidence: all five files, INCOMPLETE, the reason named. */
function expectIncompleteReport(dir: string, reason: RegExp, judgedBefore = true): ConformanceReport {
  for (const name of Object.keys(REPORT_FILES)) expect(existsSync(join(dir, name)), name).toBe(true);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ConformanceReport;
  expect(report.verdict).toBe('incomplete');
  expect(report.run.incomplete).toMatch(reason);
  // The checks that ran keep their outcomes; the rest are cut short, never passed.
  // (A deadline may pass before the first check on a loaded machine: what ran by then is not asserted.)
  if (judgedBefore) expect(report.checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(0);
  expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
  expect(report.checks.filter((c) => c.cause === 'run-limit').length).toBeGreaterThan(0);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/INCOMPLETE/);
  return report;
}

test("the suite's deadline cuts the checks: cut runs end INCOMPLETE (exit 2) with all five reports", async () => {
  // At 2 requests/s the run needs minutes; the preflight's three requests take about a second, far
  // within 10 s however loaded the machine: the checks are cut at the deadline, whatever passed
  // before it (how many depends on the machine's load, so it is not asserted).
  const run = await runCli(['--seed', '7', '--deadline', '10', '--max-rps', '2']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(2);
  expect(run.stdout).toMatch(
    /^verdict: INCOMPLETE — .*the suite's deadline of 10 s passed \(counted from the start of the run, preflight included\)$/m,
  );
  expectIncompleteReport(run.reportDir, /deadline of 10 s passed/, false);
});

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGQUIT', 131],
] as const) {
  test(`${signal} ends the run INCOMPLETE with the checks judged so far, all five reports and exit ${code}`, async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
    // As `npm run conformance` starts it (package.json): node with tsx's loader, no launcher between.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'cli/conformance.ts'),
        '--seed',
        '7',
        '--max-rps',
        '20',
        '--report-dir',
        reportDir,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // Interrupted once a few checks have been judged.
      if (!sent && (stdout.match(/^ {2}pass /gm)?.length ?? 0) >= 3) {
        sent = true;
        child.kill(signal);
      }
    });
    const exit = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(sent).toBe(true);
    expect(stderr).toBe('');
    expect(exit).toBe(code);
    expect(stdout).toMatch(new RegExp(`^verdict: INCOMPLETE — .*the run was interrupted \\(${signal}\\)$`, 'm'));
    expectIncompleteReport(reportDir, new RegExp(`interrupted \\(${signal}\\)`));
    // A clean stop leaves no lock behind.
    expect(readdirSync(reportDir)).not.toContain(LOCK);
  });
}

/** The process ids under `pid` (children, grandchildren...), from /proc. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) if (parent === p) out.push(child), walk(child);
  };
  walk(pid);
  return out;
}

function aliveNow(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm run conformance` with its output gathered; resolves its exit once `passes` checks passed and `act` ran. */
async function npmRun(
  reportDir: string,
  options: { detached: boolean },
  act: (npm: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; left: number[] }> {
  const npm = spawn(
    'npm',
    ['run', '--silent', 'conformance', '--', '--seed', '7', '--max-rps', '20', '--report-dir', reportDir],
    {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.detached,
    },
  );
  let stdout = '';
  let stderr = '';
  let acted = false;
  let tree: number[] = [];
  npm.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  npm.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (!acted && (stdout.match(/^ {2}pass /gm)?.length ?? 0) >= 3) {
      acted = true;
      // The command, Playwright's runner and its worker: what must not outlive the run.
      tree = descendants(npm.pid!);
      act(npm);
    }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    const timer = setTimeout(() => npm.kill('SIGKILL'), 90_000);
    npm.on('exit', (c, sig) => {
      clearTimeout(timer);
      resolve([c, sig]);
    });
  });
  expect(acted, stdout + stderr).toBe(true);
  expect(tree.length).toBeGreaterThanOrEqual(2);
  // Whatever ran under npm has ended within a few seconds.
  for (let i = 0; i < 40 && tree.some(aliveNow); i++) await new Promise((r) => setTimeout(r, 100));
  return { code, signal, stdout, stderr, left: tree.filter(aliveNow) };
}

// Under `npm run conformance` a stop reaches the command itself (package.json execs node
// with tsx's loader: no launcher to cut it short, no shell left between npm and the command).
test('npm run conformance: SIGTERM to npm alone ends the run with its report and exit 143, and nothing runs on', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
  const run = await npmRun(reportDir, { detached: false }, (npm) => npm.kill('SIGTERM'));
  expect(run.left).toEqual([]);
  expect(run.code, run.stderr).toBe(143);
  expect(run.stdout).toMatch(/^verdict: INCOMPLETE — .*the run was interrupted \(SIGTERM\)$/m);
  expectIncompleteReport(reportDir, /interrupted \(SIGTERM\)/);
  expect(readdirSync(reportDir)).not.toContain(LOCK);
});

test('npm run conformance: Ctrl-C to the process group ends the run with its report and exit 130, and nothing runs on', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
  const run = await npmRun(reportDir, { detached: true }, (npm) => process.kill(-npm.pid!, 'SIGINT'));
  expect(run.left).toEqual([]);
  expect(run.code, run.stderr).toBe(130);
  expectIncompleteReport(reportDir, /interrupted \(SIGINT\)/);
  expect(readdirSync(reportDir)).not.toContain(LOCK);
});

test('a command killed with SIGKILL (the OOM killer) takes its Playwright runner and worker with it', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
  const run = await npmRun(reportDir, { detached: false }, (npm) => {
    const command = descendants(npm.pid!)[0]!;
    process.kill(command, 'SIGKILL');
  });
  // npm reports its child's death by SIGKILL; the runner and the worker under it ended by themselves.
  expect(run.left).toEqual([]);
  expect(run.code).not.toBe(0);
});

test('the dry run warns when its estimate exceeds the deadline', async () => {
  const run = await runCli(['--dry-run', '--max-rps', '1', '--deadline', '120']);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^the estimate is over the deadline of 120 s: .*INCOMPLETE/m);
  const fits = await runCli(['--dry-run', '--max-rps', '1', '--deadline', '3600']);
  expect(fits.stdout).not.toMatch(/over the deadline/);
});

test('--grep matching nothing is one line, exit 2, and replaces the previous report with its error', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
  // The previous report: written in-process (the same files as the command writes), what matters is the second run.
  const first = await runConformance({ seed: 1, grep: 'files.limit.bounds', reportDir });
  expect(first.verdict).toBe('conformant');
  const run = await runCli(['--grep', 'no-such-check-xyz'], { reportDir });
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([
    'conformance: no check matches --grep "no-such-check-xyz": nothing ran',
  ]);
  expect(run.stdout).not.toMatch(/No tests found/);
  // No conformant report.json stays beside an exit 2: the error's summary.md and junit.xml say it.
  expect(existsSync(join(reportDir, 'report.json'))).toBe(false);
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('no check matches --grep');
  expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
});

test('a --grep selects in the command the checks Playwright selects (the engine starts them before Playwright lists them)', async () => {
  // Case-insensitive like Playwright's, over id and tags.
  const run = await runCli(['--seed', '3', '--grep', 'FILES.LIMIT|@Property']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const ran = run.report!.checks.filter((c) => c.reason !== 'not selected in this run').map((c) => c.checkId);
  const lines = [...run.stdout.matchAll(/^ {2}(?:pass |FAIL |ERROR|skip ) (\S+)/gm)].map((m) => m[1]);
  expect(ran.length).toBeGreaterThan(3);
  expect([...lines].sort()).toEqual([...ran].sort());
});

test('an unwritable report directory is one line and exit 2 at once, never a spin (--report-dir /proc/nope)', async () => {
  const run = await runCli([], { reportDir: '/proc/nope', timeoutMs: 20_000 });
  expect(run.code).toBe(2);
  // A spin would be killed at the bound (exit code null, not 2).
  expect(run.stderr.trim().split('\n')).toEqual([
    'conformance: report directory /proc/nope: ENOENT on mkdir of /proc/nope',
  ]);
});

test('runConformance: the same deadline, the same INCOMPLETE verdict and reason, and all five reports', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
  // 2 requests/s: the preflight takes about a second of the 5, the checks far more.
  const report = await runConformance({ seed: 7, deadlineS: 5, maxRps: 2, reportDir });
  expect(report.verdict).toBe('incomplete');
  expectIncompleteReport(
    reportDir,
    /the suite's deadline of 5 s passed \(counted from the start of the run, preflight included\)/,
    false,
  );
});

// --deadline bounds the whole run. Each preflight request is bounded by --timeout, and all of them by
// the deadline: a target answering each just within its time-out does not hold the command past it.
test('a target answering the preflight slowly: at --deadline, one line, exit 2, nothing judged, no earlier report left', async () => {
  const { startHostile, writeTarget, HOSTILE_KEYS, OK_JSON, stderrLines } = await import('./support/hostile-server.ts');
  // Each answer after 2.5 s, within --timeout 10000: the preflight's requests go together, so its answers
  // come after the deadline (--deadline 2 here, 1 below) however fast the command started.
  const server = await startHostile({ kind: 'delay', ms: 2_500, then: OK_JSON });
  try {
    const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
    // An earlier run's report in the suite's directory (its marker lists it), CONFORMANT.
    writeFileSync(join(reportDir, 'report.json'), JSON.stringify({ verdict: 'conformant' }));
    writeFileSync(join(reportDir, MARKER), 'entries: ["report.json"]\n');
    const file = writeTarget(server.baseUrl);
    const run = await runCli(['--target', file, '--timeout', '10000', '--deadline', '2'], {
      env: { ...HOSTILE_KEYS },
      reportDir,
      timeoutMs: 30_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(stderrLines(run)).toEqual([
      "conformance: the suite's deadline of 2 s passed during the preflight (counted from the start of the run): nothing judged, no report written",
    ]);
    expect(existsSync(join(reportDir, 'report.json')), 'the earlier CONFORMANT report is gone').toBe(false);
    // The preflight's three requests, sent together, and no check's: the deadline passed first.
    expect(server.received.length).toBeLessThanOrEqual(3);
    // runConformance: the same line, as its error.
    const sent = server.received.length;
    const error = await runConformance({
      target: file,
      timeoutMs: 10_000,
      deadlineS: 1,
      env: { ...HOSTILE_KEYS },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConformanceRunError);
    expect((error as Error).message).toBe(
      "the suite's deadline of 1 s passed during the preflight (counted from the start of the run): nothing judged, no report written",
    );
    expect(server.received.length - sent).toBeLessThanOrEqual(3);
  } finally {
    await server.close();
  }
});

// A run interrupted before its first check leaves no earlier report that reads better than
// the truth: a CONFORMANT report of a previous run in the same directory is gone once the run stops.
test("SIGTERM while the preflight waits: exit 143, one line, and the previous run's report is no longer there", async () => {
  const { startHostile, writeTarget, HOSTILE_KEYS } = await import('./support/hostile-server.ts');
  const reportDir = mkdtempSync(join(tmpdir(), 'report-'));
  // The earlier CONFORMANT report: written in-process (the same files as the command writes).
  const before = await runConformance({ seed: 3, grep: '^general\\.', reportDir });
  expect(before.verdict).toBe('conformant');
  expect(existsSync(join(reportDir, 'report.json'))).toBe(true);
  const server = await startHostile({ kind: 'hang' });
  try {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
        join(ROOT, 'cli/conformance.ts'),
        '--target',
        writeTarget(server.baseUrl),
        '--timeout',
        '30000',
        '--report-dir',
        reportDir,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, ...HOSTILE_KEYS, FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The preflight's first request has reached the target: the run is past its start.
    for (let i = 0; i < 200 && server.received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(server.received.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(143);
    expect(stderr.split('\n').filter((l) => l.trim()).length, stderr).toBe(1);
    expect(existsSync(join(reportDir, 'report.json')), 'the earlier CONFORMANT report is gone').toBe(false);
  } finally {
    await server.close();
  }
});

// The request in flight at the deadline does not run on to its answer or its --timeout: it is cut when
// the deadline passes (the hostile server sees the client go away).
test('the deadline cuts the request in flight: it does not run on to its answer or its time-out', async () => {
  const { startHostile, writeTarget, HOSTILE_KEYS, OK_JSON } = await import('./support/hostile-server.ts');
  // The preflight's three answers at once, every later one after 20 s (within --timeout 30000).
  const server = await startHostile((_req, index) =>
    index < 3 ? OK_JSON : { kind: 'delay', ms: 20_000, then: OK_JSON },
  );
  try {
    const run = await runCli(['--target', writeTarget(server.baseUrl), '--timeout', '30000', '--deadline', '8'], {
      env: { ...HOSTILE_KEYS },
      timeoutMs: 60_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.report?.run.incomplete).toMatch(/the suite's deadline of 8 s passed/);
    // The request in flight at the deadline was closed by the suite, not answered.
    expect(server.sent.filter((s) => s.clientClosed).length).toBeGreaterThan(0);
    expect(server.sent.filter((s) => s.ended)).toHaveLength(3);
    // Every request after the preflight was cut by the suite, none ran on to its answer (20 s, within
    // --timeout 30000): the run ended at its deadline, not at 8 + 20 s.
    expect(server.sent.slice(3).map((s) => ({ clientClosed: s.clientClosed, ended: s.ended }))).toEqual(
      server.sent.slice(3).map(() => ({ clientClosed: true, ended: false })),
    );
  } finally {
    await server.close();
  }
});
