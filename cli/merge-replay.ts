/**
 * The replay of a merged report: the whole run's command, not one shard's. A shard's replay
 * (cli/prepare-run.ts replayCommand) ends in its --shard and writes to `<shard dir>-replay`; the
 * merged run replays every shard at once, so the --shard goes and the report directory is the
 * merged report's own, with `-replay`.
 */
import { shellWord } from './prepare-run.ts';

/** A --shard as replayCommand writes it (the selection, said last). */
const SHARD = / --shard \d+\/\d+(?= --|$)/g;
/** A --report-dir with its one shell word (bare, or single-quoted). */
const REPORT_DIR = / --report-dir (?:[A-Za-z0-9_./:@%+=,-]+|'(?:[^']|'\\'')*')(?= --|$)/;

export function wholeRunReplay(shardReplay: string, mergedReportDir: string): string {
  const dir = mergedReportDir.replace(/(.)\/+$/, '$1');
  const withoutShard = shardReplay.replace(SHARD, '');
  const reportDir = ` --report-dir ${shellWord(`${dir}-replay`)}`;
  return REPORT_DIR.test(withoutShard)
    ? withoutShard.replace(REPORT_DIR, () => reportDir)
    : withoutShard && `${withoutShard}${reportDir}`;
}
