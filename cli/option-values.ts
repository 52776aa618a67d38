import { AllowedHostError, hostList } from '../core/target/allowed-hosts.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';

/**
 * The checks of the command's option values ("Bad input exits 2"): each takes what was typed and
 * returns the value the run uses, or throws a UsageError of one line naming the option and what it
 * accepts. The command's options (cli/options.ts) name them; nothing else parses an option's value.
 */
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
  'max-failures': { min: 1, max: 1_000 },
  shards: { min: 1, max: 1_000 },
} as const;

/** A --grep or path longer than this is refused: it is a typo or an attack, not a selection. */
const MAX_TEXT = 1_000;

/**
 * A user's value shown in a message: quoted, control characters escaped (a value pasted from a
 * terminal must not move the cursor), cut to a readable length so the message stays one line.
 */
export function shown(v: string, max = 60): string {
  return `"${terminalSafe(v.length > max ? `${v.slice(0, max)}…` : v)}"`;
}

/** The range of a numeric option as --help states it: `1 to 64`. */
export function rangeOf(name: keyof typeof BOUNDS): string {
  return `${BOUNDS[name].min} to ${BOUNDS[name].max}`;
}

export function int(name: keyof typeof BOUNDS, v: string, unit = ''): number {
  const { min, max } = BOUNDS[name];
  // Digits only: no sign, exponent or fraction; the length test keeps Number() exact before the bound test.
  if (!/^\d{1,12}$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(`--${name} takes a whole number from ${min} to ${max}${unit}, got ${shown(v)}`);
  }
  return Number(v);
}

/** `I/N` with 1 <= I <= N, normalised (no leading zeros): it names the shard's files. */
export function shard(v: string): string {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(v);
  const [i, n] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || i < 1 || i > n || n > BOUNDS.shards.max) {
    throw new UsageError(`--shard takes I/N with 1 <= I <= N <= ${BOUNDS.shards.max}, got ${shown(v)}`);
  }
  return `${i}/${n}`;
}

/** Compiled as Playwright compiles --grep (`/body/flags` or a pattern with flags gi), so what passes here runs there. */
export function grep(v: string): string {
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
export function path(name: string, v: string): string {
  if (v.length === 0 || v.length > 4096 || v.includes('\0'))
    throw new UsageError(`--${name} takes a path of 1 to 4096 characters without NUL, got ${shown(v)}`);
  return v;
}

/** fast-check's counterexample path: run indices separated by colons (what a failure prints). */
export function replayPath(v: string): string {
  if (v.length > MAX_TEXT || !/^\d{1,9}(:\d{1,9})*$/.test(v))
    throw new UsageError(`--replay-path takes a fast-check path such as 3:1:0, got ${shown(v)}`);
  return v;
}

export function choice<const T extends string>(name: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--${name} takes ${allowed.join(' or ')}, got ${shown(v)}`);
  return v as T;
}

/** --allow-host: HOST or HOST:PORT, or a comma-separated list of them, normalised (core/target/allowed-hosts.ts). */
export function allowHostOption(typed: string): string {
  let list: string[];
  try {
    list = hostList(typed);
  } catch (e) {
    if (e instanceof AllowedHostError) throw new UsageError(`--allow-host ${e.message}`);
    throw e;
  }
  if (list.length === 0) throw new UsageError(`--allow-host takes HOST or HOST:PORT, got ${shown(typed)}`);
  return list.join(',');
}
