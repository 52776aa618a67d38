import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { OUTCOME_ATTACHMENT, type CheckOutcome } from '../../core/check.ts';

const MARK: Record<CheckOutcome['status'], string> = { pass: 'pass ', fail: 'FAIL ', error: 'ERROR', skip: 'skip ' };

/** One line per check on the console: no stack traces, no bodies (those are in the report). */
export default class ConsoleReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    const body = result.attachments.find((a) => a.name === OUTCOME_ATTACHMENT)?.body;
    const outcome = body ? (JSON.parse(body.toString('utf8')) as CheckOutcome) : undefined;
    const status = outcome?.status ?? (result.status === 'skipped' ? 'skip' : 'error');
    const reason = outcome?.reason ?? (result.status === 'timedOut' ? 'did not finish in time' : result.error?.message?.split('\n')[0]);
    process.stdout.write(`  ${MARK[status]} ${test.title}${reason && status !== 'pass' ? ` — ${reason}` : ''}\n`);
  }

  onError(error: { message?: string }): void {
    process.stdout.write(`  ERROR ${error.message?.split('\n')[0] ?? 'unknown error'}\n`);
  }

  onEnd(_result: FullResult): void {}

  printsToStdio(): boolean {
    return true;
  }
}
