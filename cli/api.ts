import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../core/run/engine.ts';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { concurrencyOf, deadlineLeftMs, deadlineReason } from '../core/run/run-settings.ts';
import { grepText } from '../core/check/tags.ts';
import { NodeTransport } from '../core/http/transport.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { replaceWithErrorReport } from '../reports/error-report.ts';
import { prepareReportDir, writeReportFiles } from '../reports/write-report.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { parseCli } from './args.ts';
import { preflight } from './preflight.ts';
import { settingsOf, suiteInfo } from './prepare-run.ts';
import { reportOfRun } from './run-report.ts';
import { runTarget } from './run-target.ts';
import { waitForTarget } from './wait-for.ts';

export type { ConformanceReport } from '../reports/model.ts';

/** What `runConformance` takes: the command line's options, by name. */
export interface ConformanceOptions {
  /** Target file (YAML); without it, the embedded reference implementation. */
  target?: string;
  seed?: number;
  /** A regular expression over check ids and tags (`@must`, `@files`), like --grep. */
  grep?: string;
  numRuns?: number;
  maxRequests?: number;
  maxRps?: number;
  /** Checks in flight together at most, like --concurrency (default 8; 1: one request at a time). */
  concurrency?: number;
  timeoutMs?: number;
  deadlineS?: number;
  /** Wait up to this many seconds for the target to answer before the preflight, like --wait-for. */
  waitForS?: number;
  failOn?: 'must' | 'should';
  requireAll?: boolean;
  allowLiteralKeys?: boolean;
  allowInsecure?: boolean;
  /** Also write the report files there (report.json, junit.xml, summary.md, report.html, badge.svg). */
  reportDir?: string;
  force?: boolean;
  /** Environment the target file's `${VAR}` keys are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A run that could not be made (bad option, bad target file, unreachable target, rejected key): exit 2's cases. */
export class ConformanceRunError extends Error {
  override readonly name = 'ConformanceRunError';
}

/**
 * Runs the suite in this process and resolves to the report, the same model as report.json
 * (reports/report.schema.json). The checks, their engine and the verdict are the command line's;
 * only Playwright's process around them is left out. Options are checked as the command line
 * checks them: a bad one rejects with ConformanceRunError.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const argv = toArgv(options);
  let opts;
  try {
    opts = parseCli(argv);
  } catch (e) {
    throw new ConformanceRunError((e as Error).message);
  }
  const runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const settings = settingsOf(opts, runDir);
  let stop: (() => Promise<void>) | undefined;
  try {
    const ran = await runTarget(settings, options.env);
    const target = ran.target;
    stop = ran.stop;
    if (options.reportDir) prepareReportDir(settings.reportDir, { force: settings.force });
    if (opts.waitForS !== undefined) {
      const waited = await waitForTarget(target.baseUrl, opts.waitForS, settings);
      if (waited.fatal) throw new ConformanceRunError(new Mask(secretsOf(target)).text(waited.fatal));
    }
    const pre = await preflight(target, settings);
    if (pre.fatal) throw new ConformanceRunError(new Mask(secretsOf(target)).text(pre.fatal));
    settings.requestsBefore = pre.requests;
    const grep = opts.grep ? new RegExp(opts.grep) : undefined;
    const selected = ALL_CHECKS.filter((c) => !grep || grep.test(grepText(c))).map((c) => c.id);
    if (selected.length === 0)
      throw new ConformanceRunError('no check ran: the selection (grep) holds none of the declared checks');
    const transport = new NodeTransport({
      timeoutMs: settings.requestTimeoutMs,
      bodyCapBytes: settings.bodyCapBytes,
      connections: concurrencyOf(settings),
    });
    const engine = new Engine({ settings, target, checks: ALL_CHECKS, judges: RESPONSE_JUDGES, transport });
    const startedAt = new Date();
    // What is left of the run's deadline after the preflight, in the command line's words (cli/playwright/run-host.ts).
    const deadline = setTimeout(() => {
      engine.state.stopped ??= deadlineReason(settings);
      engine.state.deadlinePassed = true;
    }, deadlineLeftMs(settings));
    try {
      engine.plan(selected);
      const report = reportOfRun(
        { settings, target, suite: suiteInfo(), embedded: !opts.target, received: [pre.received] },
        engine,
        await engine.finished(),
        { startedAt },
      );
      if (options.reportDir)
        writeReportFiles(report, settings.reportDir, { mask: new Mask(secretsOf(target)), force: settings.force });
      return report;
    } finally {
      clearTimeout(deadline);
      await transport.close();
    }
  } catch (e) {
    const runError =
      e instanceof ConformanceRunError
        ? e
        : e instanceof Error && /^(TargetFileError|ReportDirError)$/.test(e.name)
          ? new ConformanceRunError(e.message)
          : undefined;
    // As on the command line: a run that could not be made replaces the previous report with its error
    // (a report directory that refused the run is left as it is).
    if (runError && options.reportDir && !(e instanceof Error && e.name === 'ReportDirError'))
      replaceWithErrorReport(settings.reportDir, runError.message, 2, { force: settings.force });
    throw runError ?? e;
  } finally {
    await stop?.();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** The options as the command line's words, so both are checked by one parser (cli/args.ts). */
function toArgv(o: ConformanceOptions): string[] {
  const out: string[] = [];
  const flag = (name: string, v: string | number | undefined) => {
    if (v !== undefined) out.push(`--${name}`, String(v));
  };
  flag('target', o.target);
  flag('seed', o.seed);
  flag('grep', o.grep);
  flag('num-runs', o.numRuns);
  flag('max-requests', o.maxRequests);
  flag('max-rps', o.maxRps);
  flag('concurrency', o.concurrency);
  flag('timeout', o.timeoutMs);
  flag('deadline', o.deadlineS);
  flag('wait-for', o.waitForS);
  flag('fail-on', o.failOn);
  flag('report-dir', o.reportDir);
  if (o.requireAll) out.push('--require-all');
  if (o.allowLiteralKeys) out.push('--allow-literal-keys');
  if (o.allowInsecure) out.push('--allow-insecure');
  if (o.force) out.push('--force');
  return out;
}
