import { importSourceOption } from './node-options.ts';

/**
 * What stops the command: the signals a terminal, a CI runner or `timeout` sends (Ctrl-C, SIGTERM,
 * SIGHUP when the terminal closes, SIGQUIT from Ctrl-\), and the end of the process that started it.
 * Each ends the run the same way, with the report of what was judged so far; none leaves the run
 * going on without anyone to read its exit code.
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The shell's code of a process ended by the signal (128 + its number). */
export const EXIT_OF_SIGNAL: Readonly<Record<StopSignal, number>> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGQUIT: 131,
  SIGTERM: 143,
};

/** How often the parent is looked for: a stop within a second of its end. */
const PARENT_POLL_MS = 250;

/**
 * Calls `stop` on each stop signal, and once (as SIGHUP, the hang-up of whoever started the run) when
 * the parent process is gone: `npm run` whose shell is killed alone, or a CI step's process killed
 * with SIGKILL, would otherwise leave the run going on as an orphan and its exit code unread.
 * Returns what removes the handlers.
 */
export function onStop(stop: (signal: StopSignal, why: string) => void): () => void {
  const handlers = STOP_SIGNALS.map((signal) => [signal, () => stop(signal, signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    // Whoever read the console may be gone with the parent: a closed pipe must not end the run before its report.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    stop('SIGHUP', 'its parent process ended');
  }, PARENT_POLL_MS).unref();
  return () => {
    clearInterval(watch);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

/**
 * Node options for Playwright's runner and (inherited through the environment) its workers: each
 * ends itself when its parent is gone, so a command killed with SIGKILL (the OOM killer) takes its
 * runner and worker with it instead of leaving them to run on. A data: URL, so the compiled package
 * needs no file for it.
 */
export function watchParentNodeOptions(existing: string | undefined): string {
  const source = `const p=process.ppid;setInterval(()=>{if(process.ppid!==p)process.kill(process.pid,'SIGKILL')},${PARENT_POLL_MS}).unref();`;
  return [existing, importSourceOption(source)].filter(Boolean).join(' ');
}
