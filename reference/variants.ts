import { LARGE_LISTING } from './data.ts';
import type { ReferenceOptions } from './options.ts';

/**
 * Conformant variants: the reference with other legal choices where the document is silent or
 * lenient, or with another reading of words that admit more than one (spec/readings.yaml names each
 * reading and its variant). The suite must judge every one of them conformant (rule "Verdicts in both directions": a false
 * failure on a conformant implementation is as bad as a missed fault).
 */
export interface ConformantVariant {
  name: string;
  /** The legal choices it makes, with the section that leaves them open. */
  description: string;
  options: Partial<ReferenceOptions>;
  /**
   * MUST requirements this variant cannot have judged, each with why (its reading leaves the suite
   * nothing to judge them on). The self-test fails a variant on any other MUST not judged (skip,
   * not reached, error): conformant means conformant with every MUST the suite can ask of it.
   */
  unjudged?: ReadonlyArray<{ id: string; why: string }>;
  /**
   * Why the command line refuses the target file this variant prints at its preflight, before any check
   * (exit 2, rule "Bad input exits 2"): only the engine alone judges it, so runs through the command line
   * leave it out.
   */
  refusedByPreflight?: string;
}

/**
 * One switch per reading, like a fault: route code asks `hasReading(opts, 'name')`. Each is another
 * faithful reading of the service document's words (spec/readings.yaml says which words and why).
 */
export const READING_SWITCHES = [
  'path-order-utf16',
  'path-order-components',
  'cursor-lenient-base64',
  'cursor-standard-alphabet',
  'cursor-padding-required',
  'cursor-control-refused',
  'cursor-absolute-refused',
  'scan-cursor-opaque',
  'scan-cursor-bare-base64',
  'limit-clamped',
  'limit-number-spellings',
  'limit-empty-default',
  'limit-spelling-default',
  'has-more-when-full',
  'empty-last-page-echoes-after',
  'page-cap-50',
  'unknown-container-forbidden',
  'pricing-exponent',
  'unknown-model-403',
  'forbidden-model-404',
  'errors-problem-json',
  'models-error-string-codes',
  'interns-omit-null-fields',
  'workspace-mismatch-empty',
  'workspace-malformed-forbidden',
  'status-filter-lenient',
  'auth-basic-accepted',
  'bearer-case-sensitive',
] as const;
export type ReadingSwitch = (typeof READING_SWITCHES)[number];

/** True when the reading `name` is switched on. */
export function hasReading(options: Pick<ReferenceOptions, 'readings'>, name: ReadingSwitch): boolean {
  return options.readings.includes(name);
}

/** Names in `readings` that READING_SWITCHES does not declare (a typo would otherwise silently change nothing). */
export function unknownReadings(readings: readonly string[]): string[] {
  return readings.filter((r) => !(READING_SWITCHES as readonly string[]).includes(r));
}

/** A variant made of one reading switch. */
function reading(name: ReadingSwitch, description: string): ConformantVariant {
  return { name, description, options: { readings: [name] } };
}

export const CONFORMANT_VARIANTS: readonly ConformantVariant[] = [
  {
    name: 'padded-ids-null-first-id',
    description:
      'ids keep their "=" padding (RFC 4648 section 5 leaves padding open); first_id is always null (4.1 rule 5)',
    options: { paddedIds: true, firstIdNull: true },
  },
  {
    name: 'tiny-scan-bound',
    description:
      'a scan bound of 3 hidden objects (value not shown, 8 rule 1): many empty pages with has_more true (4.1 rule 3)',
    options: { scanBound: 3 },
  },
  // ---- data shapes the reference's own data lacks: the document bounds neither the scan bound (8 rule 1:
  // "its value: not shown") nor how many hidden objects lie in a row, and "`data` may be empty" (4.1 rule 3),
  // so any number of empty pages in a row is faithful; the suite's own page bounds may never fail them.
  {
    name: 'long-hidden-runs',
    description:
      'runs of 3000 hidden bookkeeping objects in a row after every 500th visible file, the first file included (8 rule 1, 4.1 rule 3): 46 or more empty pages in a row at every limit',
    options: { hiddenRuns: { length: 3000, every: 500 } },
  },
  {
    name: 'large-listing',
    description:
      'a main container of 20,000 files with runs of 3000 hidden bookkeeping objects in a row after every 2000th visible file, the first included (8 rule 1, 4.1 rule 3): about 500 pages at limit 1000, 470 of them empty',
    options: { hiddenRuns: LARGE_LISTING },
  },
  {
    name: 'scan-bound-1',
    description:
      'a scan bound of 1 hidden object (value not shown, 8 rule 1), and 5 hidden objects in a row after every 100th visible file, the first included: every hidden object ends a page, so as many empty pages in a row as hidden objects lie in a row (4.1 rule 3)',
    options: { scanBound: 1, hiddenRuns: { length: 5, every: 100 } },
  },
  {
    name: 'hidden-listing-start',
    description:
      'a listing that starts with 300 hidden bookkeeping objects in a row, at a scan bound of 1 (8 rule 1, 4.1 rule 3): its first 300 pages at every limit are empty with has_more true, and 5 hidden objects follow every 100th visible file',
    options: { scanBound: 1, hiddenRuns: { length: 5, every: 100, leading: 300 } },
  },
  {
    name: 'key-without-interns',
    description:
      'the management key sees no intern (4.3: the key selects the visible interns, and nothing says a workspace holds any): every interns page is empty with has_more false',
    options: { internsNone: true },
    // Every rule of an intern record, and the key's workspace of every intern listed, need an intern;
    // so do the rules over the interns a page lists: their order, states, workspace and count.
    unjudged: [
      ...[
        'interns.intern.fields-present',
        'interns.intern.field-types',
        'interns.intern.uuid-fields',
        'interns.intern.timestamps',
        'interns.intern.hostname-shape',
        'interns.intern.hostname-label-name',
        'interns.intern.model-shape',
        'interns.intern.status-value',
        'interns.intern.workspace-of-key',
      ].map((id) => ({ id, why: 'the key lists no intern: no record to judge (2.5, 4.3)' })),
      ...[
        'interns.order.newest-first',
        'interns.status.filter',
        'interns.workspace.filter',
        'interns.limit.respected',
      ].map((id) => ({
        id,
        why: 'the key lists no intern: no page lists one whose order, state, workspace or count to judge (2.6, 4.3)',
      })),
    ],
  },
  {
    name: 'empty-main-container',
    description:
      'the main container holds no file, only its hidden bookkeeping objects (2.2 data "May be empty"; nothing says the container a target file names holds one): every page of its listing is empty with has_more false',
    options: { mainContainerEmpty: true },
    // The command line refuses such a target file before any check (cli/preflight.ts, rule
    // "Bad input exits 2"); the engine alone judges it: what needs a listed file is said not judged, with that cause.
    refusedByPreflight:
      'containerFiles.containerId lists no file: the listContainerFiles checks need a container that has files',
    unjudged: [
      ...[
        'files.file.schema',
        'files.file.id-encodes-path',
        'files.file.id-url-safe-alphabet',
        'files.file.created-at-seconds',
      ].map((id) => ({ id, why: 'the main container lists no file: no record to judge (2.1)' })),
      ...[
        'files.list.path-order',
        'files.limit.default-value',
        'files.limit.default-maximum',
        'files.limit.page-size',
        'files.after.strictly-after',
        'files.pagination.last-id-is-last-listed',
        'files.pagination.progress',
        'files.pagination.limit-independent',
      ].map((id) => ({
        id,
        why: 'the main container lists no file: no page lists one whose order, count, resumption or cursor to judge (2.2, 4.1)',
      })),
      ...['files.pagination.last-id-when-has-more', 'files.pagination.scan-bound-position'].map((id) => ({
        id,
        why: 'the main container lists no file, and every page of it and of the empty container ends the listing: no page with has_more true or ending at the scan bound to judge (4.1 rules 1 and 3)',
      })),
    ],
  },
  {
    name: 'sparse-visible-files',
    description:
      'a visible file only after every 250 hidden bookkeeping objects (8 rule 1, 4.1 rule 3), among every 30th file of the container: about four pages per file at every limit, three of them empty',
    options: { hiddenRuns: { length: 250, every: 1, visibleEvery: 30 } },
  },
  {
    name: 'sparse-extra-charset',
    description:
      'endpoint fields null or absent where nullability and presence are not shown (2.4); unknown extra fields everywhere; Content-Type application/json; charset=utf-8',
    options: { sparseEndpoints: true, extraFields: true, contentType: 'application/json; charset=utf-8' },
  },
  {
    name: 'other-silent-choices',
    description:
      'interns query parameters named page_size/statuses/workspace (4.3), default page size 20 (8 rule 2), string-coded errors on 422/410/503 (7.3), restricted key accepted by list interns (5)',
    options: {
      internsParams: { limit: 'page_size', status: 'statuses', workspace: 'workspace' },
      internsDefaultPageSize: 20,
      stringErrorStatus: { invalid_body: 422, not_found: 410, internal_error: 503 },
      restrictedKeyAcceptedBy: ['listInterns'],
    },
  },
  {
    name: 'transient-statuses',
    description:
      'every 7th request of list interns answered 408 (7.3, 8 rule 4) and every 7th of listContainerFiles 503 or 429 (7.1, 8 rule 3), with Retry-After: 0: statuses that can come on any request',
    options: { transientEvery: 7 },
  },
  reading(
    'empty-last-page-echoes-after',
    'an empty last page (has_more false, a cursor at or past the last file) names the position it resumed from: last_id is the after it was asked with, not null (4.1 rules 3 and 4)',
  ),
  // ---- readings of the document's words (spec/readings.yaml)
  reading(
    'path-order-utf16',
    '"lexicographic path order" (2.2, 4.1) as UTF-16 code-unit order, the default string order of Java, JavaScript and C#: paths and cursors compared that way',
  ),
  reading(
    'path-order-components',
    '"lexicographic path order" (2.2, 4.1) over the path\'s `/`-separated components, as pathlib and file-system listers sort: `a/b/c.txt` before `a b.txt`; paths and cursors compared that way',
  ),
  reading(
    'cursor-lenient-base64',
    "after decoded as Node's base64url decoder does (2.1, 7.1 do not say how strictly): an impossible length, stray characters and either alphabet are accepted when the cfile_ prefix is there",
  ),
  reading(
    'cursor-standard-alphabet',
    'after decoded as Python\'s urlsafe_b64decode does: "+" and "/" accepted beside "-" and "_", an impossible length refused',
  ),
  reading(
    'cursor-padding-required',
    'ids carry "=" padding (the RFC 4648 section 3.2 default) and after must carry it too: an unpadded id of a length that needs padding is malformed input (7.1 400)',
  ),
  reading(
    'cursor-control-refused',
    'after naming a path with NUL or another control character is refused with 400: 2.1 gives no path grammar, and no file can have such a path',
  ),
  reading(
    'cursor-absolute-refused',
    'after naming a path that begins with "/" is refused with 400: 2.1 says a path is relative to the container, so no file has such a path',
  ),
  reading(
    'scan-cursor-opaque',
    'a page that ends at the scan bound names the scan position with an opaque token (4.1 rule 3 "names the scan position"), which after accepts back',
  ),
  reading(
    'scan-cursor-bare-base64',
    'a page that ends at the scan bound names the scan position by the bare base64url of its path, without the cfile_ prefix (4.1 rule 3 "names the scan position"); after reads any such value back as a scan position',
  ),
  reading(
    'limit-clamped',
    '"Minimum 1, maximum 1000" / "Minimum 1, maximum 500" (4.1, 4.3) as the bounds of the page size used: an out-of-range integer limit is clamped into range',
  ),
  reading(
    'limit-number-spellings',
    'an integer limit may be spelled as a number: "1e2", "2.0", "+5", "05", "0x10" read with Number() (4.1, 4.3 say "integer", not its spelling)',
  ),
  reading(
    'limit-spelling-default',
    'a limit that is an integer spelled otherwise than in plain digits ("1e2", "05", "+5", "2.0", "0x10") is taken as no limit: the default page (4.1 says "integer", not its spelling; general.integer-spelling)',
  ),
  reading(
    'limit-empty-default',
    'an empty limit (`limit=`) is read as no limit, so the default applies (4.1, 8; 8 rule 2 for interns)',
  ),
  reading(
    'has-more-when-full',
    'has_more is true whenever the page is full or ends at the scan bound, without looking ahead: the next page may be empty with has_more false (2.2 "another page can be fetched")',
  ),
  reading(
    'page-cap-50',
    'limit is a maximum: a page holds at most 50 files whatever the limit, ending with has_more true and last_id its last file (4.1 never says a page is full)',
  ),
  reading(
    'unknown-container-forbidden',
    'a container id the key cannot see is answered 403 (a documented status of 4.1), not with an empty list',
  ),
  reading(
    'pricing-exponent',
    'pricing strings written as Python prints floats: "2.5e-06", "1e-05", "0.0" (2.4 "a string holding a decimal number")',
  ),
  reading(
    'unknown-model-403',
    'a model that does not exist is answered 403 (4.2 lists 403, 404, 500 and 7.2 ties no condition to 404): existence is not revealed',
  ),
  reading(
    'forbidden-model-404',
    'a model the key may not read is answered 404, as if it did not exist (5 rule 3 names 403; 4.2 lists 404 as well): existence is not revealed',
  ),
  reading(
    'models-error-string-codes',
    'every error of the model-endpoints operation (401, 403, 404) carries a string error.code (unauthorized, forbidden, not_found): section 7 "integer, or string on some operations", and 7.2 ties no code to a status',
  ),
  reading(
    'errors-problem-json',
    'error responses carry Content-Type application/problem+json with the section 7 body (section 1 says only that the API exchanges JSON)',
  ),
  reading(
    'interns-omit-null-fields',
    'the four nullable intern fields are left out when null (2.5: "Null is a possible value")',
  ),
  reading(
    'workspace-mismatch-empty',
    "a workspace filter that is not the key's workspace lists no intern: 200 with an empty data, no fallback (4.3)",
  ),
  reading(
    'workspace-malformed-forbidden',
    'a workspace filter that is not a UUID does not "match the workspace of the API key" and is refused with 403 Forbidden (4.3, 7.3)',
  ),
  reading(
    'status-filter-lenient',
    'status filter values matched case-insensitively, blanks around and empty elements ignored (4.3 "comma-separated list of values from section 3")',
  ),
  reading(
    'auth-basic-accepted',
    'the valid API key is also accepted in the Basic scheme (5 rule 2 gives 401 when the header is missing or the key invalid; here it is neither)',
  ),
  reading(
    'bearer-case-sensitive',
    'only the scheme spelled `Bearer`, as 5 rule 1 writes it, is accepted; `bearer <key>` is refused with 401',
  ),
];
