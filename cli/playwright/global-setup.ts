import type { FullConfig } from '@playwright/test';
import { askRunnerStart } from '../../playwright/engine-socket.ts';
import { CHECK_LIST_ENV, ENGINE_SOCKET_ENV } from '../../playwright/playwright-tests.ts';
import { RUN_ENV } from '../prepare-run.ts';
import { setCurrentHost, setRunnerKeys } from './current-host.ts';

/**
 * Connects the run to its engine before any test, and publishes the check listing the tests are
 * registered from (CONFORMANCE_CHECK_LIST). Started by the command line (CONFORMANCE_RUN and
 * CONFORMANCE_ENGINE_SOCKET set), the engine runs in the command's process: the listing and the
 * target's keys come from it over the socket once it has read the target and loaded the checks
 * (before its preflight; the tests' questions wait for the preflight), and this process loads no check
 * module (loading them would cost time on Playwright's side of the run). Started directly
 * (`npx playwright test`), the engine starts here, in the runner process, with a run prepared the
 * command line's way (cli/direct-run.ts); the returned teardown writes the report.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const raw = process.env[RUN_ENV];
  const socket = process.env[ENGINE_SOCKET_ENV];
  if (raw && socket) {
    const { listing, keys } = await askRunnerStart(socket);
    process.env[CHECK_LIST_ENV] = listing;
    setRunnerKeys(keys);
    return async () => {};
  }
  const { RunHost, checkListingJson } = await import('./run-host.ts');
  const { finishRun } = await import('./finish-run.ts');
  const { request } = await import('@playwright/test');
  process.env[CHECK_LIST_ENV] = checkListingJson();
  const { prepareDirectRun, DirectRunError } = await import('../direct-run.ts');
  let prepared: Awaited<ReturnType<typeof prepareDirectRun>>;
  try {
    prepared = await prepareDirectRun();
  } catch (e) {
    // The command line's one line and exit 2, before any test: not Playwright's stack with a code frame.
    if (!(e instanceof DirectRunError)) throw e;
    process.stderr.write(`conformance: ${e.message}\n`);
    process.exit(2);
  }
  const { run, stop: stopDirect } = prepared;
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
