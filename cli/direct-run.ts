import type { CheckOutcome } from '../core/check/check.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { TargetFileError } from '../core/target/target.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { parseCli, UsageError } from './args.ts';
import { Fatal } from './fatal.ts';
import { Recorder } from '../core/http/recorder.ts';
import { preflight } from './preflight.ts';
import { reportDirOptions, suiteInfo, settingsOf, type PreparedRun } from './prepare-run.ts';
import { runTarget } from './run-target.ts';
import { replaceWithErrorReport } from '../reports/error-report.ts';
import { prepareReportDir, ReportDirError } from '../reports/write-report.ts';

/** A direct run that cannot be made: its one line, as the command line prints it (rule "Bad input exits 2"). */
export class DirectRunError extends Error {}

/**
 * A run prepared for `npx playwright test` started directly: the target file named by
 * CONFORMANCE_TARGET (keys from the environment, as with the command line), else the embedded
 * reference, with the command line's defaults; CONFORMANCE_SEED fixes the seed, CONFORMANCE_FAIL_ON
 * (must, should) is --fail-on, CONFORMANCE_REPORT_DIR is --report-dir (two runs at once in one clone
 * need two directories: a report directory is locked while a run writes it), CONFORMANCE_ALLOW_HOSTS
 * names the hosts the keys may go to (as with the command line). The preflight runs here,
 * before any test, as on the command line: a rejected key, a wrong base URL or a bad target file is one
 * line (DirectRunError), never 100 failed tests.
 */
export async function prepareDirectRun(): Promise<{ run: PreparedRun; stop?: () => Promise<void> }> {
  const file = process.env['CONFORMANCE_TARGET'];
  const failOn = process.env['CONFORMANCE_FAIL_ON'];
  const reportDir = process.env['CONFORMANCE_REPORT_DIR'];
  let opts;
  try {
    opts = parseCli([
      ...(file ? ['--target', file] : []),
      ...(failOn ? ['--fail-on', failOn] : []),
      ...(reportDir ? ['--report-dir', reportDir] : []),
    ]);
  } catch (e) {
    if (e instanceof UsageError)
      throw new DirectRunError(`${e.message} (CONFORMANCE_TARGET, CONFORMANCE_FAIL_ON, CONFORMANCE_REPORT_DIR)`);
    throw e;
  }
  const seedText = process.env['CONFORMANCE_SEED'];
  let settings;
  try {
    settings = settingsOf(opts, '', seedText && /^\d+$/.test(seedText) ? Number(seedText) >>> 0 : undefined);
  } catch (e) {
    if (e instanceof Fatal) throw new DirectRunError(e.message);
    throw e;
  }
  settings.runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  // An exit 2 before the first test replaces the previous report with its error, as on the command line.
  const failed = (message: string): DirectRunError => {
    replaceWithErrorReport(settings.reportDir, message, 2, reportDirOptions(settings));
    return new DirectRunError(message);
  };
  let ran: Awaited<ReturnType<typeof runTarget>>;
  try {
    ran = await runTarget(settings);
  } catch (e) {
    if (e instanceof TargetFileError) throw failed(e.message);
    throw e;
  }
  const { target, stop } = ran;
  const mask = new Mask(secretsOf(target));
  let received: CheckOutcome;
  const evidence = new Recorder();
  try {
    prepareReportDir(settings.reportDir, reportDirOptions(settings));
    const pre = await preflight(target, settings, evidence);
    if (pre.fatal) throw failed(terminalSafe(mask.text(pre.fatal)));
    settings.requestsBefore = pre.requests;
    received = pre.received;
  } catch (e) {
    await stop?.();
    if (e instanceof ReportDirError) throw new DirectRunError(e.message);
    throw e;
  }
  return {
    run: { settings, target, suite: suiteInfo(), embedded: !file, received: [received], evidence },
    ...(stop ? { stop } : {}),
  };
}
