import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { OUTCOME_ATTACHMENT, type CheckOutcome } from '../core/check.ts';
import { RequestLog } from '../core/request-log.ts';
import { readRunSettings } from '../core/run-settings.ts';
import { Mask } from '../core/mask.ts';
import { loadTarget, secretsOf, viewOf } from '../core/target.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { buildReport } from './build-report.ts';
import { writeReportFiles } from './write-report.ts';

/**
 * Turns the Playwright results of a conformance run into the conformance report. A test without an
 * outcome attachment (killed by a time-out, or broken before its probe ran) is a suite-side `error`.
 */
export default class ConformanceReporter implements Reporter {
  private readonly outcomes = new Map<string, CheckOutcome>();
  private shard: string | undefined;
  /** Checks this run was to run (a shard's share, --grep's selection): the ones a deadline can cut. */
  private readonly planned = new Set<string>();

  onBegin(config: FullConfig, suite: Suite): void {
    // A shard's own report covers its checks only; a merged one (cli/merge.ts) says how many it joins.
    if (config.shard && config.shard.total > 1 && !process.env['CONFORMANCE_MERGED_SHARDS']) this.shard = `${config.shard.current}/${config.shard.total}`;
    for (const test of suite.allTests()) this.planned.add(test.annotations.find((a) => a.type === 'check')?.description ?? test.title);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const checkId = test.annotations.find((a) => a.type === 'check')?.description ?? test.title;
    const attachment = result.attachments.find((a) => a.name === OUTCOME_ATTACHMENT);
    if (attachment?.body) {
      this.outcomes.set(checkId, JSON.parse(attachment.body.toString('utf8')) as CheckOutcome);
      return;
    }
    const reason = result.status === 'timedOut' ? `check did not finish within its time limit (${test.timeout} ms)` : (result.error?.message?.split('\n')[0] ?? `ended ${result.status}`);
    this.outcomes.set(checkId, { checkId, status: result.status === 'skipped' ? 'skip' : 'error', reason, failures: [], observations: [], requests: 0, seed: 0 });
  }

  onEnd(result: FullResult): void {
    const settings = readRunSettings();
    const target = loadTarget(settings.targetFile, settings);
    if (result.status === 'timedout') {
      for (const c of ALL_CHECKS) if (this.planned.has(c.id) && !this.outcomes.has(c.id)) this.outcomes.set(c.id, { checkId: c.id, status: 'error', reason: 'the run deadline passed before this check ran', failures: [], observations: [], requests: 0, seed: 0 });
    }
    const report = buildReport({
      checks: ALL_CHECKS,
      outcomes: this.outcomes,
      target: { baseUrl: target.baseUrl, file: viewOf(target) },
      suite: { name: 'conformance-suite', version: process.env['CONFORMANCE_SUITE_VERSION'] ?? '0.0.0', commit: process.env['CONFORMANCE_SUITE_COMMIT'] ?? 'unknown' },
      run: {
        seed: settings.seed,
        // Playwright's own start and duration: in a merge they span the shards, not the merge itself.
        startedAt: result.startTime.toISOString(),
        durationMs: Math.round(result.duration),
        numRuns: settings.numRuns,
        maxRequests: settings.maxRequests,
        failOn: settings.failOn,
        replay: process.env['CONFORMANCE_REPLAY_COMMAND'] ?? '',
        ...(this.shard ? { shard: this.shard } : {}),
        ...(process.env['CONFORMANCE_MERGED_SHARDS'] ? { mergedShards: Number(process.env['CONFORMANCE_MERGED_SHARDS']) } : {}),
      },
      requestLog: RequestLog.read(settings.runDir),
    });
    mkdirSync(settings.reportDir, { recursive: true });
    writeReportFiles(report, settings.reportDir, { mask: new Mask(secretsOf(target)) });
    writeFileSync(join(settings.runDir, 'verdict'), report.verdict);
  }

  printsToStdio(): boolean {
    return false;
  }
}
