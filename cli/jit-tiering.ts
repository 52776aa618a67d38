import { setFlagsFromString } from 'node:v8';

/**
 * The command's process gives V8's optimising compiler, TurboFan, a function later than Node does:
 * after 16 times the work Node's default asks.
 *
 * Why: a run is short and its hot code is spread wide (HTTP on both sides of the embedded reference,
 * the judges, the mask, the reports). At Node's default V8 compiles many of its functions with
 * TurboFan on background threads, and on a machine of two cores those threads take the CPU that
 * Playwright's runner and worker are starting on, for code a run this short barely repays; the
 * command's main thread is no slower with the later tier. The code V8 runs is the same program
 * whichever tier runs it; a long pass over a large body still reaches TurboFan, a fixed number of
 * calls or iterations later.
 *
 * Only the command's own process: Playwright's runner and worker spend their CPU starting, on their
 * main threads, and a later tier makes those slower, not faster.
 */
export const TIERING_SCALE = 16;

/**
 * The flag for this V8, or undefined where it has not been read: V8 names a flag it does not know on
 * stderr, so none is guessed. Read from `node --v8-options` of Node 20 (V8 11.3: a budget of bytecode
 * run, 67,584 by default) and Node 22, 24 and 25 (V8 12.4, 13.6, 14.1: a count of calls, 3,000).
 */
export function tieringFlag(v8Version: string = process.versions.v8): string | undefined {
  const [major, minor] = v8Version.split('.').map(Number) as [number, number];
  if (major === 11 && minor === 3) return `--interrupt-budget=${TIERING_SCALE * 67_584}`;
  if (major >= 12 && major <= 14) return `--invocation-count-for-turbofan=${TIERING_SCALE * 3_000}`;
  return undefined;
}

/** Sets the flag, unless the process was started with it (`node --interrupt-budget=…`): that value is the user's. */
export function laterTiering(
  execArgv: readonly string[] = process.execArgv,
  v8Version: string = process.versions.v8,
): string | undefined {
  const flag = tieringFlag(v8Version);
  if (flag === undefined) return undefined;
  const name = flag.slice(0, flag.indexOf('='));
  // V8 reads `_` and `-` alike in a flag's name.
  if (execArgv.some((a) => a.split('=')[0]!.replaceAll('_', '-') === name)) return undefined;
  setFlagsFromString(flag);
  return flag;
}

laterTiering();
