import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { proxyShownFor } from '../core/http/proxy.ts';
import { Mask, secretsOf } from '../core/text/mask.ts';
import type { RunSettings } from '../core/run/run-settings.ts';
import { keyHostsOf } from '../core/target/allowed-hosts.ts';
import { baseUrlsOf, TargetFileError, type Target } from '../core/target/target.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { consoleSummary } from '../reports/console-summary.ts';
import { EXIT_CODE } from '../reports/format.ts';
import { githubAnnotations } from '../reports/github-annotations.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { writeShardReport } from '../reports/shards.ts';
import { prepareReportDir, ReportDirError } from '../reports/write-report.ts';
import { type CliOptions, UsageError } from './args.ts';
import { endRunner } from './end-runner.ts';
import { die, Fatal } from './fatal.ts';
import { Recorder } from '../core/http/recorder.ts';
import { preflight } from './preflight.ts';
import { preflightEvidence } from './run-evidence.ts';
import { reportDirOptions, suiteInfo, type PreparedRun } from './prepare-run.ts';
import { runTarget } from './run-target.ts';
import { EXIT_OF_SIGNAL, type StopSignal } from './stop-signals.ts';
import { runWarnings } from './run-warnings.ts';

/**
 * The command's run once Playwright's runner is booting (cli/conformance.ts starts it first, and loads
 * this module after: reading a target file needs the YAML parser and the target's schema compiled).
 * This process reads the target, loads the checks, makes the preflight and runs the engine while the
 * runner starts. The runner gets the listing when the engine's socket opens (before the preflight) and
 * may start its worker during the preflight, but a test's question waits until the run begins
 * (RunHost.begin), so no check line prints, and no check request is sent, before the preflight passed.
 * What Playwright itself says while loading (a --shard that holds no test, say) may print before.
 */
export async function runCommand(c: {
  opts: CliOptions;
  settings: RunSettings;
  playwright: ChildProcess;
  socketPath: string;
  started: number;
  /**
   * Called as the engine takes over the run (its own handling of the stop signals begins); false
   * when a signal came first, whose handler (cli/conformance.ts) clears the report and exits.
   */
  engineStarts: () => boolean;
}): Promise<number> {
  const { opts, settings, playwright, socketPath } = c;
  let stopReference: (() => Promise<void>) | undefined;
  try {
    let run: PreparedRun;
    let mask: Mask | undefined;
    let selection: string[] | undefined;
    let runEngine: typeof import('./run-engine.ts').runEngine;
    let host: import('./playwright/run-host.ts').RunHost | undefined;
    try {
      const { target, stop } = await targetOf(settings);
      stopReference = stop;
      mask = new Mask(secretsOf(target));
      sayStart(target, settings.seed, mask, !!opts.target);
      run = { settings, target, suite: suiteInfo(), embedded: !opts.target, evidence: new Recorder() };
      const engineModule = await import('./run-engine.ts');
      runEngine = engineModule.runEngine;
      // The selection the command can compute itself (no --shard: Playwright alone knows a shard's
      // split): a --grep that selects nothing is an exit 2 like any run that cannot be made, and its
      // error replaces the previous report (cli/conformance.ts).
      const { selectionOf, replayPathProblem } = await import('./selection.ts');
      selection = opts.shard ? undefined : selectionOf(opts.grep);
      const replayProblem = replayPathProblem(opts.replayPath, selection);
      if (replayProblem) die(replayProblem);
      if (selection?.length === 0) die(`no check matches --grep ${JSON.stringify(opts.grep)}: nothing ran`);
      clearReportDir(settings);
      // The socket opens before the preflight: Playwright's runner gets the listing while it runs.
      host = await engineModule.openHost(run, socketPath);
      if (opts.waitForS !== undefined) await waitFor(target, opts.waitForS, settings, mask);
      const pre = await preflight(target, settings, run.evidence);
      if (pre.fatal) throw new Fatal(maskedLine(pre.fatal, mask), preflightEvidence(run, mask));
      settings.requestsBefore = pre.requests;
      // The host holds this run: its report judges the preflight's responses as a check's.
      run.received = [pre.received];
    } catch (e) {
      await endRunner(playwright);
      await host?.close();
      rmSync(dirname(socketPath), { recursive: true, force: true });
      throw maskedError(e, mask);
    }
    if (!c.engineStarts()) {
      // The signal's handler ends the process once the previous report is cleared: nothing is sent.
      playwright.kill('SIGKILL');
      await host.close();
      return await new Promise<never>(() => {});
    }
    try {
      const ended = await runEngine(host, playwright, selection);
      return finish(run, ended.report, mask, performance.now() - c.started, ended.signal);
    } catch (e) {
      // A report directory that turned unwritable during the run is its one line too.
      if (e instanceof ReportDirError) die(e.message);
      throw maskedError(e, mask);
    }
  } finally {
    await stopReference?.();
  }
}

/**
 * An unexpected error's message may quote the key or what the target sent: masked before the command
 * prints it or writes it into the error report (a Fatal line is masked where it is made).
 */
function maskedError(e: unknown, mask: Mask | undefined): unknown {
  if (!mask || e instanceof Fatal || !(e instanceof Error)) return e;
  return new Error(mask.text(e.message));
}

/** `--dry-run`: the target read and the plan printed, nothing sent. */
export async function dryRun(opts: CliOptions, settings: RunSettings): Promise<number> {
  const { target, stop } = await targetOf(settings);
  try {
    sayStart(target, settings.seed, new Mask(secretsOf(target)), !!opts.target);
    // Loaded only here: the plan needs every check declaration (a real run loads them while Playwright boots).
    const { printPlan } = await import('./plan.ts');
    if (opts.waitForS !== undefined)
      process.stdout.write(
        `--wait-for ${opts.waitForS}: the run first waits up to ${opts.waitForS} s for the target to answer (counted in the deadline)\n`,
      );
    printPlan(target, settings, opts.grep);
    return 0;
  } finally {
    await stop?.();
  }
}

/** --wait-for: the target answers before the preflight, or the run ends in one line (exit 2). */
async function waitFor(target: Target, waitS: number, settings: RunSettings, mask: Mask): Promise<void> {
  say(`waiting up to ${waitS} s for ${target.baseUrl} to answer (--wait-for)`, mask);
  // Loaded only when asked for: the run's start-up is what every other run pays.
  const { waitForTarget } = await import('./wait-for.ts');
  const waited = await waitForTarget(target.baseUrl, waitS, settings, target.headers);
  if (waited.fatal) die(maskedLine(waited.fatal, mask));
  say(
    `target answered (HTTP ${waited.status}) after ${(waited.waitedMs / 1000).toFixed(1)} s, ${waited.attempts} attempt(s)`,
    mask,
  );
}

/** The previous report's files, cleared before anything is judged (a refused directory is one line, exit 2). */
export function clearReportDir(settings: RunSettings): void {
  try {
    prepareReportDir(settings.reportDir, reportDirOptions(settings));
  } catch (e) {
    if (e instanceof ReportDirError) die(e.message);
    throw e;
  }
}

/** The run's target (a careless target file is one line, exit 2: rule "Bad input exits 2"). */
async function targetOf(settings: RunSettings): Promise<{ target: Target; stop?: () => Promise<void> }> {
  try {
    return await runTarget(settings);
  } catch (e) {
    // A --header whose variable is not set is bad input like a careless target file: one line, exit 2.
    if (e instanceof TargetFileError || e instanceof UsageError) die(e.message);
    throw e;
  }
}

/** A line that may hold what the target sent: masked, and terminal control shown escaped. */
function maskedLine(line: string, mask: Mask): string {
  return terminalSafe(mask.text(line));
}

function say(line: string, mask: Mask): void {
  process.stdout.write(`${maskedLine(line, mask)}\n`);
}

function sayStart(target: Target, seed: number, mask: Mask, fromFile: boolean): void {
  say(fromFile ? `target: ${target.baseUrl}` : `target: embedded reference at ${target.baseUrl}`, mask);
  say(`keys go only to: ${keyHostsOf(baseUrlsOf(target).map((b) => b.url)).join(', ')}`, mask);
  const proxy = proxyShownFor(target.baseUrl);
  if (proxy) say(`proxy: ${proxy} (HTTPS_PROXY / HTTP_PROXY; NO_PROXY for hosts reached directly)`, mask);
  say(`seed: ${seed}`, mask);
  for (const warning of runWarnings(target)) say(`warning: ${warning}`, mask);
}

function finish(
  run: PreparedRun,
  report: ConformanceReport,
  mask: Mask,
  elapsedMs: number,
  signal: StopSignal | undefined,
): number {
  // Nothing judged is no verdict: a shard with no check must not read as CONFORMANT.
  if (!signal && report.checks.every((c) => c.cause === 'not-selected'))
    die('no check ran: the selection (--grep, --shard) holds none of the declared checks');
  // A shard keeps its report beside Playwright's blob (written after Playwright ended: the blob
  // reporter empties blob/ when it writes), for `conformance merge` (cli/merge.ts).
  if (report.run.shard)
    writeShardReport(report, run.settings.reportDir, report.run.shard, mask, run.settings.reportDirOutside === true);
  process.stdout.write(
    consoleSummary(report, run.settings.reportDir, elapsedMs)
      .split('\n')
      .map((l) => maskedLine(l, mask))
      .join('\n'),
  );
  // In GitHub Actions, one annotation per failing requirement (reports/github-annotations.ts), masked
  // like every line the command prints, control characters shown escaped.
  if (process.env['GITHUB_ACTIONS'] === 'true')
    for (const line of githubAnnotations(report, (s) => mask.text(s))) process.stdout.write(`${terminalSafe(line)}\n`);
  // A signal that cut checks short leaves an INCOMPLETE report and the signal's exit code. One that came
  // after every check had finished cut nothing: the report is the whole run's, and so is the exit code.
  if (signal && report.verdict === 'incomplete') return EXIT_OF_SIGNAL[signal];
  return EXIT_CODE[report.verdict];
}
