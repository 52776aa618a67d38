import { join } from 'node:path';
import type { CheckOutcome } from '../../core/check/check.ts';
import { secretsOf } from '../../core/text/mask.ts';
import { Mask } from '../../core/text/mask.ts';
import type { ConformanceReport } from '../../reports/model.ts';
import { writeReportFiles } from '../../reports/write-report.ts';
import { reportWithEvidence } from '../run-evidence.ts';
import { reportOfRun } from '../run-report.ts';
import type { RunHost } from './run-host.ts';

/** How long the report waits for a check still running when the run ends (its request's time-out bounds it); past it, the checks that finished keep their outcomes. */
const DRAIN_MS = 15_000;

/**
 * Ends the run: every check Playwright selected has an outcome (one cut by the deadline is said so),
 * the report is built from the engine's outcomes and written, masked, into the report directory.
 */
export async function finishRun(host: RunHost): Promise<ConformanceReport> {
  const { engine, run } = host;
  // A run that ends with checks still queued (deadline, interruption) sends nothing more: they end as not sent.
  if (engine.pending > 0) engine.state.stopped ??= 'the run ended (deadline or interruption) before this check ran';
  const outcomes = new Map<string, CheckOutcome>(
    await Promise.race([
      engine.finished(),
      new Promise<ReadonlyMap<string, CheckOutcome>>((r) =>
        setTimeout(() => r(engine.settledOutcomes), DRAIN_MS).unref(),
      ),
    ]),
  );
  for (const id of host.selection ?? []) {
    if (!outcomes.has(id))
      outcomes.set(id, {
        checkId: id,
        status: 'error',
        cause: 'run-limit',
        limit: engine.state.deadlinePassed ? 'deadline' : 'stopped',
        reason: 'the run ended before this check ran (deadline or interruption)',
        failures: [],
        observations: [],
        requests: 0,
        seed: 0,
      });
  }
  const { report, evidence } = reportWithEvidence(
    host.run,
    reportOfRun(host.run, engine, outcomes, {
      startedAt: host.startedAt,
      ...(host.shard ? { shard: host.shard } : {}),
    }),
    engine.client.mask,
  );
  writeReportFiles(report, run.settings.reportDir, {
    ...(evidence !== undefined ? { evidence } : {}),
    mask: new Mask(secretsOf(run.target)),
    force: run.settings.force,
    ...(run.settings.reportDirOutside ? { outside: true } : {}),
  });
  if (process.env['CONFORMANCE_KEEP_RUN_DIR'] === '1')
    engine.state.log.writeTo(join(run.settings.runDir, 'requests.jsonl'));
  return report;
}
