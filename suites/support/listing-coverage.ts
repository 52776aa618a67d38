/**
 * How much of each listing the run judged (rule "No green without evidence"), from the run's notes of
 * every page (core/run/run-notes.ts: the page judges' notes, suites/judges/container-file-pages.ts and
 * intern-pages.ts), whichever check fetched the page: files and pages seen, and whether a page with
 * has_more false was. A listing not read to its end is said so with its cause, never failed.
 */
import type { ContainerCoverage, InternsCoverage, ListingCut, RunCoverage } from '../../core/run/coverage.ts';
import type { RunNotesView } from '../../core/run/run-notes.ts';
import { deadlineLeftMs, type RunSettings } from '../../core/run/run-settings.ts';
import type { TargetView } from '../../core/target/target.ts';
import type { FilePageNote } from './cross-walks.ts';
import type { InternPageNote } from './intern-prefixes.ts';
import { FULL_LISTING_DEADLINE_RESERVE, FULL_LISTING_LIMIT, FULL_LISTING_SHARE } from './traversal.ts';

export interface RunFacts {
  /** Requests the run sent. */
  requests: number;
  /** Why the run stopped sending, when it did. */
  stopped?: string;
}

const CONTAINER_FIELDS = ['containerId', 'restartedContainerId', 'emptyContainerId'] as const;

export function listingCoverage(
  notes: RunNotesView,
  target: TargetView,
  settings: Pick<RunSettings, 'maxRequests' | 'deadlineMs' | 'startedAt'>,
  facts: RunFacts,
  now = Date.now(),
): RunCoverage {
  const filePages = notes.of('files.pages') as FilePageNote[];
  const budgetSpent = facts.requests >= settings.maxRequests;
  // The full listing stops at its share of the budget or where a quarter of the deadline is left
  // (suites/support/traversal.ts fullListing); a run stopped (deadline, signal) stops every listing.
  const deadlineNear =
    facts.stopped !== undefined || deadlineLeftMs(settings, now) <= settings.deadlineMs * FULL_LISTING_DEADLINE_RESERVE;
  // The run's limits first; else no check asked past the first pages (interns, --grep, the other containers).
  const cutOf = (shareSpent: boolean, otherwise: ListingCut): ListingCut =>
    budgetSpent || shareSpent ? 'budget' : deadlineNear ? 'deadline' : otherwise;
  const containers: ContainerCoverage[] = [];
  const seenIds = new Set<string>();
  for (const field of CONTAINER_FIELDS) {
    const container = target.containerFiles[field];
    if (container === undefined || seenIds.has(container)) continue;
    seenIds.add(container);
    const pages = filePages.filter((p) => p.container === container);
    const paths = new Set<string>();
    for (const p of pages) for (const path of p.paths) paths.add(path);
    const ended = pages.some((p) => !p.hasMore);
    const row: ContainerCoverage = { container, field, pages: pages.length, files: paths.size, ended };
    // Only the main container is walked whole (the shared full listing, at limit 1000, within its share).
    const fullPages = pages.filter((p) => p.limit === String(FULL_LISTING_LIMIT)).length;
    const shareSpent = field === 'containerId' && fullPages >= Math.floor(settings.maxRequests * FULL_LISTING_SHARE);
    if (!ended) row.cut = cutOf(shareSpent, 'sampled');
    containers.push(row);
  }
  const internPages = notes.of('interns.pages') as InternPageNote[];
  const ids = new Set<string>();
  for (const p of internPages) for (const id of p.ids) ids.add(id);
  // A page filtered by status ending is not the end of the listing (4.3 "Lifecycle statuses to include").
  const statusName = target.interns.params?.status;
  const internsEnded = internPages.some(
    (p) => p.hasMore === false && (statusName === undefined || p.query[statusName] === undefined),
  );
  const interns: InternsCoverage = { pages: internPages.length, interns: ids.size, ended: internsEnded };
  if (!internsEnded) interns.cut = cutOf(false, target.interns.cursorParam === undefined ? 'no-cursor' : 'sampled');
  return { containers, interns };
}
