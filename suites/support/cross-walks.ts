/**
 * Every listContainerFiles page a run received, whichever check fetched it, judged together:
 * a file one walk lists and another walk passes over. On one listing, every walk, whatever its limit
 * and wherever it began, lists right after a file p the same file: the next one in the listing's path
 * order ("Lists the files of a container in lexicographic path order", 4.1), within a page or across
 * a cursor ("Listing resumes strictly after that path"; a scan-bound page only moves the resume point
 * over hidden objects, 4.1 rule 3). Two walks that list different files right after p disagree, and
 * when the other walk shows the one file before the other (f, then later s), the walk that went from
 * p to s passed over f.
 *
 * Nothing here compares paths: "before" is what the target's own walks listed, so every faithful path
 * order (spec/readings.yaml) is judged alike, and a page that breaks a rule of its own is not used
 * (the page judge names that rule; suites/judges/container-file-pages.ts notes only pages it passes).
 */

/** What the run keeps of one 200 page of listContainerFiles asked with the management key: no body. */
export interface FilePageNote {
  container: string;
  /** The query as sent: `limit` and `after` (raw, undefined when absent). */
  limit: string | undefined;
  after: string | undefined;
  paths: readonly string[];
  lastId: string | null;
  hasMore: boolean;
}

/** The pages (one or a chain through empty scan-bound pages) that show `to` listed right after `from`. */
export interface Adjacency {
  from: string;
  to: string;
  /** 'page': both in one page; 'cursor': `from` ends a page, `to` begins the page after its last_id. */
  kind: 'page' | 'cursor';
  pages: readonly FilePageNote[];
}

/** A file a walk passed over: it listed `from` then `to`, another walk listed `skipped` between them. */
export interface PassedOver {
  walk: Adjacency;
  /** The other walk: `from` listed right before `skipped`, then `skipped` leads to `to`. */
  other: Adjacency;
  skipped: string;
  requirementId: 'files.pagination.next-page' | 'files.pagination.limit-independent';
}

/** Empty scan-bound pages followed in a row from one page before giving up on that pair (a bound of the judge's own: it only leaves a pair unseen). */
const MAX_EMPTY_HOPS = 1000;
/** Files followed from `skipped` looking for `to` (the same kind of bound). */
const MAX_REACH = 5000;
/** Disagreements looked into per run (the same kind of bound: a listing that disagrees everywhere is cut short, not failed for it). */
const MAX_SEARCHES = 500;

/** The pages asked with each `after`, in the order noted (one pass over the notes). */
function pagesByAfter(notes: readonly FilePageNote[]): Map<string, FilePageNote[]> {
  const byAfter = new Map<string, FilePageNote[]>();
  for (const n of notes) {
    if (n.after === undefined) continue;
    const same = byAfter.get(n.after);
    if (same) same.push(n);
    else byAfter.set(n.after, [n]);
  }
  return byAfter;
}

/** Every pair of files some page or cursor shows listed one right after the other. */
export function adjacencies(notes: readonly FilePageNote[]): Adjacency[] {
  const byAfter = pagesByAfter(notes);
  const out: Adjacency[] = [];
  for (const n of notes) {
    // A file listed twice in a row is no pair of two files (files.pagination.next-page's own walks judge it).
    for (let i = 1; i < n.paths.length; i++)
      if (n.paths[i - 1] !== n.paths[i]) out.push({ from: n.paths[i - 1]!, to: n.paths[i]!, kind: 'page', pages: [n] });
    const last = n.paths[n.paths.length - 1];
    if (last === undefined || n.lastId === null) continue;
    // The pages fetched with after = this page's last_id, through empty pages (4.1 rule 3 "data may be
    // empty") to the first that lists a file. Any limit: the listing resumes after the same position.
    const seen = new Set<string>([n.lastId]);
    let frontier: Array<{ cursor: string; chain: FilePageNote[] }> = [{ cursor: n.lastId, chain: [n] }];
    for (let hops = 0; frontier.length > 0 && hops < MAX_EMPTY_HOPS; hops++) {
      const next: typeof frontier = [];
      for (const { cursor, chain } of frontier) {
        for (const q of byAfter.get(cursor) ?? []) {
          const first = q.paths[0];
          if (first !== undefined) {
            if (first !== last) out.push({ from: last, to: first, kind: 'cursor', pages: [...chain, q] });
          } else if (q.lastId !== null && !seen.has(q.lastId)) {
            seen.add(q.lastId);
            next.push({ cursor: q.lastId, chain: [...chain, q] });
          }
        }
      }
      frontier = next;
    }
  }
  return out;
}

/**
 * The files walks passed over: for each file p listed right before two different files f and s, where
 * some walk leads from f to s (f listed before s), the walk that went from p to s passed over f. At
 * most `max` findings, one per walk pair.
 */
export function passedOver(notes: readonly FilePageNote[], max = 20): PassedOver[] {
  const pairs = adjacencies(notes);
  const after = new Map<string, Map<string, Adjacency>>();
  for (const a of pairs) {
    let m = after.get(a.from);
    if (!m) after.set(a.from, (m = new Map()));
    if (!m.has(a.to)) m.set(a.to, a);
  }
  const found: PassedOver[] = [];
  let searches = 0;
  for (const nexts of after.values()) {
    if (nexts.size < 2) continue;
    for (const [s, walk] of nexts) {
      for (const [f, other] of nexts) {
        if (f === s) continue;
        if (++searches > MAX_SEARCHES) return found;
        if (!leadsTo(after, f, s)) continue;
        found.push({
          walk,
          other,
          skipped: f,
          requirementId: walk.kind === 'cursor' ? 'files.pagination.next-page' : 'files.pagination.limit-independent',
        });
        if (found.length >= max) return found;
        break;
      }
    }
  }
  return found;
}

/** True when walks lead from `from` to `to` (each step a file listed right after another), within MAX_REACH files. */
function leadsTo(after: ReadonlyMap<string, ReadonlyMap<string, Adjacency>>, from: string, to: string): boolean {
  const seen = new Set<string>([from]);
  let frontier = [from];
  while (frontier.length > 0 && seen.size < MAX_REACH) {
    const next: string[] = [];
    for (const x of frontier) {
      for (const y of after.get(x)?.keys() ?? []) {
        if (y === to) return true;
        if (!seen.has(y)) {
          seen.add(y);
          next.push(y);
        }
      }
    }
    frontier = next;
  }
  return false;
}

/** The query a noted page was asked with (to ask it again, as evidence). */
export function queryOf(n: FilePageNote): { limit?: string; after?: string } {
  return { ...(n.limit !== undefined ? { limit: n.limit } : {}), ...(n.after !== undefined ? { after: n.after } : {}) };
}

/** A page in words: its limit and cursor. */
export function pageName(n: FilePageNote): string {
  const after =
    n.after === undefined ? 'from the start' : `after=${n.after.length > 80 ? `${n.after.slice(0, 80)}…` : n.after}`;
  return `the page at ${n.limit === undefined ? 'the default limit' : `limit=${n.limit}`} ${after}`;
}

/**
 * The page that lists the first file of a listing that starts with pages without a file (4.1 rule 3:
 * "`data` may be empty", from the first page on; 8 rule 1: how many hidden objects lie in a row is not
 * shown), as the run's walks found it: the pages from the start followed by their last_id through empty
 * pages to the first that lists a file, whichever check fetched them. Undefined when the run's first
 * page from the start lists a file, or when no walk of the run got past the empty ones.
 */
export function firstFilesAfterEmptyStart(notes: readonly FilePageNote[], container: string): FilePageNote | undefined {
  const mine = notes.filter((n) => n.container === container);
  const fromStart = mine.filter((n) => n.after === undefined);
  if (fromStart.length === 0 || fromStart.some((n) => n.paths.length > 0)) return undefined;
  const byAfter = pagesByAfter(mine);
  // Breadth first, each cursor once: linear in the notes whatever their cursors.
  const seen = new Set<string>();
  let frontier = fromStart;
  while (frontier.length > 0) {
    const next: FilePageNote[] = [];
    for (const n of frontier) {
      if (n.lastId === null || !n.hasMore || seen.has(n.lastId)) continue;
      seen.add(n.lastId);
      for (const q of byAfter.get(n.lastId) ?? []) {
        if (q.paths.length > 0) return q;
        next.push(q);
      }
    }
    frontier = next;
  }
  return undefined;
}
