/**
 * Pages whose last_id names a file the page did not list, found among every listContainerFiles page a
 * run received (the run's notes, suites/support/cross-walks.ts FilePageNote). The next page resumes
 * strictly after the path a container file id names (4.1 `after`), so a walk that follows such a
 * last_id never lists that file, whatever other walks saw. 4.1 rule 3 lets a page that ended at the
 * scan bound name a scan position instead of its last file, but a scan position is where the scan of
 * hidden objects stopped, not a file passed over: a file some page of the run lists is no such position.
 */
import type { FilePageNote } from './cross-walks.ts';
import { pathOf } from './file-pages.ts';
import { afterInSomeOrder } from './path-order.ts';

/** 4.1: the default limit, the page size of a page asked without one. */
const DEFAULT_LIMIT = 100;

export interface FilePassedOverByLastId {
  /** The page whose last_id names `file`. */
  page: FilePageNote;
  /** The path last_id names: a file of the listing the page did not list. */
  file: string;
  /** A page of the run that lists `file`. */
  listedBy: FilePageNote;
  /**
   * True when the page holds as many files as its limit: it ended at its limit, not at the scan bound,
   * so 4.1 rule 2 ("`last_id` is the id of the last listed file") applies to it without exception.
   */
  full: boolean;
}

/** The limit a noted page was asked with, when it was asked in plain digits or without one. */
function askedLimit(n: FilePageNote): number | undefined {
  if (n.limit === undefined) return DEFAULT_LIMIT;
  return /^[0-9]{1,4}$/.test(n.limit) ? Number(n.limit) : undefined;
}

/**
 * Every page with has_more whose last_id is the container file id of a path some page of the same
 * container lists, that this page does not list, and that lies after the page's listed paths and after
 * its cursor (in a path order the document allows, 2.2 / 4.1): following it skips that file. A last_id
 * behind the page or its cursor is files.pagination.progress's, not this. Full pages first (their rule
 * has no exception), at most `max`.
 */
export function lastIdsPassingOver(notes: readonly FilePageNote[], max = 20): FilePassedOverByLastId[] {
  const listedBy = new Map<string, FilePageNote>();
  for (const n of notes)
    for (const p of n.paths) if (!listedBy.has(`${n.container}\n${p}`)) listedBy.set(`${n.container}\n${p}`, n);
  const found: FilePassedOverByLastId[] = [];
  for (const n of notes) {
    if (!n.hasMore || n.lastId === null) continue;
    const file = pathOf(n.lastId);
    if (file === undefined || n.paths.includes(file)) continue;
    const other = listedBy.get(`${n.container}\n${file}`);
    if (other === undefined) continue;
    const last = n.paths[n.paths.length - 1];
    if (last !== undefined && !afterInSomeOrder(last, file)) continue;
    const cursor = n.after === undefined ? undefined : pathOf(n.after);
    if (cursor !== undefined && !afterInSomeOrder(cursor, file)) continue;
    const limit = askedLimit(n);
    found.push({ page: n, file, listedBy: other, full: limit !== undefined && n.paths.length >= limit });
  }
  // Full pages first; otherwise in the notes' own order (sorted by request, not by arrival).
  return [...found.filter((f) => f.full), ...found.filter((f) => !f.full)].slice(0, max);
}
