/**
 * One measured run of the suite by one of the commands a user types (bench/commands.ts), timed from
 * spawn to exit: against a target the bench serves itself (a reference started here with a variant's
 * options, or a failing target) through a target file, exactly as a user runs it against a deployment,
 * or with no target at all (the embedded reference, the default run).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../reports/model.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { RequestCapture, type CapturedRequest } from './capture.ts';
import { suiteArgv, type SuiteCommand } from './commands.ts';
import { startProbe, timelineOf, type Timeline } from './probe.ts';
import { ROOT, SEED } from './root.ts';
import { measure, type Measured } from './spawn.ts';

/** Phases of one run, ms since spawn, from the CLI's own output lines and the server's receive times. */
export interface SuitePhases {
  /** The CLI printed `target:` (node + tsx + the CLI's imports + the target file read). */
  cliReadyMs?: number;
  /** The first preflight request reached the server. */
  preflightMs?: number;
  /** The first request of a check reached the server (the engine runs in Playwright's runner). */
  firstCheckRequestMs?: number;
  /** The last request reached the server. */
  lastRequestMs?: number;
  /** The CLI printed `verdict:` (Playwright exited, report written). */
  verdictMs?: number;
  exitMs: number;
  /** The engine's own duration (report.json run.durationMs: global set-up to report). */
  playwrightMs?: number;
}

export interface SuiteRun {
  command: SuiteCommand;
  exitCode: number | null;
  timedOut: boolean;
  verdict: string;
  wallMs: number;
  cpuS?: number;
  maxRssSingleKb?: number;
  peakTreeKb?: number;
  peakProcesses?: number;
  /** Playwright worker processes seen during the run (a failing test that throws costs one more). */
  workers?: number;
  /** report.json run.requests */
  requests: number;
  /** Checks in the report: the suite under test is the working tree, which others may change mid-bench. */
  checks: number;
  /** Requests the server received (a cross-check of the report's count; the embedded reference's are not seen). */
  received: number;
  failedChecks: string[];
  failedRequirements: string[];
  /** The failed requirements of level MUST (the ones that gate). */
  failedMust: string[];
  erroredChecks: string[];
  /** First failing check in run order, requests sent up to and including it, and when its FAIL line appeared. */
  firstFailure?: { checkId: string; requests: number; ms: number };
  phases: SuitePhases;
  /** Probed runs only: when each part of the run happened (bench/probe.ts). */
  timeline?: Timeline;
  /** The last line the command wrote to stderr (what a refused run says). */
  stderrLine?: string;
  /** Not serialised: the floor replays these. */
  captured: CapturedRequest[];
  problem?: string;
}

const CHECK_LINE = /^\s+(pass|FAIL|ERROR|skip)\s+(?:(?:MUST|SHOULD|UNSPECIFIED)\s+)?(\S+)/;

/** How a run is read: a refused run (exit 2, one line) writes no report and is not a problem. */
interface ReadOptions {
  command: SuiteCommand;
  expectReport: boolean;
}

/** Turns a measured CLI run, its report directory and the server-side captures into a SuiteRun. */
function toSuiteRun(m: Measured, reportDir: string, captured: CapturedRequest[], how: ReadOptions): SuiteRun {
  const rel = (t: number | undefined) => (t === undefined ? undefined : t - m.startedAt);
  let report: ConformanceReport | undefined;
  let problem: string | undefined;
  const stderrLine = m.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn')).pop()?.slice(0, 300);
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport;
  } catch {
    if (how.expectReport || m.timedOut) problem = `no report.json (exit ${m.code}${m.timedOut ? ', killed at the cap' : ''}): ${m.stderr.trim().split('\n').slice(-3).join(' / ')}`;
  }
  const lineAt = (re: RegExp) => m.stdout.find((l) => re.test(l.line))?.t;
  const order: Array<{ t: number; status: string; id: string }> = [];
  for (const l of m.stdout) {
    const match = CHECK_LINE.exec(l.line);
    if (match) order.push({ t: l.t, status: match[1]!, id: match[2]! });
  }
  const byId = new Map((report?.checks ?? []).map((c) => [c.checkId, c]));
  // Requests before the checks': the preflight's (what the report counts beyond the checks' own).
  const preflight = report ? Math.max(0, report.run.requests - report.checks.reduce((s, c) => s + c.requests, 0)) : 0;
  let firstFailure: SuiteRun['firstFailure'];
  if (report) {
    // Requests up to and including the first failing check, in the order the console printed them
    // (one engine, one worker: the order they ran).
    let n = preflight;
    for (const o of order) {
      n += byId.get(o.id)?.requests ?? 0;
      if (o.status === 'FAIL') {
        firstFailure = { checkId: o.id, requests: n, ms: o.t };
        break;
      }
    }
  }
  const phases: SuitePhases = { exitMs: m.wallMs };
  const set = <K extends keyof SuitePhases>(k: K, v: SuitePhases[K] | undefined) => {
    if (v !== undefined) phases[k] = v;
  };
  set('cliReadyMs', lineAt(/^target: /));
  set('preflightMs', rel(captured[0]?.t));
  set('firstCheckRequestMs', rel(captured[preflight]?.t));
  set('lastRequestMs', rel(captured[captured.length - 1]?.t));
  set('verdictMs', lineAt(/^verdict: /));
  set('playwrightMs', report?.run.durationMs);
  const run: SuiteRun = {
    command: how.command,
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
    failedMust: (report?.requirements ?? []).filter((r) => r.status === 'fail' && r.level === 'MUST').map((r) => r.id),
    phases,
    captured,
    ...(firstFailure ? { firstFailure } : {}),
    ...(stderrLine ? { stderrLine } : {}),
    ...(problem ? { problem } : {}),
  };
  for (const k of ['cpuS', 'maxRssSingleKb', 'peakTreeKb', 'peakProcesses', 'workers'] as const) if (m[k] !== undefined) run[k] = m[k];
  return run;
}

/** A target the bench serves itself, described by a target file like any user's. */
export interface ServedTarget {
  baseUrl: string;
  /** A second listener the target file names (the reference's regional host). */
  regionalBaseUrl?: string;
  yaml: string;
  env: Record<string, string>;
}

export interface RunOptions {
  capMs: number;
  seed?: number;
  /** Record the run's timeline (bench/probe.ts): a preload in every Node process of the run. */
  probe?: boolean;
  /** A refused run (the preflight's exit 2) is what is measured: no report expected. */
  refused?: boolean;
}

/** The suite by `command` with `args` and a fresh report directory; `captureUrls` name the listeners to record. */
async function runCommand(command: SuiteCommand, args: readonly string[], env: Record<string, string>, opts: RunOptions, captureUrls: readonly string[] = []): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-suite-'));
  const reportDir = join(dir, 'report');
  const capture = captureUrls.length ? RequestCapture.forBaseUrls(captureUrls) : undefined;
  const probe = opts.probe ? startProbe() : undefined;
  try {
    const argv = suiteArgv(command, [...args, '--seed', String(opts.seed ?? SEED), '--report-dir', reportDir]);
    const m = await measure(argv.file, argv.args, { cwd: ROOT, env: { ...env, ...probe?.env, FORCE_COLOR: '0' }, capMs: opts.capMs });
    capture?.stop();
    const run = toSuiteRun(m, reportDir, capture?.requests ?? [], { command, expectReport: !opts.refused });
    if (probe) {
      let startedAt: string | undefined;
      try {
        startedAt = (JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport).run.startedAt;
      } catch {
        // no report: the timeline stops where the run stopped
      }
      run.timeline = timelineOf(m, probe.collect(), startedAt);
    }
    return run;
  } finally {
    capture?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The suite against a target served by the bench, through a target file (`--target`). */
export async function runSuiteOn(command: SuiteCommand, target: ServedTarget, opts: RunOptions): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-target-'));
  const targetFile = join(dir, 'target.yaml');
  writeFileSync(targetFile, target.yaml);
  try {
    return await runCommand(command, ['--target', targetFile], target.env, opts, [target.baseUrl, ...(target.regionalBaseUrl ? [target.regionalBaseUrl] : [])]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The suite against a reference started here with `options` (kept open for the floor until close()). */
export async function runSuite(command: SuiteCommand, options: Partial<ReferenceOptions>, opts: RunOptions): Promise<SuiteRun & { baseUrl: string; close(): Promise<void> }> {
  const server = await startReference(options);
  try {
    const run = await runSuiteOn(command, { baseUrl: server.baseUrl, regionalBaseUrl: server.regionalBaseUrl, yaml: referenceTargetYaml(server), env: referenceKeyEnv(server) }, opts);
    return { ...run, baseUrl: server.baseUrl, close: () => server.close() };
  } catch (e) {
    await server.close();
    throw e;
  }
}

/**
 * The default run (`npm run conformance` with no target): the reference embedded in the CLI process.
 * Its server is out of the bench's reach, so there are no server-side timestamps (a probed run sees
 * the requests from the sending side).
 */
export async function runEmbedded(command: SuiteCommand, opts: RunOptions): Promise<SuiteRun> {
  const run = await runCommand(command, [], {}, opts);
  run.received = run.requests;
  return run;
}

/** `--help`: the start-up of a command alone (node, the launcher, the CLI's imports). */
export async function runHelp(command: SuiteCommand, capMs: number): Promise<Measured> {
  const argv = suiteArgv(command, ['--help']);
  return measure(argv.file, argv.args, { cwd: ROOT, env: { FORCE_COLOR: '0' }, capMs });
}
