/**
 * What a command line most likely meant, for every command of the package (the suite's and the
 * reference's): node:util parseArgs's unknown option or stray word, read from its error, and the
 * declared name nearest to what was typed. Each command says it in the same words:
 * `unknown option --concurency (did you mean --concurrency?)`.
 */

/** What the user typed, as a message shows it: cut at 100 characters, control characters escaped by `safe`. */
function typedShown(typed: string, safe: (s: string) => string): string {
  return safe(typed.length > 100 ? `${typed.slice(0, 100)}…` : typed);
}

/**
 * An unknown option in one line, with the one of `names` it is most likely a typo of (as Playwright
 * and Schemathesis say it). Undefined for any other error of the parser.
 */
export function unknownOptionLine(
  e: unknown,
  names: readonly string[],
  safe: (s: string) => string,
): string | undefined {
  if ((e as { code?: string })?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return undefined;
  const typed = /^Unknown option '([^']*)'/.exec((e as Error).message)?.[1];
  if (typed === undefined) return undefined;
  const long = /^--([^=]*)/.exec(typed)?.[1];
  const near = long === undefined ? undefined : nearestName(long, names, 1);
  return `unknown option ${typedShown(typed, safe)}${near ? ` (did you mean --${near}?)` : ''}`;
}

/**
 * A word where only options are taken, as the user typed it and as a message shows it. Undefined for
 * any other error of the parser.
 */
export function unexpectedArgument(
  e: unknown,
  safe: (s: string) => string,
): { typed: string; shown: string } | undefined {
  if ((e as { code?: string })?.code !== 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return undefined;
  const typed = /^Unexpected argument '(.*)'\. This command/s.exec((e as Error).message)?.[1];
  return typed === undefined ? undefined : { typed, shown: typedShown(typed, safe) };
}

/**
 * The name nearest to `typed` by edit distance, when near enough to be its typo: two edits at most,
 * and at most a third of the name (a short word is no typo of every short name); `least` 0 takes the
 * name itself too.
 */
export function nearestName<T extends string>(typed: string, names: readonly T[], least: 0 | 1): T | undefined {
  let best: { name: T; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(typed.toLowerCase(), name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d >= least && best.d <= Math.min(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/**
 * Edit distance counting a swap of two neighbouring characters as one edit (optimal string
 * alignment): `--sede` is a typo of `--seed`. Names are short, and a typed name is cut at 100
 * characters, so each call is bounded.
 */
function editDistance(a: string, b: string): number {
  const x = a.slice(0, 100);
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === b[j - 2] && x[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
