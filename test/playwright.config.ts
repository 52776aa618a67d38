import { defineConfig } from '@playwright/test';

// The suite's own tests (npm test). The conformance suite itself has its own config in suites/.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  timeout: 120_000,
  // One worker more than the machine's 2 cores: many tests wait on timers, servers and process
  // start-ups, and a third worker runs a CPU-bound test in those waits.
  workers: 3,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  globalSetup: './global-setup.ts',
  reporter: [['list'], ['./summary-reporter.ts']],
  outputDir: '../test-results',
});
