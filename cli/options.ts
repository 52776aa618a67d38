import { DEFAULTS } from '../core/run/run-settings.ts';
import { headerList, headerOption, headerReplay } from './header-option.ts';
import { commandLine } from './suite-files.ts';
import { allowHostOption, BOUNDS, choice, grep, int, path, rangeOf, replayPath, shard } from './option-values.ts';

/**
 * Every option of `conformance` (the run command), declared once. The parser (cli/args.ts), --help,
 * the programmatic API's names and types (cli/api.ts), the printed replay (cli/prepare-run.ts) and
 * the GitHub Action's inputs (action.yml, checked by test/action.test.ts) are read from this table:
 * an option added here is parsed, documented, taken by the API and carried into the replay, or the
 * table says why not (test/cli-options.test.ts fails otherwise).
 */

/** How the printed replay of a run carries an option that was given. */
export type Replay =
  /** As given (its value as checked). */
  | 'carried'
  /** Last, after the rest: a check's replay replaces the run's selection with its own --grep (core/run/replay.ts). */
  | 'selection'
  /** Not carried, and why. */
  | { readonly not: string };

interface Common {
  /** The CliOptions field and the programmatic API's name (runConformance's options). */
  readonly key: string;
  /** --help's words after the option; a second line and more are indented under the first. */
  readonly help: string;
  readonly replay: Replay;
  /** runConformance takes it (true), or why not. */
  readonly api: true | { readonly not: string };
  /** The GitHub Action has an input of the option's name (true), or why not. */
  readonly action: true | { readonly not: string };
}

/** An option that takes a value: `--name VALUE`. */
export interface ValueDecl extends Common {
  readonly kind: 'value';
  /** The value's name in --help: N, FILE. */
  readonly arg: string;
  /** What --help says the run does without it: `(default 8)`. */
  readonly default: string;
  /** Checks what was typed (a UsageError naming the option otherwise) and returns the value the run uses. */
  readonly parse: (typed: string) => unknown;
  /** The value CliOptions holds when the option is absent, if any (the run settings fill in the rest). */
  readonly fill?: unknown;
  /** Given more than once, each value kept (a list; an empty one when absent). */
  readonly multiple?: true;
  /** Checks the values of a `multiple` option together (each once, how many). */
  readonly checkAll?: (all: readonly string[]) => void;
  /** The value as the printed replay writes it, when not as given (a secret named by its variable). */
  readonly replayValue?: (value: string) => string;
  /** A one-letter flag standing for the option with one value: -x for --max-failures 1. */
  readonly shortFor?: { readonly letter: string; readonly value: string };
  /**
   * The environment variable a Playwright run started directly (`npx playwright test`, cli/direct-run.ts)
   * takes the option from, checked as the option is; a `multiple` option's values one a line. Absent,
   * such a run does not take the option (and says nothing of it).
   */
  readonly directEnv?: `CONFORMANCE_${string}`;
}

/** A flag: `--name`, no value. Absent, it is false. */
export interface FlagDecl extends Common {
  readonly kind: 'flag';
  /** A one-letter alias: -h. */
  readonly short?: string;
}

export type OptionDecl = ValueDecl | FlagDecl;

const value = <const D extends Omit<ValueDecl, 'kind'>>(d: D) => ({ kind: 'value' as const, ...d });
const flag = <const D extends Omit<FlagDecl, 'kind'>>(d: D) => ({ kind: 'flag' as const, ...d });

const NOT_A_RUN = { not: 'not a run' } as const;

export const OPTIONS = {
  target: value({
    key: 'target',
    arg: 'FILE',
    help: 'target file (YAML) describing the deployment',
    default: 'the embedded reference implementation',
    parse: (v) => path('target', v),
    directEnv: 'CONFORMANCE_TARGET',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'report-dir': value({
    key: 'reportDir',
    arg: 'DIR',
    help: 'where the report is written',
    default: DEFAULTS.reportDir,
    parse: (v) => path('report-dir', v),
    directEnv: 'CONFORMANCE_REPORT_DIR',
    // cli/prepare-run.ts writes the replay's report beside the run's: `<dir>-replay`.
    replay: { not: 'a replay writes its report beside the run it replays (<dir>-replay), never over it' },
    api: true,
    action: true,
  }),
  force: flag({
    key: 'force',
    help: 'write into a report directory holding files the suite did not write',
    replay: { not: "the replay writes into a directory of the run's own" },
    api: true,
    action: true,
  }),
  seed: value({
    key: 'seed',
    arg: 'N',
    help: `seed of the run, ${rangeOf('seed')}`,
    default: 'random, printed',
    parse: (v) => int('seed', v),
    directEnv: 'CONFORMANCE_SEED',
    replay: { not: "always given: the run's own seed, also when it was random" },
    api: true,
    action: true,
  }),
  'num-runs': value({
    key: 'numRuns',
    arg: 'N',
    help: `fast-check runs per property, ${rangeOf('num-runs')}`,
    default: String(DEFAULTS.numRuns),
    parse: (v) => int('num-runs', v),
    replay: 'carried',
    api: true,
    action: true,
  }),
  'max-requests': value({
    key: 'maxRequests',
    arg: 'N',
    help: `hard request budget of the run, ${rangeOf('max-requests')}`,
    default: String(DEFAULTS.maxRequests),
    parse: (v) => int('max-requests', v),
    replay: 'carried',
    api: true,
    action: true,
  }),
  'max-rps': value({
    key: 'maxRps',
    arg: 'N',
    help: `at most N requests per second, ${rangeOf('max-rps')}`,
    default: DEFAULTS.maxRps === 0 ? 'no limit' : String(DEFAULTS.maxRps),
    parse: (v) => int('max-rps', v),
    replay: 'carried',
    api: true,
    action: true,
  }),
  concurrency: value({
    key: 'concurrency',
    arg: 'N',
    help: `checks in flight together, ${rangeOf('concurrency')} (1: one request at a time);\nthey share the budget, --max-rps and any 429/503 pause`,
    default: String(DEFAULTS.concurrency),
    parse: (v) => int('concurrency', v),
    replay: 'carried',
    api: true,
    action: true,
  }),
  timeout: value({
    key: 'timeoutMs',
    arg: 'MS',
    help: `time-out of one request in ms, ${rangeOf('timeout')}`,
    default: String(DEFAULTS.requestTimeoutMs),
    parse: (v) => int('timeout', v, ' ms'),
    replay: 'carried',
    api: true,
    action: true,
  }),
  deadline: value({
    key: 'deadlineS',
    arg: 'S',
    help: `deadline of the whole run in seconds, preflight included, counted from the\ncommand's start, ${rangeOf('deadline')}`,
    default: String(DEFAULTS.deadlineMs / 1000),
    parse: (v) => int('deadline', v, ' s'),
    replay: 'carried',
    api: true,
    action: true,
  }),
  'wait-for': value({
    key: 'waitForS',
    arg: 'S',
    help: `first wait up to S seconds, ${rangeOf('wait-for')}, for the target to answer (any HTTP\nresponse) before the preflight, for a service still starting; counted in --deadline`,
    default: 'no wait',
    parse: (v) => int('wait-for', v, ' s'),
    replay: 'carried',
    api: true,
    action: true,
  }),
  'retry-budget': value({
    key: 'retryBudgetS',
    arg: 'S',
    help: `seconds the run may spend waiting to retry 429/503 answers, ${rangeOf('retry-budget')};\npast it the run stops and is incomplete`,
    default: String(DEFAULTS.retryBudgetMs / 1000),
    parse: (v) => int('retry-budget', v, ' s'),
    fill: DEFAULTS.retryBudgetMs / 1000,
    replay: 'carried',
    api: true,
    action: true,
  }),
  grep: value({
    key: 'grep',
    arg: 'REGEX',
    help: 'run only the checks whose id or tag matches (e.g. @must, @files)',
    default: 'every check',
    parse: grep,
    replay: 'selection',
    api: true,
    action: true,
  }),
  shard: value({
    key: 'shard',
    arg: 'I/N',
    help: `run shard I of N, 1 <= I <= N <= ${BOUNDS.shards.max}; join the shards with\n${commandLine('merge')} (README: Using it in CI)`,
    default: 'the whole run',
    parse: shard,
    replay: 'selection',
    api: { not: "Playwright's runner splits the tests into shards; runConformance selects by grep" },
    action: true,
  }),
  'fail-on': value({
    key: 'failOn',
    arg: 'must|should',
    help: 'which failed level fails the run',
    default: DEFAULTS.failOn,
    parse: (v) => choice('fail-on', v, ['must', 'should']),
    fill: DEFAULTS.failOn,
    directEnv: 'CONFORMANCE_FAIL_ON',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'require-all': flag({
    key: 'requireAll',
    help: 'any MUST requirement not judged (an optional target field absent, nothing to\njudge, a run limit, a check not selected) makes the verdict incomplete\n(for certification)',
    replay: 'carried',
    api: true,
    action: true,
  }),
  transport: value({
    key: 'transport',
    arg: 'node|playwright',
    help: 'HTTP client (node: bodies capped while streaming)',
    default: DEFAULTS.transport,
    parse: (v) => choice('transport', v, ['node', 'playwright']),
    fill: DEFAULTS.transport,
    replay: 'carried',
    api: true,
    action: true,
  }),
  'allow-literal-keys': flag({
    key: 'allowLiteralKeys',
    help: 'accept keys written literally in the target file',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'allow-insecure': flag({
    key: 'allowInsecure',
    help: 'accept plain http:// to a host other than loopback',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'allow-host': value({
    key: 'allowHosts',
    arg: 'HOST[:PORT]',
    multiple: true,
    help: `send the keys to this host (repeatable, or a comma-separated list; also CONFORMANCE_ALLOW_HOSTS):\na base URL of the target file naming any host but loopback and these is refused, since it would\nreceive the keys`,
    default: 'loopback only',
    parse: allowHostOption,
    replay: 'carried',
    api: true,
    action: true,
  }),
  'target-outside': flag({
    key: 'targetOutside',
    help: 'read a target file reached through a symbolic link that leads outside the directory the run\nwas started from',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'report-dir-outside': flag({
    key: 'reportDirOutside',
    help: 'write the report through a symbolic link (in any component of --report-dir) that leads outside\nthe directory the run was started from',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'max-failures': value({
    key: 'maxFailures',
    arg: 'N',
    shortFor: { letter: 'x', value: '1' },
    help: `end the run once N requirements have failed at a gating level (-x: 1), ${rangeOf('max-failures')};\nthe verdict is NON-CONFORMANT, the requirements left are not judged`,
    default: 'no limit',
    parse: (v) => int('max-failures', v),
    directEnv: 'CONFORMANCE_MAX_FAILURES',
    replay: 'carried',
    api: true,
    action: true,
  }),
  header: value({
    key: 'headers',
    arg: 'NAME:VALUE',
    multiple: true,
    help: `an extra header sent with every request (a gateway's), repeatable; VALUE may be \${VAR}, read from\nthe environment; masked in every output like the keys; the replay names it \${VAR} (\${HEADER_<NAME>}\nfor a value written literally); Authorization, Accept and framing headers are refused`,
    default: 'none',
    parse: headerOption,
    checkAll: headerList,
    replayValue: headerReplay,
    directEnv: 'CONFORMANCE_HEADERS',
    replay: 'carried',
    api: true,
    action: true,
  }),
  'replay-path': value({
    key: 'replayPath',
    arg: 'PATH',
    help: 'fast-check path of a counterexample to replay, e.g. 3:1:0 (with --seed and --grep)',
    default: 'none',
    parse: replayPath,
    replay: { not: "a check's replay adds its own (core/run/replay.ts)" },
    api: true,
    action: true,
  }),
  'dry-run': flag({
    key: 'dryRun',
    help: 'print the plan and send nothing',
    replay: NOT_A_RUN,
    api: { not: 'runConformance runs; the plan is printed by the command' },
    action: true,
  }),
  version: flag({
    key: 'version',
    help: "the suite's version and commit, and the service document's version",
    replay: NOT_A_RUN,
    api: NOT_A_RUN,
    action: NOT_A_RUN,
  }),
  help: flag({
    key: 'help',
    short: 'h',
    help: 'this text',
    replay: NOT_A_RUN,
    api: NOT_A_RUN,
    action: NOT_A_RUN,
  }),
} as const satisfies Record<string, OptionDecl>;

export type OptionTable = typeof OPTIONS;
export type OptionName = keyof OptionTable;

/** Every option name, in the table's order (--help's, the replay's). */
export const OPTION_NAMES = Object.keys(OPTIONS) as readonly OptionName[];

/** The declaration of one option, as the generic readers (parser, usage, replay) see it. */
export function declOf(name: OptionName): OptionDecl {
  return OPTIONS[name];
}

/** What an option holds once parsed: a flag true or false, a value what its parse returns. */
type ValueOf<D> = D extends { kind: 'flag' }
  ? boolean
  : D extends { parse: (typed: string) => infer T }
    ? D extends { multiple: true }
      ? T[]
      : T
    : never;

/** Names whose value is always there once parsed: flags (false when absent), lists (empty) and values with a `fill`. */
type Filled<D> = D extends { kind: 'flag' }
  ? true
  : D extends { fill: unknown }
    ? true
    : D extends { multiple: true }
      ? true
      : false;

/** Every option, parsed, by its key: those always filled are required, the rest optional. */
export type ParsedOptions = {
  -readonly [N in OptionName as Filled<OptionTable[N]> extends true ? OptionTable[N]['key'] : never]: ValueOf<
    OptionTable[N]
  >;
} & {
  -readonly [N in OptionName as Filled<OptionTable[N]> extends true ? never : OptionTable[N]['key']]?: ValueOf<
    OptionTable[N]
  >;
};

/** The programmatic API's options (cli/api.ts): every option the table gives to the API, by its key. */
export type ApiOptions = {
  -readonly [N in OptionName as OptionTable[N]['api'] extends true ? OptionTable[N]['key'] : never]?: ValueOf<
    OptionTable[N]
  >;
};
