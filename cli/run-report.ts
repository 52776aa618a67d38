import type { CheckOutcome } from '../core/check/check.ts';
import { proxyShownFor } from '../core/http/proxy.ts';
import type { Engine } from '../core/run/engine.ts';
import { keyHostsOf } from '../core/target/allowed-hosts.ts';
import { baseUrlsOf, viewOf } from '../core/target/target.ts';
import { buildReport } from '../reports/build-report.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { listingCoverage } from '../suites/support/listing-coverage.ts';
import type { PreparedRun } from './prepare-run.ts';
import { runWarnings } from './run-warnings.ts';

/** The report of a run from its engine's outcomes: the same for a Playwright run and an in-process one. */
export function reportOfRun(
  run: PreparedRun,
  engine: Engine,
  outcomes: ReadonlyMap<string, CheckOutcome>,
  meta: { startedAt: Date; shard?: string },
): ConformanceReport {
  return buildReport({
    checks: ALL_CHECKS,
    outcomes,
    target: { baseUrl: run.target.baseUrl, file: viewOf(run.target) },
    suite: run.suite,
    run: {
      seed: run.settings.seed,
      startedAt: meta.startedAt.toISOString(),
      durationMs: Date.now() - meta.startedAt.getTime(),
      numRuns: run.settings.numRuns,
      maxRequests: run.settings.maxRequests,
      failOn: run.settings.failOn,
      replay: run.settings.replay,
      keysSentTo: keyHostsOf(baseUrlsOf(run.target).map((b) => b.url)),
      requestsSaved: engine.state.requestsSaved,
      concurrency: engine.concurrency,
      rateLimitedWaitMs: Math.round(engine.state.rateLimitedWaitMs),
      coverage: listingCoverage(engine.notes, viewOf(run.target), run.settings, {
        requests: engine.state.log.entries.length + (run.settings.requestsBefore ?? 0),
        ...(engine.state.stopped ? { stopped: engine.state.stopped } : {}),
      }),
      ...(meta.shard ? { shard: meta.shard } : {}),
      ...(proxyShownFor(run.target.baseUrl) ? { proxy: proxyShownFor(run.target.baseUrl) } : {}),
      ...(runWarnings(run.target).length ? { warnings: runWarnings(run.target) } : {}),
    },
    requestLog: engine.state.log.entries,
    requestsBefore: run.settings.requestsBefore,
    ...(run.received ? { received: run.received } : {}),
    requireAll: run.settings.requireAll,
    ...(engine.state.stopped ? { stopped: engine.state.stopped } : {}),
  });
}
