/**
 * How much of each listing a run judged (rule "No green without evidence"): the verdict says what it
 * covers, so a listing read only in part is said so, with why (the run's own limits, never a failure).
 */

/**
 * Why a listing was not read to its end: the run's request budget, its deadline, only its first pages
 * asked (the interns, a container other than the main one, a --grep selection), or no way to the next page (interns: 4.3 "How to fetch
 * the page after one with has_more true: not shown", and the target file names no interns.cursorParam).
 */
export type ListingCut = 'budget' | 'deadline' | 'sampled' | 'no-cursor';

export interface ContainerCoverage {
  /** The container id as the target file gives it. */
  container: string;
  /** `containerId` (the main container), `restartedContainerId` or `emptyContainerId`: the target file's field. */
  field: string;
  /** Distinct pages the run received with the management key (one per query). */
  pages: number;
  /** Distinct file paths those pages listed. */
  files: number;
  /** Whether a page with has_more false was seen: the end of the listing. */
  ended: boolean;
  /** When not ended: why. */
  cut?: ListingCut;
}

export interface InternsCoverage {
  pages: number;
  interns: number;
  ended: boolean;
  cut?: ListingCut;
}

export interface RunCoverage {
  containers: ContainerCoverage[];
  interns: InternsCoverage;
}

/** In words, for every output: "read to its end", or where it stopped and why. */
export function cutText(cut: ListingCut | undefined): string {
  if (cut === 'budget') return 'not read to its end: the request budget (--max-requests) was spent on it';
  if (cut === 'deadline') return 'not read to its end: the deadline (--deadline) drew near';
  if (cut === 'sampled') return 'not read to its end: the checks ask only its first pages';
  if (cut === 'no-cursor')
    return 'not read to its end: how to fetch the next page is not shown (4.3) and interns.cursorParam is not set';
  return 'not read to its end';
}

/**
 * One line per listing, the same in summary.md, report.html and on the console. The container is named by
 * its target file field (report.json gives its id beside the target file).
 */
export function coverageLines(c: RunCoverage): string[] {
  return [
    ...c.containers.map(
      (k) =>
        `container ${k.field}: ${k.files} file(s) in ${k.pages} page(s), ${k.ended ? 'read to its end' : cutText(k.cut)}`,
    ),
    `interns: ${c.interns.interns} intern(s) in ${c.interns.pages} page(s), ${c.interns.ended ? 'read to its end' : cutText(c.interns.cut)}`,
  ];
}

/** The listings a run did not read to its end for its own limits (budget, deadline): --require-all names them. */
export function unfinishedListings(c: RunCoverage): string[] {
  return [
    ...c.containers
      .filter((k) => !k.ended && (k.cut === 'budget' || k.cut === 'deadline'))
      .map((k) => `container ${k.field} (${cutText(k.cut)})`),
    ...(!c.interns.ended && (c.interns.cut === 'budget' || c.interns.cut === 'deadline')
      ? [`interns (${cutText(c.interns.cut)})`]
      : []),
  ];
}
