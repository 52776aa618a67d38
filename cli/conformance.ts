import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mask } from '../core/mask.ts';
import { secretsOf, TargetFileError, type Target } from '../core/target.ts';
import { terminalSafe } from '../core/terminal-text.ts';
import { consoleSummary } from '../reports/console-summary.ts';
import { EXIT_CODE } from '../reports/format.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { writeShardReport } from '../reports/shards.ts';
import { prepareReportDir, ReportDirError } from '../reports/write-report.ts';
import { parseCli, USAGE, UsageError, type CliOptions } from './args.ts';
import { preflight } from './preflight.ts';
import { engineSocketPath, ENGINE_SOCKET_ENV } from '../core/engine-socket.ts';
import { suiteModule } from './suite-files.ts';
import { ROOT, RUN_ENV, settingsOf, suiteInfo, type PreparedRun } from './prepare-run.ts';
import { runTarget } from './run-target.ts';


/** A run that could not be made: one line on stderr and exit 2, never a stack trace (principle 6). */
class Fatal extends Error {}

function die(message: string): never {
  throw new Fatal(message);
}

async function main(): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) die(`${e.message} (see --help)`);
    throw e;
  }
  if (opts.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }

  const started = performance.now();
  const runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  let stopReference: (() => Promise<void>) | undefined;
  try {
    const settings = settingsOf(opts, runDir);
    let target: Target;
    try {
      let stop: (() => Promise<void>) | undefined;
      ({ target, stop } = await runTarget(settings));
      stopReference = stop;
    } catch (e) {
      if (e instanceof TargetFileError) die(e.message);
      throw e;
    }
    const mask = new Mask(secretsOf(target));
    const say = (line: string) => process.stdout.write(maskedLine(line, mask) + '\n');
    say(opts.target ? `target: ${target.baseUrl}` : `target: embedded reference at ${target.baseUrl}`);
    say(`seed: ${settings.seed}`);

    if (opts.dryRun) {
      // Loaded only here: the plan needs every check declaration (a real run loads them while Playwright boots).
      const { printPlan } = await import('./plan.ts');
      printPlan(target, settings, opts.grep);
      return 0;
    }

    const run: PreparedRun = { settings, target, suite: suiteInfo(), embedded: !opts.target };
    // Playwright's runner boots in its own process from here on, while this process loads the checks,
    // makes the preflight and starts the engine: the checks run during Playwright's start-up, and its
    // tests only report their outcomes (cli/run-engine.ts). Nothing of Playwright has printed yet if
    // the run ends before it starts.
    const socketPath = engineSocketPath();
    const playwright = startPlaywright(run, opts, socketPath);
    // Stopped before the engine starts (loading, preflight): nothing was judged, Playwright goes with it.
    const early = (signal: 'SIGINT' | 'SIGTERM') => () => {
      playwright.kill('SIGKILL');
      // No earlier run's report may stay to read better than the truth: its files are cleared (a
      // directory the suite may not write into is left alone).
      try {
        prepareReportDir(settings.reportDir, { force: settings.force });
      } catch {
        // Refused (foreign files, a link): nothing of the suite's is there to clear.
      }
      process.stderr.write(`conformance: ${signal} before the first check: nothing judged, no report written (the previous report in ${terminalSafe(settings.reportDir)} was cleared)\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    const earlyInt = early('SIGINT');
    const earlyTerm = early('SIGTERM');
    process.once('SIGINT', earlyInt);
    process.once('SIGTERM', earlyTerm);
    let selection: string[] | undefined;
    let runEngine: typeof import('./run-engine.ts').runEngine;
    try {
      ({ runEngine } = await import('./run-engine.ts'));
      // The selection the command can compute itself (no --shard: Playwright alone knows a shard's
      // split): a --grep that selects nothing leaves the previous report as it was.
      const { selectionOf, replayPathProblem } = await import('./selection.ts');
      selection = opts.shard ? undefined : selectionOf(opts.grep);
      const replayProblem = replayPathProblem(opts.replayPath, selection);
      if (replayProblem) die(replayProblem);
      if (selection?.length === 0) die(`no check matches --grep ${JSON.stringify(opts.grep)}: nothing ran, and the previous report in ${settings.reportDir} is left as it was`);
      try {
        prepareReportDir(settings.reportDir, { force: settings.force });
      } catch (e) {
        if (e instanceof ReportDirError) die(e.message);
        throw e;
      }
      const pre = await preflight(target, settings);
      if (pre.fatal) die(maskedLine(pre.fatal, mask));
      for (const warning of pre.warnings) say(warning);
      settings.requestsBefore = pre.requests;
    } catch (e) {
      playwright.kill('SIGKILL');
      throw e;
    } finally {
      process.off('SIGINT', earlyInt);
      process.off('SIGTERM', earlyTerm);
    }
    const ended = await runEngine(run, socketPath, playwright, selection);
    return finish(run, ended.report, mask, performance.now() - started, ended.signal);
  } finally {
    await stopReference?.();
    // CONFORMANCE_KEEP_RUN_DIR=1 keeps the request log and Playwright's output (for audits: test/safety).
    if (process.env['CONFORMANCE_KEEP_RUN_DIR'] !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

/** A line that may hold what the target sent: masked, and terminal control shown escaped. */
function maskedLine(line: string, mask: Mask): string {
  return terminalSafe(mask.text(line));
}

/**
 * Starts Playwright's runner on the repository's configuration: the run travels as one JSON value and
 * the engine's socket in the environment; the reporters print, the command judges.
 */
function startPlaywright(run: PreparedRun, opts: CliOptions, socketPath: string): ChildProcess {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const reporters = [suiteModule('cli/playwright/host-reporter'), suiteModule('cli/playwright/console-reporter')];
  if (opts.shard) reporters.push('blob');
  const args = [cli, 'test', '-c', suiteModule('playwright.config'), `--reporter=${reporters.join(',')}`];
  if (opts.grep) args.push('--grep', opts.grep);
  if (opts.shard) args.push('--shard', opts.shard);
  return spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      [RUN_ENV]: JSON.stringify(run),
      [ENGINE_SOCKET_ENV]: socketPath,
      ...(opts.shard ? { PLAYWRIGHT_BLOB_OUTPUT_DIR: join(run.settings.reportDir, 'blob'), PLAYWRIGHT_BLOB_OUTPUT_NAME: `report-${opts.shard.replace('/', '-of-')}.zip` } : {}),
      FORCE_COLOR: '0',
    },
  });
}

function finish(run: PreparedRun, report: ConformanceReport, mask: Mask, elapsedMs: number, signal: 'SIGINT' | 'SIGTERM' | undefined): number {
  // Nothing judged is no verdict: a shard with no check must not read as CONFORMANT.
  if (!signal && report.checks.every((c) => c.reason === 'not selected in this run')) die('no check ran: the selection (--grep, --shard) holds none of the declared checks');
  // A shard keeps its report beside Playwright's blob (written after Playwright ended: the blob
  // reporter empties blob/ when it writes), for `conformance merge` (cli/merge.ts).
  if (report.run.shard) writeShardReport(report, run.settings.reportDir, report.run.shard, mask);
  process.stdout.write(consoleSummary(report, run.settings.reportDir, elapsedMs).split('\n').map((l) => maskedLine(l, mask)).join('\n'));
  if (signal) return signal === 'SIGINT' ? 130 : 143;
  return EXIT_CODE[report.verdict];
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    // A report directory that turned unwritable during the run is its one line too.
    const message = e instanceof Fatal || e instanceof ReportDirError ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`conformance: ${terminalSafe(message)}\n`);
    process.exit(2);
  },
);
