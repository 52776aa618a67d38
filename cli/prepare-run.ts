import type { Recorder } from '../core/http/recorder.ts';
import { resolve } from 'node:path';
import type { CheckOutcome } from '../core/check/check.ts';
import { DEFAULTS, type RunSettings } from '../core/run/run-settings.ts';
import type { Target } from '../core/target/target.ts';
import { AllowedHostError, hostsOfEnvironment } from '../core/target/allowed-hosts.ts';
import { CODE_ROOT, commandLine, suiteCommit, suiteVersion } from './suite-files.ts';
import { CLI_DEFAULTS, type CliOptions } from './args.ts';
import { declOf, OPTION_NAMES, type OptionName } from './options.ts';
import { die } from './fatal.ts';

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
  /** The run's recording of every request and answer (evidence.har), the preflight's included. */
  evidence?: Recorder;
}

/** The one environment variable that hands the command's run to the Playwright runner process. */
export const RUN_ENV = 'CONFORMANCE_RUN';

/**
 * What CONFORMANCE_RUN holds: the run's settings. The command starts Playwright's runner before it
 * reads the target, so the target never travels in the environment (nor its keys, into every
 * worker's): the runner's global set-up asks the engine's socket for the listing and the keys.
 */
export interface RunnerEnv {
  /** Without --header's values (runnerEnvOf). */
  settings: Omit<RunSettings, 'headers'>;
  /** The run is one shard of several (--shard): playwright.config.ts makes each check a test group of its own. */
  sharded: boolean;
}

/**
 * CONFORMANCE_RUN's value for the command's run. --header's values are left out and reach the runner
 * as the keys do, over the engine's socket (`keys`: the mask's secrets, cli/playwright/run-host.ts), in
 * its memory only: the runner and its worker send no request (the engine and its client are in the
 * command's process) and need a value only to mask it. A value written literally is named by no
 * variable the user set; in the environment it would reach every process Playwright starts and
 * anyone reading /proc/<pid>/environ (rule "Hostile input": keys masked in everything that leaves the process).
 */
export function runnerEnvOf(settings: RunSettings, sharded: boolean): string {
  const { headers: _values, ...kept } = settings;
  const env: RunnerEnv = { settings: kept, sharded };
  return JSON.stringify(env);
}

/**
 * The run's settings from the options; the seed is --seed, else random (printed, so the run replays).
 * The hosts the keys may go to are --allow-host's and CONFORMANCE_ALLOW_HOSTS's (of `env`); a bad
 * entry of the variable is a Fatal line naming it.
 */
export function settingsOf(
  opts: CliOptions,
  runDir: string,
  seed = opts.seed ?? (Math.random() * 0x100000000) >>> 0,
  env: NodeJS.ProcessEnv = process.env,
): RunSettings {
  let envHosts: string[];
  try {
    envHosts = hostsOfEnvironment(env);
  } catch (e) {
    if (e instanceof AllowedHostError) die(e.message);
    throw e;
  }
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
    allowHosts: [...new Set([...opts.allowHosts.flatMap((h) => h.split(',')), ...envHosts])],
    targetOutside: opts.targetOutside,
    reportDirOutside: opts.reportDirOutside,
    ...(opts.replayPath ? { replayPath: opts.replayPath } : {}),
    ...(opts.maxFailures !== undefined ? { maxFailures: opts.maxFailures } : {}),
    ...(opts.headers.length ? { headers: [...opts.headers] } : {}),
    replay: replayCommand(opts, seed, envHosts),
    requestsBefore: 0,
  };
}

/**
 * The command that replays this run exactly: the target file and every option that shapes what is
 * sent and how it is judged (keys stay in the environment), its report written to `<dir>-replay`.
 * What each option does in the replay is its declaration's (cli/options.ts `replay`): carried as
 * given, or as the selection, said last (--grep, then --shard), which a check's replay
 * (core/run/replay.ts) replaces by a --grep of its own; the seed is always the run's own; the hosts
 * of CONFORMANCE_ALLOW_HOSTS (`envHosts`) are carried as one more --allow-host.
 */
export function replayCommand(opts: CliOptions, seed: number, envHosts: readonly string[] = []): string {
  const parts = [commandLine('run')];
  const given = opts.given ?? {};
  const words = (name: OptionName) => {
    const v = given[name];
    const d = declOf(name);
    const word = (value: string) => shellWord(d.kind === 'value' && d.replayValue ? d.replayValue(value) : value);
    if (v === undefined) return [];
    if (v === true) return [`--${name}`];
    return (typeof v === 'string' ? [v] : v).map((one) => `--${name} ${word(one)}`);
  };
  parts.push(...words('target'), `--seed ${seed}`);
  for (const name of OPTION_NAMES)
    if (name !== 'target' && declOf(name).replay === 'carried') parts.push(...words(name));
  // The hosts CONFORMANCE_ALLOW_HOSTS allowed go with --allow-host's: the replay may be pasted where
  // that variable is not set.
  const givenHosts = new Set(opts.allowHosts.flatMap((h) => h.split(',')));
  const fromEnv = envHosts.filter((h) => !givenHosts.has(h));
  if (fromEnv.length > 0) parts.push(`--allow-host ${shellWord(fromEnv.join(','))}`);
  const dir = (opts.reportDir ?? DEFAULTS.reportDir).replace(/(.)\/+$/, '$1');
  parts.push(`--report-dir ${shellWord(`${dir}-replay`)}`);
  for (const name of OPTION_NAMES) if (declOf(name).replay === 'selection') parts.push(...words(name));
  return parts.join(' ');
}

/** How the run's report directory may be written: --force and --report-dir-outside. */
export function reportDirOptions(settings: RunSettings): { force: boolean; outside?: boolean } {
  return { force: settings.force, ...(settings.reportDirOutside ? { outside: true } : {}) };
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

export function suiteInfo(): PreparedRun['suite'] {
  return { name: 'conformance-suite', version: suiteVersion(), commit: suiteCommit() };
}
