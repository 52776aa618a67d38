import { resolve } from 'node:path';
import type { CheckOutcome } from '../core/check/check.ts';
import { DEFAULTS, type RunSettings } from '../core/run/run-settings.ts';
import type { Target } from '../core/target/target.ts';
import { CODE_ROOT, commandLine, suiteCommit, suiteVersion } from './suite-files.ts';
import { CLI_DEFAULTS, type CliOptions } from './args.ts';

export const ROOT = CODE_ROOT;

/** Everything a run is: settings decided once, the target file parsed once, the suite that runs. */
export interface PreparedRun {
  settings: RunSettings;
  target: Target;
  suite: { name: string; version: string; commit: string };
  /** Where the run goes when no target file is given: the embedded reference (the command line's). */
  embedded: boolean;
  /** The preflight's responses, judged (cli/preflight.ts): the report counts their failures. */
  received?: readonly CheckOutcome[];
}

/** The one environment variable that hands the command's run to the Playwright runner process. */
export const RUN_ENV = 'CONFORMANCE_RUN';

/**
 * What CONFORMANCE_RUN holds: the run's settings. The command starts Playwright's runner before it
 * reads the target, so the target never travels in the environment (nor its keys, into every
 * worker's): the runner's global set-up asks the engine's socket for the listing and the keys.
 */
export interface RunnerEnv {
  settings: RunSettings;
  /** The run is one shard of several (--shard): playwright.config.ts makes each check a test group of its own. */
  sharded: boolean;
}

/** The run's settings from the options; the seed is --seed, else random (printed, so the run replays). */
export function settingsOf(
  opts: CliOptions,
  runDir: string,
  seed = opts.seed ?? (Math.random() * 0x100000000) >>> 0,
): RunSettings {
  return {
    targetFile: opts.target ? resolve(opts.target) : '',
    runDir,
    seed,
    numRuns: opts.numRuns ?? DEFAULTS.numRuns,
    maxRequests: opts.maxRequests ?? DEFAULTS.maxRequests,
    maxRps: opts.maxRps ?? DEFAULTS.maxRps,
    concurrency: opts.concurrency ?? DEFAULTS.concurrency,
    requestTimeoutMs: opts.timeoutMs ?? DEFAULTS.requestTimeoutMs,
    bodyCapBytes: DEFAULTS.bodyCapBytes,
    maxRetries: DEFAULTS.maxRetries,
    retryCapMs: DEFAULTS.retryCapMs,
    retryBudgetMs: (opts.retryBudgetS ?? CLI_DEFAULTS.retryBudgetS) * 1000,
    deadlineMs: (opts.deadlineS ?? CLI_DEFAULTS.deadlineS) * 1000,
    // Settings are decided as the command starts: its deadline counts from here, preflight included.
    startedAt: Date.now(),
    reportDir: resolve(opts.reportDir ?? DEFAULTS.reportDir),
    transport: opts.transport,
    failOn: opts.failOn,
    requireAll: opts.requireAll,
    force: opts.force,
    allowLiteralKeys: opts.allowLiteralKeys,
    allowInsecure: opts.allowInsecure,
    ...(opts.replayPath ? { replayPath: opts.replayPath } : {}),
    replay: replayCommand(opts, seed),
    requestsBefore: 0,
  };
}

/**
 * Options a replay does not carry as given: where the report goes (a replay writes beside the run it
 * replays, never over it: `--report-dir <dir>-replay`), --force (for a directory of the run's own),
 * what is not a run (--dry-run, --help), the seed (always given: the run's own, also when random) and
 * --replay-path (a check's replay adds its own). Every other option shapes what is sent or judged and
 * is carried, whatever its name: the replay reads the parsed options (CliOptions.given), not a list.
 */
const NOT_REPLAYED: ReadonlySet<string> = new Set(['report-dir', 'force', 'dry-run', 'help', 'seed', 'replay-path']);
/** The selection, said last (--grep, then --shard): a check's replay replaces it with its own --grep (core/run/replay.ts). */
const SELECTION = ['grep', 'shard'] as const;

/**
 * The command that replays this run exactly: the target file and every option that shapes what is
 * sent and how it is judged (keys stay in the environment), its report written to `<dir>-replay`.
 * The selection (--grep, --shard) comes last: a check's replay (core/run/replay.ts) drops it, since it
 * selects its one check by a --grep of its own.
 */
export function replayCommand(opts: CliOptions, seed: number): string {
  const parts = [commandLine('run')];
  const given = opts.given ?? {};
  if (given['target'] !== undefined) parts.push(`--target ${shellWord(String(given['target']))}`);
  parts.push(`--seed ${seed}`);
  for (const [name, value] of Object.entries(given)) {
    if (name === 'target' || NOT_REPLAYED.has(name) || (SELECTION as readonly string[]).includes(name)) continue;
    parts.push(value === true ? `--${name}` : `--${name} ${shellWord(value)}`);
  }
  const dir = (opts.reportDir ?? DEFAULTS.reportDir).replace(/(.)\/+$/, '$1');
  parts.push(`--report-dir ${shellWord(`${dir}-replay`)}`);
  for (const name of SELECTION) if (typeof given[name] === 'string') parts.push(`--${name} ${shellWord(given[name])}`);
  return parts.join(' ');
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

export function suiteInfo(): PreparedRun['suite'] {
  return { name: 'conformance-suite', version: suiteVersion(), commit: suiteCommit() };
}
