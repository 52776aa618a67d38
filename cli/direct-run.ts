import type { CheckOutcome } from '../core/check/check.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { TargetFileError } from '../core/target/target.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { parseCli, UsageError, type CliOptions } from './args.ts';
import { declOf, OPTION_NAMES, OPTIONS } from './options.ts';
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
 * The options a Playwright run started directly takes, from the environment variables the option
 * table names (cli/options.ts `directEnv`: CONFORMANCE_TARGET, CONFORMANCE_SEED, CONFORMANCE_FAIL_ON,
 * CONFORMANCE_REPORT_DIR, CONFORMANCE_MAX_FAILURES, CONFORMANCE_HEADERS one header a line), checked as
 * the command line checks them: a bad value is the option's one line naming its variable
 * (DirectRunError), never a value dropped for a default (rule "Bad input exits 2"). An empty variable is unset.
 */
export function directOptions(env: NodeJS.ProcessEnv = process.env): CliOptions {
  const argv: string[] = [];
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    if (d.kind !== 'value' || !d.directEnv) continue;
    const set = env[d.directEnv];
    if (set === undefined || set === '') continue;
    const values = d.multiple ? set.split(/\r?\n/).filter((v) => v.trim() !== '') : [set];
    // `--name=value`: a value that starts with `-` stays the option's value.
    const words = values.map((v) => `--${name}=${v}`);
    try {
      parseCli(words);
    } catch (e) {
      if (e instanceof UsageError) throw new DirectRunError(`${e.message} (${d.directEnv})`);
      throw e;
    }
    argv.push(...words);
  }
  try {
    return parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) throw new DirectRunError(e.message);
    throw e;
  }
}

/**
 * A run prepared for `npx playwright test` started directly, with the options of directOptions: the
 * target file named by CONFORMANCE_TARGET (keys and `${VAR}` headers from the environment, as with
 * the command line), else the embedded reference, with the command line's defaults otherwise
 * (CONFORMANCE_REPORT_DIR: two runs at once in one clone need two directories, a report directory is
 * locked while a run writes it); CONFORMANCE_ALLOW_HOSTS names the hosts the keys may go to (as with
 * the command line). The preflight runs here, before any test, as on the command line: a rejected key,
 * a wrong base URL or a bad target file is one line (DirectRunError), never 100 failed tests.
 */
export async function prepareDirectRun(): Promise<{ run: PreparedRun; stop?: () => Promise<void> }> {
  const opts = directOptions();
  // Read once, into the run's target: the worker Playwright starts next sends no request and needs no
  // header value, so a value written literally is not handed on in its environment (as on the command
  // line: cli/prepare-run.ts runnerEnvOf).
  delete process.env[OPTIONS.header.directEnv];
  const file = opts.target;
  let settings;
  try {
    settings = settingsOf(opts, '');
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
    // A header's ${VAR} not set (cli/header-option.ts resolveHeaders).
    if (e instanceof UsageError) throw failed(`${e.message} (${OPTIONS.header.directEnv})`);
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
