import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Prints the closing line CI reads: `tests: N passed, N failed, N skipped`. */
export default class SummaryReporter implements Reporter {
  private readonly outcome = new Map<TestCase, TestResult['status']>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcome.set(test, result.status);
  }

  onEnd(result: FullResult): void {
    let passed = 0, failed = 0, skipped = 0;
    for (const status of this.outcome.values()) {
      if (status === 'passed') passed++;
      else if (status === 'skipped') skipped++;
      else failed++;
    }
    // A run that broke before or after the tests (global setup, config error) is a failure too.
    if (result.status !== 'passed' && failed === 0) failed = 1;
    process.stdout.write(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
