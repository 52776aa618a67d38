import { tagsOf } from '../core/check/tags.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { MODULE_EXT } from './suite-files.ts';

/**
 * The checks a --grep selects, computed the way Playwright's runner computes it, so the command can
 * start them before Playwright has listed its tests: Playwright turns the pattern into a regular
 * expression with the `gi` flags unless written `/…/flags`, and matches it against the test's grep
 * title (root, project and file suite titles, the test's title, its tags, joined by spaces).
 * The host reporter still hands over Playwright's own selection at onBegin and the run host checks
 * that the two agree (cli/playwright/run-host.ts).
 */
export function selectionOf(grep: string | undefined): string[] {
  if (grep === undefined) return ALL_CHECKS.map((c) => c.id);
  const m = /^\/(.*)\/([gi]*)$/.exec(grep);
  const re = m ? new RegExp(m[1]!, m[2]) : new RegExp(grep, 'gi');
  return ALL_CHECKS.filter((c) => {
    re.lastIndex = 0;
    return re.test(['', '', `conformance.spec${MODULE_EXT}`, c.id, ...tagsOf(c)].join(' '));
  }).map((c) => c.id);
}

/**
 * Why --replay-path makes no sense with this selection, or undefined. A fast-check path replays one
 * counterexample of one property: run over other checks it would narrow nothing they do and quietly
 * weaken the property it names (no quietly weaker green). The replay printed with a failure
 * carries both --grep and --replay-path.
 */
export function replayPathProblem(
  replayPath: string | undefined,
  selection: readonly string[] | undefined,
): string | undefined {
  if (replayPath === undefined) return undefined;
  const only = selection?.length === 1 ? ALL_CHECKS.find((c) => c.id === selection[0]) : undefined;
  if (only?.kind === 'property') return undefined;
  const why =
    selection === undefined
      ? 'with --shard'
      : selection.length === 1
        ? `with ${only?.id ?? selection[0]}, which is no property`
        : `with ${selection.length} checks selected`;
  return `--replay-path replays one counterexample of one property: give a --grep that selects exactly that property check (the replay printed with a failure has both), not ${why}`;
}
