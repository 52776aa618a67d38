import type { FullConfig } from '@playwright/test';
import { request } from '@playwright/test';
import { listingOf } from '../../core/check-listing.ts';
import { CHECK_LIST_ENV, ENGINE_SOCKET_ENV } from '../../core/playwright-tests.ts';
import { locatedListing } from '../../suites/check-locations.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { RUN_ENV, type PreparedRun } from '../prepare-run.ts';
import { finishRun } from './finish-run.ts';
import { RunHost, setCurrentHost } from './run-host.ts';

/**
 * Connects the run to its engine before any test. Started by the command line, the engine already
 * runs in the command's process (CONFORMANCE_RUN and CONFORMANCE_ENGINE_SOCKET set): nothing to start.
 * Started directly (`npx playwright test`), the engine starts here, in the runner process, with a run
 * prepared the command line's way (cli/direct-run.ts); the returned teardown writes the report.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const raw = process.env[RUN_ENV];
  process.env[CHECK_LIST_ENV] = JSON.stringify(locatedListing(listingOf(ALL_CHECKS)));
  // The command line already runs the engine in its own process (cli/conformance.ts) and writes the
  // report itself: the tests reach it by the socket it named.
  if (raw && process.env[ENGINE_SOCKET_ENV]) return async () => {};
  let run: PreparedRun;
  let stopDirect: (() => Promise<void>) | undefined;
  if (raw) {
    run = JSON.parse(raw) as PreparedRun;
  } else {
    const { prepareDirectRun, DirectRunError } = await import('../direct-run.ts');
    try {
      ({ run, stop: stopDirect } = await prepareDirectRun());
    } catch (e) {
      // The command line's one line and exit 2, before any test: not Playwright's stack with a code frame.
      if (!(e instanceof DirectRunError)) throw e;
      process.stderr.write(`conformance: ${e.message}\n`);
      process.exit(2);
    }
  }
  const host = await RunHost.start(run, () => request.newContext({ maxRedirects: 0 }));
  setCurrentHost(host);
  process.env[ENGINE_SOCKET_ENV] = host.socketPath;
  return async () => {
    try {
      await finishRun(host);
    } finally {
      setCurrentHost(undefined);
      await host.close();
      await stopDirect?.();
    }
  };
}
