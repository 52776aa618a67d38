import type { ChildProcess } from 'node:child_process';

/** How long the command waits for a killed runner to be gone: SIGKILL cannot be caught, so a moment. */
const REAP_BOUND_MS = 5_000;

/**
 * Ends Playwright's runner, started before the target was read (cli/conformance.ts), and waits until
 * it is gone: a run refused at load (a `${VAR}` outside the keys, a bad target file) exits at once,
 * and a runner killed but not yet waited for would be left defunct after the command's exit until
 * whatever inherits it reaps it. Bounded: a runner that does not end still lets the command end.
 */
export async function endRunner(runner: ChildProcess): Promise<void> {
  if (runner.exitCode !== null || runner.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REAP_BOUND_MS);
    timer.unref();
    runner.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  runner.kill('SIGKILL');
  await gone;
}
