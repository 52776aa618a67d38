import { defineConfig } from '@playwright/test';

// The conformance suite. Started by cli/conformance.ts, which sets the CONFORMANCE_* environment.
// One worker: checks share the run's request budget and their requests come in a fixed order, so
// two runs with one seed send the same requests.
const deadlineMs = Number(process.env['CONFORMANCE_DEADLINE_MS'] || 600_000);
const reporters = (process.env['CONFORMANCE_REPORTERS'] || 'console,conformance').split(',');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: Number(process.env['CONFORMANCE_CHECK_TIMEOUT_MS'] || 120_000),
  globalTimeout: deadlineMs,
  outputDir: process.env['CONFORMANCE_RUN_DIR'] ? `${process.env['CONFORMANCE_RUN_DIR']}/test-output` : undefined,
  use: { trace: 'off' },
  reporter: reporters.map((name) =>
    name === 'blob'
      ? (['blob', { outputDir: `${process.env['CONFORMANCE_REPORT_DIR'] || 'reports/latest'}/blob` }] as const)
      : ([`../reports/${name}-reporter.ts`] as const),
  ),
});
