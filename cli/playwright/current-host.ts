import type { RunHost } from './run-host.ts';

/**
 * The run host of this process, when Playwright was started directly and its runner hosts the engine
 * (cli/playwright/global-setup.ts). Apart from run-host.ts so the reporters can ask without loading
 * the check modules: started by the command line, the runner loads none of them.
 */
const KEY = Symbol.for('conformance.run-host');

export function currentHost(): RunHost | undefined {
  return (globalThis as { [KEY]?: RunHost })[KEY];
}

export function setCurrentHost(host: RunHost | undefined): void {
  (globalThis as { [KEY]?: RunHost })[KEY] = host;
}
