import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../core/run/engine.ts';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { concurrencyOf, deadlineLeftMs, deadlineReason, type RunSettings } from '../core/run/run-settings.ts';
import { grepText } from '../core/check/tags.ts';
import { recordingTransport, Recorder } from '../core/http/recorder.ts';
import { NodeTransport, PlaywrightTransport, type Transport } from '../core/http/transport.ts';
import type { Target } from '../core/target/target.ts';
import { preflightEvidence, reportWithEvidence } from './run-evidence.ts';
import type { EvidenceText } from '../reports/har.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { replaceWithErrorReport } from '../reports/error-report.ts';
import { prepareReportDir, writeReportFiles } from '../reports/write-report.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { parseCli } from './args.ts';
import { type ApiOptions, declOf, OPTION_NAMES } from './options.ts';
import { Fatal } from './fatal.ts';
import { preflight } from './preflight.ts';
import { reportDirOptions, settingsOf, suiteInfo } from './prepare-run.ts';
import { reportOfRun } from './run-report.ts';
import { runTarget } from './run-target.ts';
import { replayPathProblem } from './selection.ts';
import { waitForTarget } from './wait-for.ts';

export type { ConformanceReport } from '../reports/model.ts';

/**
 * What `runConformance` takes: the command line's options, by the names of cli/options.ts (`key`):
 * every option the table gives to the API (a value as the option's check returns it, a flag as a
 * boolean), and the environment the target file's `${VAR}` keys are read from (default process.env).
 */
export type ConformanceOptions = ApiOptions & { env?: NodeJS.ProcessEnv };

/**
 * What an offline run (`conformance judge`, cli/judge.ts) puts in place of the network: the target
 * described by the recording and a transport answering from it. Not an option of the command line.
 */
export interface OfflineRun {
  target: Target;
  transport: Transport;
  /** Handed the run's mask once the engine holds it: requests are told apart by their keys' placeholders. */
  useMask?: (mask: Mask) => void;
  /**
   * The recorded run's selection by check id (a shard's, a --grep's), in place of a grep: as many ids as
   * the run selected, past what one --grep may hold.
   */
  selected?: readonly string[];
}

/** A run that could not be made (bad option, bad target file, unreachable target, rejected key): exit 2's cases. */
export class ConformanceRunError extends Error {
  override readonly name = 'ConformanceRunError';

  /**
   * `evidence`: what the run sent before it stopped (the preflight's requests and answers), written
   * as evidence.har beside the error's report, as the command line writes it ("No green without evidence").
   */
  constructor(
    message: string,
    readonly evidence?: EvidenceText,
  ) {
    super(message);
  }
}

/**
 * Runs the suite in this process and resolves to the report, the same model as report.json
 * (reports/report.schema.json). The checks, their engine and the verdict are the command line's;
 * only Playwright's process around them is left out. Options are checked as the command line
 * checks them: a bad one rejects with ConformanceRunError.
 */
export async function runConformance(
  options: ConformanceOptions = {},
  offline?: OfflineRun,
): Promise<ConformanceReport> {
  const argv = toArgv(options);
  let opts;
  try {
    opts = parseCli(argv);
  } catch (e) {
    throw new ConformanceRunError((e as Error).message);
  }
  let settings: RunSettings;
  try {
    settings = settingsOf(opts, '', undefined, options.env ?? process.env);
  } catch (e) {
    if (e instanceof Fatal) throw new ConformanceRunError(e.message);
    throw e;
  }
  const runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  settings.runDir = runDir;
  let stop: (() => Promise<void>) | undefined;
  try {
    const ran = offline ? { target: offline.target } : await runTarget(settings, options.env);
    const target = ran.target;
    stop = ran.stop;
    if (options.reportDir) prepareReportDir(settings.reportDir, reportDirOptions(settings));
    if (opts.waitForS !== undefined) {
      const waited = await waitForTarget(target.baseUrl, opts.waitForS, settings, target.headers);
      if (waited.fatal) throw new ConformanceRunError(new Mask(secretsOf(target)).text(waited.fatal));
    }
    const evidence = new Recorder();
    const pre = await preflight(target, settings, evidence, offline?.transport);
    if (pre.fatal) {
      const mask = new Mask(secretsOf(target));
      const refused = { settings, target, suite: suiteInfo(), embedded: !opts.target, evidence };
      throw new ConformanceRunError(mask.text(pre.fatal), preflightEvidence(refused, mask));
    }
    settings.requestsBefore = pre.requests;
    const grep = opts.grep ? new RegExp(opts.grep) : undefined;
    const chosen = offline?.selected ? new Set(offline.selected) : undefined;
    const selected = ALL_CHECKS.filter((c) => (chosen ? chosen.has(c.id) : !grep || grep.test(grepText(c)))).map(
      (c) => c.id,
    );
    if (selected.length === 0)
      throw new ConformanceRunError('no check ran: the selection (grep) holds none of the declared checks');
    const replayProblem = replayPathProblem(opts.replayPath, selected);
    if (replayProblem) throw new ConformanceRunError(replayProblem);
    const limits = {
      timeoutMs: settings.requestTimeoutMs,
      bodyCapBytes: settings.bodyCapBytes,
      connections: concurrencyOf(settings),
    };
    // As the command's run host chooses (cli/playwright/run-host.ts): --transport playwright is Playwright's request context.
    const sent =
      offline?.transport ??
      (settings.transport === 'playwright'
        ? new PlaywrightTransport(
            await (await import('@playwright/test')).request.newContext({ maxRedirects: 0 }),
            limits,
          )
        : new NodeTransport(limits));
    const transport = recordingTransport(sent, evidence);
    const engine = new Engine({ settings, target, checks: ALL_CHECKS, judges: RESPONSE_JUDGES, transport });
    offline?.useMask?.(engine.client.mask);
    const startedAt = new Date();
    // What is left of the run's deadline after the preflight, in the command line's words (cli/playwright/run-host.ts).
    const deadline = setTimeout(() => {
      engine.state.stopped ??= deadlineReason(settings);
      engine.state.deadlinePassed = true;
    }, deadlineLeftMs(settings));
    try {
      engine.plan(selected);
      const run = { settings, target, suite: suiteInfo(), embedded: !opts.target, received: [pre.received], evidence };
      const { report, evidence: har } = reportWithEvidence(
        run,
        reportOfRun(run, engine, await engine.finished(), { startedAt }),
        engine.client.mask,
      );
      if (options.reportDir)
        writeReportFiles(report, settings.reportDir, {
          ...(har !== undefined ? { evidence: har } : {}),
          mask: new Mask(secretsOf(target)),
          ...reportDirOptions(settings),
        });
      return report;
    } finally {
      clearTimeout(deadline);
      await transport.close();
    }
  } catch (e) {
    const runError =
      e instanceof ConformanceRunError
        ? e
        : e instanceof Error && /^(TargetFileError|ReportDirError|UsageError)$/.test(e.name)
          ? new ConformanceRunError(e.message)
          : undefined;
    // As on the command line: a run that could not be made replaces the previous report with its error
    // (a report directory that refused the run is left as it is).
    if (runError && options.reportDir && !(e instanceof Error && e.name === 'ReportDirError'))
      replaceWithErrorReport(settings.reportDir, runError.message, 2, {
        ...reportDirOptions(settings),
        ...(runError.evidence !== undefined ? { evidence: runError.evidence } : {}),
      });
    throw runError ?? e;
  } finally {
    await stop?.();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** The options as the command line's words, so both are checked by one parser (cli/args.ts). */
export function toArgv(o: ConformanceOptions): string[] {
  const out: string[] = [];
  const given = o as Record<string, unknown>;
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    const v = given[d.key];
    if (d.api !== true || v === undefined || v === false) continue;
    if (d.kind === 'flag') out.push(`--${name}`);
    else for (const one of Array.isArray(v) ? v : [v]) out.push(`--${name}`, String(one));
  }
  return out;
}
