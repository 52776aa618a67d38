import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { OUTCOME_ATTACHMENT, type CheckOutcome } from '../../core/check.ts';
import { currentHost } from './run-host.ts';

/**
 * The run's own reporter, first among the reporters. It hands the engine Playwright's selection as
 * soon as it is known (--grep, --shard), so the checks run while the worker starts. And it makes a
 * failing check's result failed for every reporter after it and for the exit code, without the test
 * throwing: in Playwright a test that throws costs a new worker process (about 0.6 s each), and a
 * target that fails every check would cost a minute of worker start-ups.
 */
export default class HostReporter implements Reporter {
  onBegin(config: FullConfig, suite: Suite): void {
    const host = currentHost();
    if (!host) return;
    host.reporterActive = true;
    if (config.shard && config.shard.total > 1) host.shard = `${config.shard.current}/${config.shard.total}`;
    host.selection = suite.allTests().map((t) => t.annotations.find((a) => a.type === 'check')?.description ?? t.title);
    host.engine.plan(host.selection);
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    const body = result.attachments.find((a) => a.name === OUTCOME_ATTACHMENT)?.body;
    if (!body || result.status !== 'passed') return;
    const outcome = JSON.parse(body.toString('utf8')) as CheckOutcome;
    if (outcome.status !== 'fail' && outcome.status !== 'error') return;
    const message = `${outcome.status === 'fail' ? 'FAIL' : 'ERROR'} ${outcome.reason ?? ''}`;
    result.status = 'failed';
    result.error = { message };
    result.errors = [{ message }];
  }

  printsToStdio(): boolean {
    return false;
  }
}
