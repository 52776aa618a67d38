import type { FullConfig } from '@playwright/test';
import { request } from '@playwright/test';
import { listingOf } from '../../core/check-listing.ts';
import { CHECK_LIST_ENV, ENGINE_SOCKET_ENV } from '../../core/playwright-tests.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { RUN_ENV, type PreparedRun } from '../prepare-run.ts';
import { finishRun } from './finish-run.ts';
import { RunHost, setCurrentHost } from './run-host.ts';

/**
 * Starts the run's engine in the Playwright runner process before any test: the run prepared by the
 * command line (one JSON value in CONFORMANCE_RUN), or, when Playwright is started directly, one
 * prepared here the same way (cli/direct-run.ts). The returned teardown writes the report.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const raw = process.env[RUN_ENV];
  let run: PreparedRun;
  let stopDirect: (() => Promise<void>) | undefined;
  if (raw) {
    run = JSON.parse(raw) as PreparedRun;
  } else {
    const { prepareDirectRun } = await import('../direct-run.ts');
    ({ run, stop: stopDirect } = await prepareDirectRun());
  }
  const host = await RunHost.start(run, () => request.newContext({ maxRedirects: 0 }));
  setCurrentHost(host);
  process.env[ENGINE_SOCKET_ENV] = host.socketPath;
  process.env[CHECK_LIST_ENV] = JSON.stringify(listingOf(ALL_CHECKS));
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
