/**
 * A listing may open with any number of pages without a file (4.1 rule 3 "`data` may be empty"; 8 rule 1:
 * the scan bound's value is not shown), more than a check's own short walk from the start can cross. A
 * check whose walk met only such pages has judged no file: it asks again from a cursor the run's shared
 * full listing at limit 1000 was answered files after (read once a run, then answered from the run's
 * memory), so that it judges files. Where that listing reaches none within its share of the budget, the
 * check says its requirement not judged with that cause, never passed (rule "No green without evidence").
 */
import type { ProbeContext } from '../../core/check/check.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import { LIMIT_DEFAULT, main, q } from './container-files.ts';
import { filesOf, walkPages, type FetchedPage } from './file-pages.ts';
import { listsNoFile } from './no-file-listed.ts';
import { listingNotRead, fullListing } from './traversal.ts';

/**
 * True when a walk from the start listed no file and its first page did not end the listing (that is
 * listsNoFile's case): the files, if any, lie past the pages it walked.
 */
export function onlyEmptyStart(pages: readonly FetchedPage[]): boolean {
  return filesOf(pages).length === 0 && !listsNoFile(pages);
}

/** A cursor files follow, or why the run's listing showed none. */
export type FilesCursor = { after: string; noFile?: undefined } | { after?: undefined; noFile: string };

/**
 * The cursor of the first page of the shared full listing that lists as many files as the default limit
 * or more (a page without limit asked there lists as many: 4.1 "default 100"), else of the page that lists
 * the most files: "the previous page's `last_id`" of 4.1 after. Where that page is the first of the listing,
 * its first file's id ("or any container file id": the page then resumes strictly after it). `asked` says
 * what the check asked, for the reason when the listing showed no file.
 */
export async function cursorBeforeFiles(ctx: ProbeContext, asked: string): Promise<FilesCursor> {
  let full: Awaited<ReturnType<typeof fullListing>>;
  try {
    full = await fullListing(ctx, main(ctx));
  } catch (e) {
    // A listing that cannot be followed is files.pagination.next-page's to fail; here it leaves the question open.
    if (!(e instanceof ConformanceFailure)) throw e;
    return {
      noFile: `${asked} listed no file, and the shared listing at limit 1000 could not be followed past them (${e.requirementId}: ${e.message})`,
    };
  }
  // The fuller pages end with the first that lists the most.
  const place = full.fullerPages.find((p) => p.files >= LIMIT_DEFAULT) ?? full.fullerPages.at(-1);
  if (place === undefined || full.files.length === 0) {
    const cut = listingNotRead(full);
    return {
      noFile: `${asked} listed no file, and ${cut ?? (full.complete ? `the shared listing at limit 1000 ended after ${full.pages} page(s) without one` : `the shared listing at limit 1000 stopped after ${full.pages} page(s) without one`)}`,
    };
  }
  return { after: place.after ?? full.files[0]!.id };
}

/** Pages walked again from a cursor files follow, or why none was reached. */
export type WalkedOn = { pages: FetchedPage[]; noFile?: undefined } | { pages?: undefined; noFile: string };

/**
 * The check's own walk (walkPages options, without `after`) asked again from cursorBeforeFiles. `asked`
 * says what the check asked, for the reason when no file was reached.
 */
export async function walkOnToFiles(
  ctx: ProbeContext,
  walk: Omit<Parameters<typeof walkPages>[2], 'after'>,
  asked: string,
): Promise<WalkedOn> {
  const at = await cursorBeforeFiles(ctx, asked);
  if (at.noFile !== undefined) return at;
  const { pages } = await walkPages(ctx, main(ctx), { ...walk, after: at.after });
  if (filesOf(pages).length === 0)
    return {
      noFile: `${asked} listed no file, nor did ${pages.length} page(s) asked alike after ${q(at.after)}, where the shared listing at limit 1000 listed files`,
    };
  return { pages };
}
