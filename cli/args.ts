import { parseArgs } from 'node:util';
import { DEFAULTS } from '../core/run/run-settings.ts';
import { AllowedHostError, hostList } from '../core/target/allowed-hosts.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { commandLine } from './suite-files.ts';

/**
 * Command-line options of `npm run conformance`: every value is checked here, so a wrong one is a
 * single line naming the option and what it accepts (a UsageError; the CLI prints it and exits 2),
 * never a value that reaches Playwright or a timer and fails later with a stack trace.
 */
export interface CliOptions {
  target?: string;
  reportDir?: string;
  seed?: number;
  numRuns?: number;
  maxRequests?: number;
  maxRps?: number;
  concurrency?: number;
  timeoutMs?: number;
  deadlineS?: number;
  /** Seconds to wait for the target to answer before the preflight (cli/wait-for.ts), within the deadline. */
  waitForS?: number;
  /** Seconds the whole run may spend waiting before retries of 429/503 answers (then it stops, incomplete). */
  retryBudgetS: number;
  grep?: string;
  /** `I/N` with 1 <= I <= N, normalised (no leading zeros): it names the shard's files. */
  shard?: string;
  failOn: 'must' | 'should';
  transport: 'node' | 'playwright';
  allowLiteralKeys: boolean;
  allowInsecure: boolean;
  /** --allow-host: hosts (HOST or HOST:PORT, normalised) the keys may be sent to besides loopback. */
  allowHosts: string[];
  /** --target-outside: read a target file reached through a link that leads outside the working directory. */
  targetOutside: boolean;
  /** --report-dir-outside: write a report directory reached through a link that leads outside the working directory. */
  reportDirOutside: boolean;
  /** Any MUST requirement not judged, whatever the reason, makes the verdict incomplete. */
  requireAll: boolean;
  /** Write into a report directory that holds files the suite did not write. */
  force: boolean;
  dryRun: boolean;
  replayPath?: string;
  help: boolean;
  /** --version: the suite's and the service document's versions are printed; nothing else is done. */
  version: boolean;
  /**
   * Every option given on the command line, by its name, as checked (numbers and --shard
   * normalised): the replay of the run is built from it (cli/prepare-run.ts), so an option added to
   * OPTIONS is carried by every printed replay without being named there.
   */
  given: Readonly<Record<string, string | true>>;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Bounds of the numeric options, stated in --help. The upper bounds keep every value inside what
 * Node's timers take (2^31-1 ms: above it a timer fires after 1 ms) and a run inside an hour.
 */
export const BOUNDS = {
  seed: { min: 0, max: 0xffffffff },
  'num-runs': { min: 1, max: 10_000 },
  'max-requests': { min: 1, max: 1_000_000 },
  'max-rps': { min: 1, max: 10_000 },
  concurrency: { min: 1, max: 64 },
  timeout: { min: 1, max: 120_000 },
  deadline: { min: 1, max: 3_600 },
  'wait-for': { min: 1, max: 3_600 },
  'retry-budget': { min: 0, max: 3_600 },
  shards: { min: 1, max: 1_000 },
} as const;

/** Defaults stated in --help (the ones the CLI itself fills in; the run settings hold the others). */
export const CLI_DEFAULTS = { deadlineS: 600, retryBudgetS: 60 } as const;

/** A --grep or path longer than this is refused: it is a typo or an attack, not a selection. */
const MAX_TEXT = 1_000;

export const USAGE = `usage: ${commandLine('run')} [options]

Runs the conformance suite against the target described by --target, or against the embedded
reference implementation when no target is given. Exit code: 0 conformant, 1 a MUST requirement
failed (or a SHOULD one with --fail-on should), 2 the run could not be made or is incomplete,
130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM). Every file of the report directory says
what the exit code says: a run that cannot be made (exit 2 before the first check) replaces the
previous report with its error (junit.xml with one error, summary.md with the reason).

  --target FILE          target file (YAML) describing the deployment
  --target-outside       read a target file reached through a symbolic link that leads outside the
                         directory the run was started from
  --report-dir DIR       where the report is written (default reports/latest)
  --force                write into a report directory holding files the suite did not write
  --report-dir-outside   write the report through a symbolic link (in any component of --report-dir)
                         that leads outside the directory the run was started from
  --seed N               seed of the run, 0 to ${BOUNDS.seed.max} (default: random, printed)
  --num-runs N           fast-check runs per property, 1 to ${BOUNDS['num-runs'].max} (default 20)
  --max-requests N       hard request budget of the run, 1 to ${BOUNDS['max-requests'].max} (default 2000)
  --max-rps N            at most N requests per second, 1 to ${BOUNDS['max-rps'].max} (default: no limit)
  --concurrency N        checks in flight together, 1 to ${BOUNDS.concurrency.max} (default ${DEFAULTS.concurrency}; 1: one request at a time);
                         they share the budget, --max-rps and any 429/503 pause
  --timeout MS           time-out of one request in ms, 1 to ${BOUNDS.timeout.max} (default 10000)
  --deadline S           deadline of the whole run in seconds, preflight included, counted from the
                         command's start, 1 to ${BOUNDS.deadline.max} (default ${CLI_DEFAULTS.deadlineS})
  --wait-for S           first wait up to S seconds, 1 to ${BOUNDS['wait-for'].max}, for the target to answer (any HTTP
                         response) before the preflight, for a service still starting; counted in --deadline
  --retry-budget S       seconds the run may spend waiting to retry 429/503 answers, 0 to ${BOUNDS['retry-budget'].max}
                         (default ${CLI_DEFAULTS.retryBudgetS}); past it the run stops and is incomplete
  --grep REGEX           run only the checks whose id or tag matches (e.g. @must, @files)
  --shard I/N            run shard I of N, 1 <= I <= N <= ${BOUNDS.shards.max}; join the shards with
                         ${commandLine('merge')} (README: Using it in CI)
  --fail-on must|should  which failed level fails the run (default must)
  --require-all          any MUST requirement not judged (an optional target field absent, nothing to
                         judge, a run limit, a check not selected) makes the verdict incomplete
                         (for certification)
  --transport node|playwright   HTTP client (default node: bodies capped while streaming)
  --allow-literal-keys   accept keys written literally in the target file
  --allow-insecure       accept plain http:// to a host other than loopback
  --allow-host HOST[:PORT]  send the keys to this host (repeatable, or a comma-separated list; also
                         CONFORMANCE_ALLOW_HOSTS): a base URL of the target file naming any host but
                         loopback and these is refused, since it would receive the keys
  --replay-path PATH     fast-check path of a counterexample to replay, e.g. 3:1:0 (with --seed and --grep)
  --dry-run              print the plan and send nothing
  --version              the suite's version and commit, and the service document's version
  --help                 this text`;

/**
 * A user's value shown in a message: quoted, control characters escaped (a value pasted from a
 * terminal must not move the cursor), cut to a readable length so the message stays one line.
 */
export function shown(v: string, max = 60): string {
  return `"${terminalSafe(v.length > max ? `${v.slice(0, max)}…` : v)}"`;
}

function int(name: keyof typeof BOUNDS, v: string | undefined, unit = ''): number | undefined {
  if (v === undefined) return undefined;
  const { min, max } = BOUNDS[name];
  // Digits only: no sign, exponent or fraction; the length test keeps Number() exact before the bound test.
  if (!/^\d{1,12}$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}${unit}, got ${shown(v)}`);
  }
  return Number(v);
}

function shard(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(v);
  const [i, n] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || i < 1 || i > n || n > BOUNDS.shards.max) {
    throw new UsageError(`--shard takes I/N with 1 <= I <= N <= ${BOUNDS.shards.max}, got ${shown(v)}`);
  }
  return `${i}/${n}`;
}

/** Compiled as Playwright compiles --grep (`/body/flags` or a pattern with flags gi), so what passes here runs there. */
function grep(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (v.length === 0 || v.length > MAX_TEXT)
    throw new UsageError(`--grep takes a regular expression of 1 to ${MAX_TEXT} characters, got ${shown(v)}`);
  const slashed = /^\/(.*)\/([gi]*)$/.exec(v);
  try {
    if (slashed) new RegExp(slashed[1]!, slashed[2]);
    else new RegExp(v, 'gi');
  } catch (e) {
    // JavaScript's own words for what is wrong ("Unterminated group"), after the pattern it read.
    const why = /: ([^:]+)$/.exec((e as Error).message)?.[1] ?? 'not a valid pattern';
    throw new UsageError(`--grep takes a regular expression, got ${shown(v)}, which is not one: ${terminalSafe(why)}`);
  }
  return v;
}

/** A file or directory name: not empty, no NUL (the file system refuses it with a stack trace of its own). */
function path(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (v.length === 0 || v.length > 4096 || v.includes('\0'))
    throw new UsageError(`--${name} takes a path of 1 to 4096 characters without NUL, got ${shown(v)}`);
  return v;
}

/** fast-check's counterexample path: run indices separated by colons (what a failure prints). */
function replayPath(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (v.length > MAX_TEXT || !/^\d{1,9}(:\d{1,9})*$/.test(v))
    throw new UsageError(`--replay-path takes a fast-check path such as 3:1:0, got ${shown(v)}`);
  return v;
}

/** --allow-host, each given once or as a comma-separated list: normalised hosts (core/target/allowed-hosts.ts). */
function allowHosts(v: readonly string[] | undefined): string[] {
  const hosts: string[] = [];
  for (const entry of v ?? []) {
    let list: string[];
    try {
      list = hostList(entry);
    } catch (e) {
      if (e instanceof AllowedHostError) throw new UsageError(`--allow-host ${e.message}`);
      throw e;
    }
    if (list.length === 0) throw new UsageError(`--allow-host takes HOST or HOST:PORT, got ${shown(entry)}`);
    hosts.push(...list);
  }
  return [...new Set(hosts)];
}

function choice<T extends string>(name: string, v: string | undefined, allowed: readonly T[], fallback: T): T {
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--${name} takes ${allowed.join(' or ')}, got ${shown(v)}`);
  return v as T;
}

const OPTIONS = {
  target: { type: 'string' },
  'report-dir': { type: 'string' },
  seed: { type: 'string' },
  'num-runs': { type: 'string' },
  'max-requests': { type: 'string' },
  'max-rps': { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'wait-for': { type: 'string' },
  'retry-budget': { type: 'string' },
  grep: { type: 'string' },
  shard: { type: 'string' },
  'fail-on': { type: 'string' },
  transport: { type: 'string' },
  'allow-literal-keys': { type: 'boolean' },
  'allow-insecure': { type: 'boolean' },
  'allow-host': { type: 'string', multiple: true },
  'target-outside': { type: 'boolean' },
  'report-dir-outside': { type: 'boolean' },
  'require-all': { type: 'boolean' },
  force: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'replay-path': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/** Every option name, for tests that loop over all of them. */
export const OPTION_NAMES = Object.keys(OPTIONS) as ReadonlyArray<keyof typeof OPTIONS>;

/**
 * node:util parseArgs's error as one line: it names the option ("Unknown option '--x'", "Option
 * '--seed <value>' argument missing"); its hint about positionals is dropped (it ends in a quote it
 * never closes), and what the user typed is escaped like any value. For every command of cli/.
 */
export function parseArgsLine(e: unknown): string {
  const first = ((e as Error)?.message ?? String(e)).split('\n')[0]!.replace(/\. To specify.*$/, '');
  return terminalSafe(first.length > 200 ? `${first.slice(0, 200)}…` : first);
}

export function parseCli(argv: readonly string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv),
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    }));
  } catch (e) {
    throw new UsageError(parseArgsLine(e));
  }
  const opts: CliOptions = {
    failOn: choice('fail-on', values['fail-on'], ['must', 'should'], 'must'),
    transport: choice('transport', values.transport, ['node', 'playwright'], 'node'),
    allowLiteralKeys: values['allow-literal-keys'] ?? false,
    allowInsecure: values['allow-insecure'] ?? false,
    allowHosts: allowHosts(values['allow-host']),
    targetOutside: values['target-outside'] ?? false,
    reportDirOutside: values['report-dir-outside'] ?? false,
    requireAll: values['require-all'] ?? false,
    force: values.force ?? false,
    dryRun: values['dry-run'] ?? false,
    retryBudgetS: int('retry-budget', values['retry-budget'], ' s') ?? CLI_DEFAULTS.retryBudgetS,
    help: values.help ?? false,
    version: values.version ?? false,
    given: {},
  };
  const assign = <K extends keyof CliOptions>(k: K, v: CliOptions[K] | undefined) => {
    if (v !== undefined) opts[k] = v;
  };
  assign('target', path('target', values.target));
  assign('reportDir', path('report-dir', values['report-dir']));
  assign('seed', int('seed', values.seed));
  assign('numRuns', int('num-runs', values['num-runs']));
  assign('maxRequests', int('max-requests', values['max-requests']));
  assign('maxRps', int('max-rps', values['max-rps']));
  assign('concurrency', int('concurrency', values.concurrency));
  assign('timeoutMs', int('timeout', values.timeout, ' ms'));
  assign('deadlineS', int('deadline', values.deadline, ' s'));
  assign('waitForS', int('wait-for', values['wait-for'], ' s'));
  assign('grep', grep(values.grep));
  assign('shard', shard(values.shard));
  assign('replayPath', replayPath(values['replay-path']));
  opts.given = givenOf(values as Record<string, string | string[] | boolean | undefined>, opts);
  return opts;
}

/** The options given, as checked: a whole number as its value (`007` is 7), --shard normalised, a flag as true. */
function givenOf(
  values: Record<string, string | string[] | boolean | undefined>,
  opts: CliOptions,
): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (const name of OPTION_NAMES) {
    const v = values[name];
    if (v === undefined || v === false) continue;
    if (v === true) out[name] = true;
    else if (name === 'shard') out[name] = opts.shard!;
    else if (Array.isArray(v)) out[name] = opts.allowHosts.join(',');
    else out[name] = Object.hasOwn(BOUNDS, name) ? String(Number(v)) : v;
  }
  return out;
}

/**
 * The report directory and --force as far as they can be read from options that did not parse (an
 * unknown option, a bad value elsewhere): an exit 2 replaces the report there with its error
 * (cli/conformance.ts). `noReport`: --help, --version or --dry-run was asked for, which write no report.
 */
export function looseReportDir(argv: readonly string[]): { reportDir?: string; force: boolean; noReport: boolean } {
  let reportDir: string | undefined;
  let force = false;
  let noReport = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--report-dir' && i + 1 < argv.length) reportDir = argv[++i];
    else if (arg.startsWith('--report-dir=')) reportDir = arg.slice('--report-dir='.length);
    else if (arg === '--force') force = true;
    else if (arg === '--help' || arg === '-h' || arg === '--dry-run' || arg === '--version') noReport = true;
  }
  const usable =
    reportDir !== undefined && reportDir.length > 0 && reportDir.length <= 4096 && !reportDir.includes('\0');
  return { ...(usable ? { reportDir } : {}), force, noReport: noReport || (reportDir !== undefined && !usable) };
}

/**
 * `--max-requests -5`: node:util's parser takes a value that starts with `-` for an option of its own
 * ("argument is ambiguous"). A negative number after an option that takes a value is that option's
 * value, joined as `--max-requests=-5`, so it gets the usual one line naming the range.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = /^--([a-z-]+)$/.exec(arg)?.[1];
    const next = argv[i + 1];
    if (
      name &&
      (OPTIONS as Record<string, { type: string }>)[name]?.type === 'string' &&
      next !== undefined &&
      /^-\d/.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
