/**
 * The command that replays one check: the run's replay command (target and every option that
 * shaped the run), a --grep that selects exactly that check, and the fast-check path of its
 * counterexample. Printed by the property runner and every report, so all of them say the same.
 */

/** Shell single quotes: the text is passed as it is, whatever it holds. */
function quoted(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Playwright matches --grep (flags `gi`) against the test's title path and tags joined by spaces,
 * e.g. `conformance.spec.ts files.after.strictly-after @must @files`: `^id$` selects nothing and
 * a bare id also selects every check whose id extends it. Bounded by spaces it selects one check.
 */
export function checkGrep(checkId: string): string {
  return `(^| )${checkId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( |$)`;
}

/**
 * The run's selection at the end of its replay (cli/prepare-run.ts puts --grep, then --shard, last):
 * a --shard as the command normalises it, a --grep as one shell word (bare, or single-quoted).
 */
const RUN_SELECTION = / --shard \d+\/\d+$| --grep (?:[A-Za-z0-9_./:@%+=,-]+|'(?:[^']|'\\'')*')$/;

/** The run's own replay command, on one line (the command with the run's seed when none was kept). */
export function runReplayCommand(runReplay: string, seed: number): string {
  return runReplay.replace(/\r?\n/g, ' ').trim() || `npm run conformance -- --seed ${seed}`;
}

export function checkReplayCommand(runReplay: string, seed: number, checkId: string, replayPath?: string): string {
  let base = runReplayCommand(runReplay, seed);
  // The check's own --grep replaces the run's selection (a shard of one check could hold none).
  for (let i = 0; i < 2 && RUN_SELECTION.test(base); i++) base = base.replace(RUN_SELECTION, '');
  return `${base} --grep ${quoted(checkGrep(checkId))}${replayPath ? ` --replay-path ${quoted(replayPath)}` : ''}`;
}
