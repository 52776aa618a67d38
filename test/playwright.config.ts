import { defineConfig } from '@playwright/test';

// The suite's own tests (npm test). The conformance suite itself has its own config in suites/.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  timeout: 120_000,
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  globalSetup: './global-setup.ts',
  reporter: [['list'], ['./summary-reporter.ts']],
  outputDir: '../test-results',
});
