/**
 * One measured run of the suite: the real CLI (`node node_modules/tsx/dist/cli.mjs cli/conformance.ts
 * --target FILE --seed N`) against a reference started here with the variant's options, exactly as a
 * user runs it against a deployment, timed from spawn to exit.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../reports/model.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { RequestCapture, type CapturedRequest } from './capture.ts';
import { measure, type Measured } from './spawn.ts';

export const ROOT = new URL('..', import.meta.url).pathname;
export const TSX_CLI = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
export const SEED = 1234;

/** Phases of one run, ms since spawn, from the CLI's own output lines and the server's receive times. */
export interface SuitePhases {
  /** The CLI printed `target:` (node + tsx + the CLI's imports + the target file read). */
  cliReadyMs?: number;
  /** The preflight request reached the server (the CLI is about to spawn Playwright). */
  preflightMs?: number;
  /** The first request of a check reached the server (Playwright runner and worker are up). */
  firstCheckRequestMs?: number;
  /** The last request reached the server. */
  lastRequestMs?: number;
  /** The CLI printed `verdict:` (Playwright exited, report written). */
  verdictMs?: number;
  exitMs: number;
  /** Playwright's own duration of the test run (report.json run.durationMs). */
  playwrightMs?: number;
  /** FAIL and ERROR lines: Playwright replaces its worker after each failed test. */
  workerRestarts: number;
}

export interface SuiteRun {
  exitCode: number | null;
  timedOut: boolean;
  verdict: string;
  wallMs: number;
  cpuS?: number;
  maxRssSingleKb?: number;
  peakTreeKb?: number;
  peakProcesses?: number;
  /** report.json run.requests */
  requests: number;
  /** Checks in the report: the suite under test is the working tree, which others may change mid-bench. */
  checks: number;
  /** Requests the reference received (a cross-check of the report's count). */
  received: number;
  failedChecks: string[];
  failedRequirements: string[];
  erroredChecks: string[];
  /** First failing check in run order, requests sent up to and including it, and when its FAIL line appeared. */
  firstFailure?: { checkId: string; requests: number; ms: number };
  phases: SuitePhases;
  /** Not serialised: the floor replays these. */
  captured: CapturedRequest[];
  problem?: string;
}

const CHECK_LINE = /^\s+(pass|FAIL|ERROR|skip)\s+(\S+)/;

/** Turns a measured CLI run, its report directory and the server-side captures into a SuiteRun. */
function toSuiteRun(m: Measured, reportDir: string, captured: CapturedRequest[]): SuiteRun {
  const rel = (t: number | undefined) => (t === undefined ? undefined : t - m.startedAt);
  let report: ConformanceReport | undefined;
  let problem: string | undefined;
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport;
  } catch {
    problem = `no report.json (exit ${m.code}${m.timedOut ? ', killed at the cap' : ''}): ${m.stderr.trim().split('\n').slice(-3).join(' / ')}`;
  }
  const lineAt = (re: RegExp) => m.stdout.find((l) => re.test(l.line))?.t;
  const order: Array<{ t: number; status: string; id: string }> = [];
  for (const l of m.stdout) {
    const match = CHECK_LINE.exec(l.line);
    if (match) order.push({ t: l.t, status: match[1]!, id: match[2]! });
  }
  const byId = new Map((report?.checks ?? []).map((c) => [c.checkId, c]));
  let firstFailure: SuiteRun['firstFailure'];
  if (report) {
    // Requests up to and including the first failing check: the preflight's (what the report counts
    // beyond the checks' own) plus each check's `requests`, in the order the console printed them
    // (one worker: the order they ran).
    const checkSum = report.checks.reduce((s, c) => s + c.requests, 0);
    let n = Math.max(0, report.run.requests - checkSum);
    for (const o of order) {
      n += byId.get(o.id)?.requests ?? 0;
      if (o.status === 'FAIL') {
        firstFailure = { checkId: o.id, requests: n, ms: o.t };
        break;
      }
    }
  }
  const phases: SuitePhases = {
    exitMs: m.wallMs,
    workerRestarts: order.filter((o) => o.status === 'FAIL' || o.status === 'ERROR').length,
  };
  const set = <K extends keyof SuitePhases>(k: K, v: SuitePhases[K] | undefined) => {
    if (v !== undefined) phases[k] = v;
  };
  set('cliReadyMs', lineAt(/^target: /));
  set('preflightMs', rel(captured[0]?.t));
  set('firstCheckRequestMs', rel(captured[1]?.t));
  set('lastRequestMs', rel(captured[captured.length - 1]?.t));
  set('verdictMs', lineAt(/^verdict: /));
  set('playwrightMs', report?.run.durationMs);
  const run: SuiteRun = {
    exitCode: m.code,
    timedOut: m.timedOut,
    verdict: report?.verdict ?? 'none',
    wallMs: m.wallMs,
    requests: report?.run.requests ?? 0,
    checks: report?.checks.length ?? 0,
    received: captured.length,
    failedChecks: (report?.checks ?? []).filter((c) => c.status === 'fail').map((c) => c.checkId),
    erroredChecks: (report?.checks ?? []).filter((c) => c.status === 'error').map((c) => c.checkId),
    failedRequirements: (report?.requirements ?? []).filter((r) => r.status === 'fail').map((r) => r.id),
    phases,
    captured,
    ...(firstFailure ? { firstFailure } : {}),
    ...(problem ? { problem } : {}),
  };
  for (const k of ['cpuS', 'maxRssSingleKb', 'peakTreeKb', 'peakProcesses'] as const) if (m[k] !== undefined) run[k] = m[k];
  return run;
}

/** The suite against a reference started here with `options`, described by a target file. */
export async function runSuite(options: Partial<ReferenceOptions>, opts: { capMs: number; seed?: number }): Promise<SuiteRun & { baseUrl: string; close(): Promise<void> }> {
  const server = await startReference(options);
  const capture = RequestCapture.forBaseUrl(server.baseUrl);
  const dir = mkdtempSync(join(tmpdir(), 'bench-suite-'));
  const targetFile = join(dir, 'target.yaml');
  const reportDir = join(dir, 'report');
  writeFileSync(targetFile, referenceTargetYaml(server));
  try {
    const m = await measure(process.execPath, [TSX_CLI, 'cli/conformance.ts', '--target', targetFile, '--seed', String(opts.seed ?? SEED), '--report-dir', reportDir], {
      cwd: ROOT,
      env: { ...referenceKeyEnv(server), FORCE_COLOR: '0' },
      capMs: opts.capMs,
    });
    capture.stop();
    return { ...toSuiteRun(m, reportDir, capture.requests), baseUrl: server.baseUrl, close: () => server.close() };
  } catch (e) {
    capture.stop();
    await server.close();
    throw e;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run conformance` as it is: no target, the reference embedded in the CLI process. Its server
 * is out of the bench's reach, so there are no server-side timestamps (and no floor of its own).
 */
export async function runEmbedded(opts: { capMs: number; seed?: number }): Promise<Omit<SuiteRun, 'captured'>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
  try {
    const m = await measure(process.execPath, [TSX_CLI, 'cli/conformance.ts', '--seed', String(opts.seed ?? SEED), '--report-dir', dir], { cwd: ROOT, env: { FORCE_COLOR: '0' }, capMs: opts.capMs });
    const { captured: _none, ...run } = toSuiteRun(m, dir, []);
    run.received = run.requests;
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
