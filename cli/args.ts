import { type ParseArgsConfig, parseArgs } from 'node:util';
import { DEFAULTS } from '../core/run/run-settings.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { nearestName, unexpectedArgument, unknownOptionLine } from '../os/option-typos.ts';
import { UsageError } from './option-values.ts';
import { declOf, OPTION_NAMES, type OptionDecl, type OptionName, type ParsedOptions } from './options.ts';
import { commandLine } from './suite-files.ts';

export { BOUNDS, shown, UsageError } from './option-values.ts';
export { OPTION_NAMES } from './options.ts';

/**
 * Command-line options of `npm run conformance`, as declared in cli/options.ts: every value is checked
 * there, so a wrong one is a single line naming the option and what it accepts (a UsageError; the CLI
 * prints it and exits 2, "Bad input exits 2"), never a value that reaches Playwright or a timer and
 * fails later with a stack trace.
 */
export type CliOptions = ParsedOptions & {
  /**
   * Every option given on the command line, by its name, as checked (numbers and --shard
   * normalised): the replay of the run is built from it (cli/prepare-run.ts), so an option added to
   * the table is carried by every printed replay without being named there.
   */
  given: Readonly<Record<string, string | true | readonly string[]>>;
};

/** Defaults stated in --help that the CLI itself turns into settings (cli/prepare-run.ts), from the run settings' DEFAULTS. */
export const CLI_DEFAULTS = {
  deadlineS: DEFAULTS.deadlineMs / 1000,
  retryBudgetS: DEFAULTS.retryBudgetMs / 1000,
} as const;

const INTRO = `usage: ${commandLine('run')} [options]

Runs the conformance suite against the target described by --target, or against the embedded
reference implementation when no target is given. Exit code: 0 conformant, 1 a MUST requirement
failed (or a SHOULD one with --fail-on should), 2 the run could not be made or is incomplete,
130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM). Every file of the report directory says
what the exit code says: a run that cannot be made (exit 2 before the first check) replaces the
previous report with its error (junit.xml with one error, summary.md with the reason).
`;

/** Where an option's words begin in --help, and how long a line of them may grow. */
const HELP_COLUMN = 25;
const HELP_WIDTH = 112;

/** --help's lines of one option: its name and value, its words, `(default X)` after them. */
export function usageOf(name: OptionName): string {
  const d = declOf(name);
  const short = d.kind === 'flag' ? d.short : d.shortFor?.letter;
  const left = `${short ? `-${short}, ` : ''}--${name}${d.kind === 'value' ? ` ${d.arg}` : ''}`;
  const words = d.help.split('\n');
  if (d.kind === 'value') {
    const last = `${words.pop()!} (default ${d.default})`;
    if (HELP_COLUMN + last.length <= HELP_WIDTH) words.push(last);
    else words.push(last.slice(0, last.lastIndexOf(' (default')), `(default ${d.default})`);
  }
  const first = left.length <= HELP_COLUMN - 4 ? `  ${left.padEnd(HELP_COLUMN - 2)}` : `  ${left}   `;
  return [first + words[0], ...words.slice(1).map((w) => ' '.repeat(HELP_COLUMN) + w)].join('\n');
}

export const USAGE = `${INTRO}\n${OPTION_NAMES.map(usageOf).join('\n')}`;

/** node:util parseArgs's declaration of every option, from the table. */
const PARSE_ARGS = Object.fromEntries(
  OPTION_NAMES.map((name) => {
    const d: OptionDecl = declOf(name);
    return [
      name,
      d.kind === 'flag'
        ? { type: 'boolean' as const, ...(d.short ? { short: d.short } : {}) }
        : { type: 'string' as const, ...(d.multiple ? { multiple: true } : {}) },
    ];
  }),
);

/**
 * node:util parseArgs's error as one line: it names the option ("Unknown option '--x'", "Option
 * '--seed <value>' argument missing"); its hint about positionals is dropped (it ends in a quote it
 * never closes), and what the user typed is escaped like any value. For every command of cli/.
 */
export function parseArgsLine(e: unknown): string {
  const first = ((e as Error)?.message ?? String(e)).split('\n')[0]!.replace(/\. To specify.*$/, '');
  return terminalSafe(first.length > 200 ? `${first.slice(0, 200)}…` : first);
}

/**
 * A command's own arguments (diff, judge, verify, merge), parsed by `config`: a wrong one thrown as one
 * line by `Bad`, which the command prints before it exits 2 (rule "Bad input exits 2"); undefined when
 * --help asked for `usage`, which is printed.
 */
export function commandArgs<T extends ParseArgsConfig>(
  config: T,
  usage: string,
  Bad: new (line: string) => Error,
): ReturnType<typeof parseArgs<T>> | undefined {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (e) {
    // An unknown option said as the main command says it, with the nearest of this command's options.
    const names = Object.keys(config.options ?? {});
    throw new Bad(`${unknownOptionLine(e, names, terminalSafe) ?? parseArgsLine(e)} (see --help)`);
  }
  if ((parsed.values as { help?: unknown }).help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  return parsed;
}

export function parseCli(argv: readonly string[]): CliOptions {
  let values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  try {
    ({ values } = parseArgs({
      args: shortValues(joinNegativeValues(argv)),
      strict: true,
      allowPositionals: false,
      options: PARSE_ARGS,
    }));
  } catch (e) {
    throw new UsageError(
      unknownOptionLine(e, OPTION_NAMES, terminalSafe) ?? unexpectedArgumentLine(e) ?? parseArgsLine(e),
    );
  }
  const opts: Record<string, unknown> = {};
  const given: Record<string, string | true | string[]> = {};
  for (const name of OPTION_NAMES) {
    const d: OptionDecl = declOf(name);
    const typed = values[name];
    if (d.kind === 'flag') {
      opts[d.key] = typed === true;
      if (typed === true) given[name] = true;
    } else if (d.multiple) {
      const all = (Array.isArray(typed) ? typed : []).map((v) => d.parse(String(v)) as string);
      d.checkAll?.(all);
      opts[d.key] = all;
      if (all.length) given[name] = all;
    } else if (typeof typed === 'string') {
      const parsed = d.parse(typed);
      opts[d.key] = parsed;
      // As checked: a whole number as its value (`007` is 7), --shard normalised.
      given[name] = String(parsed);
    } else if (d.fill !== undefined) opts[d.key] = d.fill;
  }
  return { ...(opts as ParsedOptions), given };
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
    if (name && PARSE_ARGS[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** `-x`: a one-letter flag standing for an option with its value (cli/options.ts shortFor), as `--max-failures=1`. */
function shortValues(argv: readonly string[]): string[] {
  const byLetter = new Map<string, string>();
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    if (d.kind === 'value' && d.shortFor) byLetter.set(`-${d.shortFor.letter}`, `--${name}=${d.shortFor.value}`);
  }
  return argv.map((arg) => byLetter.get(arg) ?? arg);
}

/** The package's commands of their own (cli/main.ts): in a clone, npm scripts (cli/suite-files.ts commandLine). */
const COMMANDS = ['reference', 'diff', 'judge', 'verify', 'merge'] as const;

/**
 * A word where only options are taken, in one line with what it most likely meant: another command
 * (`conformance refrence`: `npx conformance reference`, in a clone `npm run reference`) or a target
 * file named without `--target`. Undefined for any other error of the parser.
 */
function unexpectedArgumentLine(e: unknown): string | undefined {
  const stray = unexpectedArgument(e, terminalSafe);
  if (!stray) return undefined;
  const command = nearestName(stray.typed, COMMANDS, 0);
  if (command) return `unexpected argument ${stray.shown} (did you mean ${commandLine(command).replace(/ --$/, '')}?)`;
  if (/\.(ya?ml|json)$/i.test(stray.typed))
    return `unexpected argument ${stray.shown} (did you mean --target ${stray.shown}?)`;
  return `unexpected argument ${stray.shown}: the command takes options only`;
}
