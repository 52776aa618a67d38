import type { ChildProcess } from 'node:child_process';
import { deadlineLeftMs } from '../core/run/run-settings.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { finishRun } from './playwright/finish-run.ts';
import { RunHost } from './playwright/run-host.ts';
import type { PreparedRun } from './prepare-run.ts';
import { onStop, type StopSignal } from './stop-signals.ts';

/** How long Playwright may take to end after the run stopped before it is killed (its reporters only print). */
const PLAYWRIGHT_GRACE_MS = 5_000;
/** Beyond the suite's deadline, Playwright's runner is killed whatever it does (its globalTimeout is later still). */
const BACKSTOP_MS = 30_000;

export interface EngineRunEnd {
  report: ConformanceReport;
  /** The signal that stopped the run, if one did (SIGHUP too when the parent process ended). */
  signal?: StopSignal;
}

/** The run's host, its socket open, its run not begun (the command's preflight comes after: RunHost.open). */
export function openHost(run: PreparedRun, socketPath: string): Promise<RunHost> {
  return RunHost.open(
    run,
    run.settings.transport === 'playwright'
      ? async () => (await import('@playwright/test')).request.newContext({ maxRedirects: 0 })
      : undefined,
    socketPath,
  );
}

/**
 * Runs the engine in the command's own process while Playwright's runner boots and reports: the
 * checks of a selection the command computed start at once; otherwise (a --shard) they start when the
 * runner's host reporter hands over Playwright's selection. The command writes the report from the
 * engine's state whatever Playwright does: when the suite's deadline passes or a stop arrives (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, the parent process's end: cli/stop-signals.ts),
 * the run sends nothing more, the checks that ran keep their outcomes, the rest are cut short, and the
 * five report files are written.
 */
export async function runEngine(
  host: RunHost,
  playwright: ChildProcess,
  selection: string[] | undefined,
): Promise<EngineRunEnd> {
  const { run } = host;
  let signal: EngineRunEnd['signal'];
  const exited = new Promise<void>((resolve) => {
    if (playwright.exitCode !== null || playwright.signalCode !== null) resolve();
    else playwright.once('exit', () => resolve());
  });
  const offStop = onStop((s, why) => {
    if (signal) return;
    signal = s;
    host.stop(`the run was interrupted (${why})`);
    playwright.kill('SIGTERM');
  });
  // The report is the engine's, written once.
  let written: Promise<ConformanceReport> | undefined;
  const finish = () => (written ??= finishRun(host));
  try {
    host.begin();
    if (selection) {
      host.plan(selection);
      // Every selected check has its outcome: the report is written while Playwright's runner reports
      // the last tests and ends (a shard's selection is Playwright's own, known only from its runner).
      // After the outcomes' own writes to the worker's connection: writing the report holds this
      // process for a while, and the worker's last tests wait for those outcomes.
      host.engine
        .finished()
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(finish)
        .catch(() => undefined);
    }
    const backstop = setTimeout(() => playwright.kill('SIGKILL'), deadlineLeftMs(run.settings) + BACKSTOP_MS);
    await exited;
    clearTimeout(backstop);
    // Playwright ended (or was stopped): whatever it did, the checks it never asked for are not run.
    if (host.engine.pending > 0 && !signal) await Promise.race([host.engine.finished(), graceOf(PLAYWRIGHT_GRACE_MS)]);
    const report = await finish();
    return { report, ...(signal ? { signal } : {}) };
  } finally {
    offStop();
    if (playwright.exitCode === null && playwright.signalCode === null) playwright.kill('SIGKILL');
    await host.close();
  }
}

function graceOf(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
