import { defineConfig } from '@playwright/test';
import { MODULE_EXT } from './cli/suite-files.ts';

/**
 * The conformance suite as a Playwright project: `npx playwright test` runs it (against the target
 * file named by CONFORMANCE_TARGET, else the embedded reference), and `npm run conformance` goes
 * through this same configuration with the run's settings (CONFORMANCE_RUN; the target and its keys
 * come over the engine's socket). Playwright's own options work as usual: --grep, --list, --reporter,
 * --shard.
 *
 * One worker, its tests in the listing's order (core/check/check-listing.ts): a test only reports its
 * check's outcome. The run's engine computes them (checks in flight together, up to --concurrency,
 * over one budget and pace) and lives in the command's process (cli/run-engine.ts), or in the runner
 * process when Playwright is started directly (cli/playwright/global-setup.ts); tests only ask it for
 * outcomes.
 */
const run = process.env['CONFORMANCE_RUN']
  ? (JSON.parse(process.env['CONFORMANCE_RUN']) as {
      settings: { deadlineMs: number; runDir: string };
      sharded: boolean;
    })
  : undefined;

export default defineConfig({
  testDir: './suites',
  testMatch: `conformance.spec${MODULE_EXT}`,
  workers: 1,
  // Under --shard, each check is a test group of its own, so a shard splits the checks themselves (one
  // worker still reports them one after another, in the listing's order). Otherwise the file is one
  // group: the worker runs its tests as one job, not one job each (a round trip with the runner per
  // test, on both processes' CPU). A direct `npx playwright test` may be
  // given --shard the command does not see, so it keeps a group per check.
  fullyParallel: run?.sharded ?? true,
  retries: 0,
  // A check's own time limit is its requests' time-outs. The suite's deadline is its own, counted from
  // the command's start (cli/playwright/run-host.ts); Playwright's globalTimeout, counted from the later
  // start of this runner, is only a safety net beyond it.
  timeout: 0,
  globalTimeout: (run?.settings.deadlineMs ?? 600_000) + 60_000,
  globalSetup: `./cli/playwright/global-setup${MODULE_EXT}`,
  outputDir: run ? `${run.settings.runDir}/test-output` : 'test-results/conformance',
  use: { trace: 'off' },
  reporter: [[`./cli/playwright/host-reporter${MODULE_EXT}`], ['list']],
});
