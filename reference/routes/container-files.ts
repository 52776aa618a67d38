/** GET /containers/{container_id}/files — listContainerFiles (2.1, 2.2, 4.1, 8). */
import {
  CONTAINER_MAIN,
  CONTAINERS,
  containerWith,
  indexContainer,
  LARGE_LISTING,
  visiblePaths,
  withoutFiles,
  type HiddenRuns,
  type Container,
  type StoredObject,
} from '../data.ts';
import { filesError, type JsonResponse } from '../errors.ts';
import { FILE_ID_PREFIX, fileId, pathFromFileId } from '../ids.ts';
import type { FaultPosition, ReferenceOptions } from '../options.ts';
import { decodeSegment, extra, type RouteContext } from '../context.ts';
import { hasFault } from '../faults/index.ts';
import { recordIndex } from '../faults/records.ts';
import { single } from '../query.ts';
import { opaqueScanCursor, padsIds, readCursor } from '../cursor.ts';
import { readLimit } from '../limit.ts';
import { componentKeyOrder, inconsistentKeyOrder, orderedView, utf16KeyOrder, type KeyOrder } from '../path-orders.ts';
import { hasReading } from '../variants.ts';
import { servedOnce } from '../json-text.ts';

/** 4.1 / 8: limit 1..1000, default 100. */
const LIMIT_MIN = 1;
const LIMIT_MAX = 1000;
const LIMIT_DEFAULT = 100;

/** A container the reference does not know: listed as empty (see below). */
const NO_CONTAINER: Container = { objects: [], nextVisible: new Int32Array([0]), visibleCount: 0 };

export function listContainerFiles(ctx: RouteContext): JsonResponse {
  const { opts, query } = ctx;
  // 2.1: container_id echoes the path parameter; it is percent-decoded exactly once.
  const containerId = decodeSegment(ctx.rawParams.container_id ?? '');
  if (containerId === null) return filesError(400);

  const limitRaw = single(query, 'limit');
  if (!limitRaw.ok) return filesError(400);
  if (hasFault(opts, 'files-limit0-has-more-without-cursor') && limitRaw.value === '0')
    return { status: 200, body: { object: 'list', data: [], first_id: null, last_id: null, has_more: true } };
  let limit = readLimit(opts, limitRaw.value, LIMIT_MIN, LIMIT_MAX, LIMIT_DEFAULT);
  if (
    hasFault(opts, 'files-limit-above-maximum-served') &&
    /^[0-9]+$/.test(limitRaw.value ?? '') &&
    Number(limitRaw.value) > LIMIT_MAX
  )
    limit = { ok: true, value: Number(limitRaw.value) };
  if (hasFault(opts, 'files-default-limit-50') && limitRaw.value === undefined) limit = { ok: true, value: 50 };
  if (hasFault(opts, 'files-limit-1-rejected') && limitRaw.value === '1') limit = { ok: false };
  if (hasFault(opts, 'files-limit-bounds-not-enforced') && /^-?[0-9]+$/.test(limitRaw.value ?? ''))
    limit = { ok: true, value: Math.min(LIMIT_MAX, Math.max(LIMIT_MIN, Number(limitRaw.value))) };
  if (hasFault(opts, 'files-limit-non-integer-accepted')) limit = parseIntLimit(limitRaw.value);
  if (!limit.ok) return filesError(400);

  // 4.1 `after`: "the previous page's last_id, or any container file id" -> anything that is not
  // a well-formed container file id is malformed input (400). A well-formed id of a path that is
  // not in the container is fine: listing resumes strictly after that path.
  const afterRaw = single(query, 'after');
  if (!afterRaw.ok) return filesError(400);
  let afterKey: Buffer | null = null;
  if (afterRaw.value !== undefined) {
    const path = afterPath(opts, afterRaw.value);
    if (path !== null) afterKey = Buffer.from(path, 'utf8');
    else if (hasFault(opts, 'files-after-invalid-accepted'))
      afterKey = null; // fault: read as absent
    else return filesError(400);
  }

  // 4.1 lists no 404 (errors are 400, 401, 403, 429, 500, 503 only), so an unknown container id
  // is answered with an empty list rather than an undocumented status.
  if (hasFault(opts, 'errors-files-404-status') && !CONTAINERS.has(containerId))
    return {
      status: 404,
      body: {
        error: { code: 404, message: 'Container not found', metadata: null },
        service_metadata: null,
        user_id: null,
      },
    };
  if (hasFault(opts, 'files-restarted-container-rejected') && /-r[0-9a-z]+$/i.test(containerId)) return filesError(400);
  if (hasReading(opts, 'unknown-container-forbidden') && !CONTAINERS.has(containerId)) return filesError(403);
  const shaped = containerWith(containerId, listingShape(opts));
  const container =
    (opts.mainContainerEmpty && containerId === CONTAINER_MAIN && shaped ? withoutFiles(shaped) : shaped) ??
    NO_CONTAINER;
  if (
    hasFault(opts, 'files-after-unknown-path-rejected') &&
    afterKey !== null &&
    !container.objects.some((o) => o.key.equals(afterKey))
  )
    return filesError(400);
  let pageSize = limit.value;
  if (hasReading(opts, 'page-cap-50')) pageSize = Math.min(pageSize, 50);
  if (hasFault(opts, 'files-short-page-without-scan-bound')) pageSize = Math.max(1, pageSize - 1);
  if (hasFault(opts, 'files-page-larger-than-limit')) pageSize += 1;
  const body = page(ctx, containerId, container, afterKey, pageSize) as {
    data: Array<{ id: string }>;
    first_id: unknown;
  };
  if (hasFault(opts, 'files-limit-1-first-id-wrong') && limitRaw.value === '1' && body.data.length === 1)
    body.first_id = fileId('not-the-first-file.txt', { padded: opts.paddedIds });
  // Fault files-list-media-type: a JSON media type (RFC 6839), not the application/json of 4.1.
  if (hasFault(opts, 'files-list-media-type'))
    return { status: 200, body, headers: { 'content-type': 'application/vnd.api+json' } };
  return { status: 200, body };
}

/** First index whose key is strictly greater than `after` (byte-wise UTF-8 order, 4.1 "strictly after"). */
function startIndex(
  objects: readonly StoredObject[],
  after: Buffer | null,
  compare: (a: Buffer, b: Buffer) => number = Buffer.compare,
): number {
  if (after === null) return 0;
  let lo = 0;
  let hi = objects.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(objects[mid]!.key, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One page. The scan walks the key space in path order from just after the cursor and stops at
 * whichever comes first:
 * - `limit` visible files collected -> last_id = last listed file (4.1 rule 2);
 * - options.scanBound hidden objects skipped in this request (8 rule 1) -> last_id = the id of the
 *   last hidden object scanned, which is not in `data`; data may be empty (4.1 rule 3);
 * - the end of the key space.
 * has_more is true exactly when a visible file exists after the resume position, so a traversal
 * never ends with an empty page except at the scan bound, and never fetches a page that can only
 * be empty (2.2: "true when another page can be fetched").
 */
function page(
  ctx: RouteContext,
  containerId: string,
  container: Container,
  after: Buffer | null,
  limit: number,
): unknown {
  const { opts } = ctx;
  const caseInsensitive = hasFault(opts, 'pagination-wrong-sort-order');
  const keyOrder = readingKeyOrder(opts);
  const c = caseInsensitive ? caseInsensitiveView(container) : keyOrder ? orderedView(container, keyOrder) : container;
  // Fault files-limit-above-maximum-served lifts the scan bound too, so a page above the maximum shows.
  const bound =
    hasFault(opts, 'files-limit-above-maximum-served') && limit > LIMIT_MAX ? Infinity : Math.max(1, opts.scanBound);
  const data: unknown[] = [];
  let lastListed: StoredObject | null = null;
  let lastListedAt = -1; // index of lastListed in c.objects
  let scanPosition: StoredObject | null = null; // set when the page ends at the scan bound
  let hiddenSkipped = 0;
  let i = startIndex(c.objects, after, caseInsensitive ? compareCaseInsensitive : (keyOrder ?? Buffer.compare));
  const start = i;
  if (hasFault(opts, 'files-after-inclusive') && after !== null && i > 0 && c.objects[i - 1]!.key.equals(after)) i--;
  if (hasFault(opts, 'pagination-skip-item-between-pages') && after !== null)
    i = (c.nextVisible[i] ?? c.objects.length) + 1;
  for (; i < c.objects.length && data.length < limit; i++) {
    const o = c.objects[i]!;
    if (o.hidden) {
      hiddenSkipped++;
      if (hiddenSkipped >= bound) {
        scanPosition = o;
        i++;
        break;
      }
      continue;
    }
    data.push(fileObject(ctx, containerId, o));
    lastListed = o;
    lastListedAt = i;
  }
  if (hasFault(opts, 'files-locale-order') && data.length > 3)
    data.splice(
      1,
      data.length - 2,
      ...(data.slice(1, -1) as Array<{ path: string }>).sort((a, b) => a.path.localeCompare(b.path)),
    );
  // i is the index just after the resume position.
  let hasMore =
    (c.nextVisible[i] ?? c.objects.length) < c.objects.length &&
    !(hasFault(opts, 'pagination-has-more-false-on-truncated-page') && scanPosition !== null);
  // has-more-when-full: no look-ahead; a full page or one that ended at the scan bound says more may follow.
  if (hasReading(opts, 'has-more-when-full'))
    hasMore = i < c.objects.length && (data.length >= limit || scanPosition !== null);
  // Fault: a page that lists files and leaves one or two after them says the listing ended.
  if (hasFault(opts, 'files-has-more-false-near-end') && hasMore && lastListed !== null && scanPosition === null) {
    const second = c.nextVisible[(c.nextVisible[i] ?? c.objects.length) + 1] ?? c.objects.length;
    const third = second < c.objects.length ? (c.nextVisible[second + 1] ?? c.objects.length) : c.objects.length;
    if (third >= c.objects.length) hasMore = false;
  }
  // Fault files-listed-twice: the first file again in the second place (the second file is lost).
  if (hasFault(opts, 'files-listed-twice') && data.length >= 3) data[1] = data[0];
  let lastId: string | null;
  if (scanPosition !== null && hasMore)
    lastId =
      hasReading(opts, 'scan-cursor-opaque') ||
      hasReading(opts, 'scan-cursor-bare-base64') ||
      hasFault(opts, 'files-scan-cursor-refused')
        ? opaqueScanCursor(scanPosition.path, opts)
        : idOf(opts, scanPosition.path); // rule 3
  else if (lastListed !== null)
    lastId = idOf(opts, lastListed.path); // rule 2
  // Reading empty-last-page-echoes-after: rule 4 allows null here, and the page may name where it stands.
  else if (hasReading(opts, 'empty-last-page-echoes-after') && after !== null && !hasMore)
    lastId = idOf(opts, after.toString('utf8'));
  else lastId = null; // rule 4: only with has_more false and empty data
  if (hasFault(opts, 'files-last-id-null-with-has-more') && hasMore) lastId = null;
  if (hasFault(opts, 'files-last-id-not-last') && scanPosition === null && data.length > 1)
    lastId = (data[0] as { id: string }).id;
  // Fault: at limits 21 to 64 a full page's last_id names the next file, which the page did not list;
  // the walk resumes after it and never lists it. Each page alone keeps every rule of one page.
  if (
    hasFault(opts, 'files-last-id-skips-file-at-some-limits') &&
    scanPosition === null &&
    hasMore &&
    data.length === limit &&
    limit >= 21 &&
    limit <= 64
  )
    lastId = idOf(opts, c.objects[c.nextVisible[i]!]!.path);
  // Faults: the page's last listed file is followed by a run of hidden objects the scan bound cannot
  // cross in one request, and last_id names the first file after that run (a look-ahead for has_more
  // that names what it found), which the page did not list: a walk resumes after it and never lists it.
  if (hasMore && lastListedAt >= 0) {
    const next = c.nextVisible[lastListedAt + 1] ?? c.objects.length;
    const longRun = next < c.objects.length && next - lastListedAt - 1 >= bound;
    // Near the start: on every page whose look-ahead finds one of the container's first ten files.
    if (longRun && hasFault(opts, 'files-last-id-loses-file-near-start') && visibleRank(c, next, 10) < 10)
      lastId = idOf(opts, c.objects[next]!.path);
    // Only on a page that ended at its limit, anywhere in the listing.
    if (
      longRun &&
      hasFault(opts, 'files-full-page-last-id-skips-file') &&
      scanPosition === null &&
      data.length === limit
    )
      lastId = idOf(opts, c.objects[next]!.path);
  }
  if (hasFault(opts, 'files-scan-bound-position-behind') && scanPosition !== null && hasMore && lastListed !== null)
    lastId = idOf(opts, `${[...lastListed.path].slice(0, -1).join('')}\u0000`);
  if (hasFault(opts, 'files-null-last-id-with-data') && !hasMore) lastId = null;
  if (hasFault(opts, 'files-null-last-id-one-file-last-page') && !hasMore && data.length === 1) lastId = null;
  if (hasFault(opts, 'pagination-cursor-cycle') && hasMore && after !== null)
    lastId = idOf(opts, after.toString('utf8'));
  if (hasFault(opts, 'pagination-cursor-backwards') && hasMore && start > 1)
    lastId = idOf(opts, c.objects[start - 2]!.path);
  let first = data.length > 0 && !opts.firstIdNull ? (data[0] as { id: string }).id : null; // rule 5
  if (hasFault(opts, 'files-first-id-wrong') && data.length > 1) first = (data[data.length - 1] as { id: string }).id;
  const list = { object: 'list', data, first_id: first, last_id: lastId, has_more: hasMore };
  if (hasFault(opts, 'files-empty-container-has-more') && container !== NO_CONTAINER && container.visibleCount === 0)
    Object.assign(list, { has_more: true, last_id: null });
  if (hasFault(opts, 'files-list-wrong-object')) list.object = 'container.file.list';
  return extra(opts, list);
}

/** How many visible objects come before index `at` of the container, counted up to `upTo`. */
function visibleRank(c: Container, at: number, upTo: number): number {
  let rank = 0;
  for (
    let i = c.nextVisible[0] ?? c.objects.length;
    i < at && rank < upTo;
    i = c.nextVisible[i + 1] ?? c.objects.length
  )
    rank++;
  return rank;
}

/** Each file as one reference serves it in one container, made once (reference/json-text.ts). */
const servedFile = servedOnce<StoredObject>();

function fileObject(ctx: RouteContext, containerId: string, o: StoredObject): unknown {
  return servedFile(ctx.opts, containerId, o, () => madeFileObject(ctx.opts, containerId, o));
}

function madeFileObject(opts: ReferenceOptions, containerId: string, o: StoredObject): object {
  const file = {
    id: idOf(opts, o.path),
    object: 'container.file',
    container_id: containerId,
    bytes: o.bytes,
    created_at: o.created_at,
    path: shownPath(opts, o.path),
    source: 'assistant',
  };
  if (hasFault(opts, 'files-wrong-object')) file.object = 'file';
  if (hasFault(opts, 'files-wrong-source')) file.source = 'user';
  if (hasFault(opts, 'files-container-id-not-echoed')) file.container_id = containerId.replace(/-r[0-9a-z]+$/i, '');
  if (hasFault(opts, 'files-created-at-millis')) file.created_at = o.created_at * 1000;
  const faulty =
    opts.faults.length > 0 &&
    containerId === CONTAINER_MAIN &&
    o.path === recordFaultPath(opts.faultPosition, listingShape(opts));
  if (faulty && hasFault(opts, 'files-record-source-user')) file.source = 'user';
  if (
    faulty &&
    (hasFault(opts, 'files-record-object-file') || hasFault(opts, 'files-large-listing-record-object-file'))
  )
    file.object = 'file';
  if (faulty && hasFault(opts, 'files-record-created-at-millis')) file.created_at = o.created_at * 1000;
  return extra(opts, file);
}

/**
 * The id codec of 2.1 (cfile_ + base64url of the path) as the route writes ids and reads `after`.
 * The id faults of reference/faults/container-files.ts switch here, on both sides, so that what
 * the route writes it reads back and only the id rule breaks.
 */
function idOf(opts: ReferenceOptions, path: string): string {
  const shown = shownPath(opts, path);
  if (hasFault(opts, 'files-raw-path-ids')) return FILE_ID_PREFIX + shown;
  // The id is changed here, in the codec, so first_id, last_id and the cursor agree with data[].id.
  if (hasFault(opts, 'files-record-id-other-path') && path === recordFaultPath(opts.faultPosition, listingShape(opts)))
    return fileId(`${shown}\u0000`, { padded: padsIds(opts) });
  const id = fileId(shown, { padded: padsIds(opts) });
  if (hasFault(opts, 'files-standard-base64-ids'))
    return FILE_ID_PREFIX + id.slice(FILE_ID_PREFIX.length).replaceAll('-', '+').replaceAll('_', '/');
  return id;
}

/** The path an `after` value names, or null when it is not a container file id (see idOf). */
function afterPath(opts: ReferenceOptions, id: string): string | null {
  let path: string | null;
  if (hasFault(opts, 'files-raw-path-ids'))
    path = id.startsWith(FILE_ID_PREFIX) && id.length > FILE_ID_PREFIX.length ? id.slice(FILE_ID_PREFIX.length) : null;
  else if (hasFault(opts, 'files-standard-base64-ids'))
    path = id.startsWith(FILE_ID_PREFIX)
      ? pathFromFileId(FILE_ID_PREFIX + id.slice(FILE_ID_PREFIX.length).replaceAll('+', '-').replaceAll('/', '_'))
      : null;
  else if (hasFault(opts, 'files-after-unprefixed-accepted') && !id.startsWith(FILE_ID_PREFIX))
    path = readCursor(opts, FILE_ID_PREFIX + id);
  else path = readCursor(opts, id);
  // Fault: the cursor's path normalised to NFC before the comparison: after the NFD spelling of a path
  // whose NFC spelling is listed too, the NFC one is skipped (4.1 "resumes strictly after that path").
  if (hasFault(opts, 'files-after-nfc-normalized') && path !== null) path = path.normalize('NFC');
  if (hasFault(opts, 'files-absolute-paths') && path !== null) {
    // Shown paths are "/" + stored: a path before "/" is before all of them, one after it after all.
    if (path.startsWith('/')) path = path.slice(1);
    else path = Buffer.compare(Buffer.from(path), Buffer.from('/')) < 0 ? '' : '\u{10FFFF}';
  }
  return path;
}

/** 2.1 `path` as listed: relative to the container (the fault makes it absolute). */
function shownPath(opts: ReferenceOptions, path: string): string {
  if (hasFault(opts, 'files-absolute-paths')) return `/${path}`;
  return path;
}

/** Fault files-limit-non-integer-accepted: parseInt, unparseable -> default; bounds still enforced. */
function parseIntLimit(raw: string | undefined): { ok: true; value: number } | { ok: false } {
  const n = raw === undefined ? LIMIT_DEFAULT : parseInt(raw, 10);
  const value = Number.isNaN(n) ? LIMIT_DEFAULT : n;
  return value >= LIMIT_MIN && value <= LIMIT_MAX ? { ok: true, value } : { ok: false };
}

/** Fault pagination-wrong-sort-order: the key space ordered case-insensitively, not byte-wise. */
function compareCaseInsensitive(a: Buffer, b: Buffer): number {
  return (
    Buffer.compare(Buffer.from(a.toString('utf8').toLowerCase()), Buffer.from(b.toString('utf8').toLowerCase())) ||
    Buffer.compare(a, b)
  );
}

const caseInsensitiveViews = new WeakMap<Container, Container>();
function caseInsensitiveView(c: Container): Container {
  let view = caseInsensitiveViews.get(c);
  if (!view) {
    view = indexContainer([...c.objects].sort((a, b) => compareCaseInsensitive(a.key, b.key)));
    caseInsensitiveViews.set(c, view);
  }
  return view;
}

const recordFaultPaths = new Map<string, string>();
/** The one file of the main container (as served with `runs`) the record faults (reference/faults/records.ts) break: first, middle or last in path order. */
function recordFaultPath(position: FaultPosition, runs: HiddenRuns | null): string {
  const key = JSON.stringify([position, runs]);
  let path = recordFaultPaths.get(key);
  if (path === undefined) {
    const paths = visiblePaths(CONTAINER_MAIN, runs);
    path = paths[recordIndex(position, paths.length)] ?? '';
    recordFaultPaths.set(key, path);
  }
  return path;
}

/** The runs of hidden objects the main container is served with: the option's, or the large listing its faults need. */
function listingShape(opts: ReferenceOptions): HiddenRuns | null {
  if (hasFault(opts, 'files-large-listing-record-object-file')) return LARGE_LISTING;
  return opts.hiddenRuns;
}

/** The key order of the reading or fault switched on, or undefined for the byte-wise order of data.ts. */
function readingKeyOrder(opts: ReferenceOptions): KeyOrder | undefined {
  if (hasFault(opts, 'files-order-inconsistent')) return inconsistentKeyOrder;
  if (hasReading(opts, 'path-order-utf16')) return utf16KeyOrder;
  if (hasReading(opts, 'path-order-components')) return componentKeyOrder;
  return undefined;
}
