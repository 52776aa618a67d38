/**
 * List-interns pages of one query judged together: 2.6 "Newest first" and 4.3 "Lists the
 * interns visible to the authenticated key, newest first" make every page of a query the start of one
 * listing, so a page of k interns holds the k newest of them. Two pages of the same query (the same
 * filters and cursor, page sizes aside) show it broken when one lists an intern y the other leaves out
 * while listing an intern x older than y: y comes before x in the listing, so it belongs to any page
 * that holds x. Equal createdAt instants may come in any order (the cut may fall between them).
 */

/** What the run keeps of one 200 page of list interns asked with the management key: ids and instants, no body. */
export interface InternPageNote {
  /** The query as sent (wire names). */
  query: Readonly<Record<string, string>>;
  ids: readonly string[];
  /** createdAt of each intern in ms, or null when unreadable (interns.intern.timestamps' then). */
  at: ReadonlyArray<number | null>;
  /** has_more as sent, when a boolean: false is the end of the listing (the run's coverage). */
  hasMore?: boolean;
}

/** A page that left out a newer intern another page of the same query lists. */
export interface NotNewest {
  /** The page that left `newer` out. */
  page: InternPageNote;
  /** The page that lists it. */
  other: InternPageNote;
  /** The intern left out, and the older one the page lists instead. */
  newer: { id: string; at: number };
  older: { id: string; at: number };
}

/** Pages compared per query (a bound of the judge's own: pages beyond it are left uncompared, never failed). */
const PAGES_PER_QUERY = 24;

/** The query without the page size: pages of one listing share it. */
export function listingKey(query: Readonly<Record<string, string>>, pageSizeName: string): string {
  return JSON.stringify(
    Object.entries(query)
      .filter(([k]) => k !== pageSizeName)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** Every page (one finding per pair, at most `max`) that is not the newest interns of its query. */
export function notNewest(notes: readonly InternPageNote[], pageSizeName: string, max = 10): NotNewest[] {
  const byListing = new Map<string, InternPageNote[]>();
  for (const n of notes) {
    const key = listingKey(n.query, pageSizeName);
    const pages = byListing.get(key) ?? [];
    if (pages.length < PAGES_PER_QUERY) pages.push(n);
    byListing.set(key, pages);
  }
  const found: NotNewest[] = [];
  for (const pages of byListing.values()) {
    for (const page of pages) {
      // The oldest intern the page lists: any intern of the listing newer than it belongs on the page.
      const oldest = oldestOf(page);
      if (oldest === undefined) continue;
      const listed = new Set(page.ids);
      for (const other of pages) {
        if (other === page) continue;
        const i = other.ids.findIndex((id, j) => !listed.has(id) && (other.at[j] ?? -Infinity) > oldest.at);
        if (i < 0) continue;
        found.push({ page, other, newer: { id: other.ids[i]!, at: other.at[i]! }, older: oldest });
        if (found.length >= max) return found;
        break;
      }
    }
  }
  return found;
}

function oldestOf(page: InternPageNote): { id: string; at: number } | undefined {
  let oldest: { id: string; at: number } | undefined;
  for (const [j, at] of page.at.entries())
    if (at !== null && (oldest === undefined || at < oldest.at)) oldest = { id: page.ids[j]!, at };
  return oldest;
}
