import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** How much of an older report.json is read for its verdict: the verdict follows the short run section. */
const HEAD_BYTES = 64 * 1024;

/**
 * What a report directory the run could not write still holds, to end its error line: a reader who
 * finds report.json there must know it is not this run's (its verdict, read from its first bytes and
 * shown only if it is a verdict word). Undefined when the suite left no report there.
 */
export function olderReportNote(dir: string): string | undefined {
  let fd: number;
  try {
    // O_NOFOLLOW: a planted link is not read; O_NONBLOCK: a FIFO does not hold the run.
    fd = openSync(join(dir, 'report.json'), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const length = readSync(fd, head, 0, HEAD_BYTES, 0);
    const verdict = /"verdict": ?"([a-z-]{1,32})"/.exec(head.subarray(0, length).toString('utf8'))?.[1];
    return verdict
      ? `an older report remains there (report.json, verdict ${verdict.toUpperCase()}): it is not this run's`
      : "an older report.json remains there (its verdict unreadable): it is not this run's";
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
