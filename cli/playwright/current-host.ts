import type { Secret } from '../../core/text/mask.ts';
import type { RunHost } from './run-host.ts';

/**
 * What the runner process knows of its run, for the reporters: the run host when Playwright was
 * started directly and its runner hosts the engine (cli/playwright/global-setup.ts), else the keys the
 * command's engine handed over. Apart from run-host.ts so the reporters can ask without loading the
 * check modules: started by the command line, the runner loads none of them.
 */
const HOST = Symbol.for('conformance.run-host');
const KEYS = Symbol.for('conformance.runner-keys');
type Shared = { [HOST]?: RunHost; [KEYS]?: Secret[] };

export function currentHost(): RunHost | undefined {
  return (globalThis as Shared)[HOST];
}

export function setCurrentHost(host: RunHost | undefined): void {
  (globalThis as Shared)[HOST] = host;
}

/** The target's keys, from the command's engine (the runner starts before the target is read). */
export function runnerKeys(): Secret[] {
  return (globalThis as Shared)[KEYS] ?? [];
}

export function setRunnerKeys(keys: Secret[]): void {
  (globalThis as Shared)[KEYS] = keys;
}
