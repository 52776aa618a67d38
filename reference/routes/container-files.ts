/** GET /containers/{container_id}/files — listContainerFiles (2.1, 2.2, 4.1, 8). */
import { CONTAINERS, type Container, type StoredObject } from '../data.ts';
import { filesError, type JsonResponse } from '../errors.ts';
import { fileId, pathFromFileId } from '../ids.ts';
import { decodeSegment, extra, type RouteContext } from '../context.ts';
import { single, strictInt } from '../query.ts';

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
  const limit = strictInt(limitRaw.value, LIMIT_MIN, LIMIT_MAX, LIMIT_DEFAULT);
  if (!limit.ok) return filesError(400);

  // 4.1 `after`: "the previous page's last_id, or any container file id" -> anything that is not
  // a well-formed container file id is malformed input (400). A well-formed id of a path that is
  // not in the container is fine: listing resumes strictly after that path.
  const afterRaw = single(query, 'after');
  if (!afterRaw.ok) return filesError(400);
  let afterKey: Buffer | null = null;
  if (afterRaw.value !== undefined) {
    const path = pathFromFileId(afterRaw.value);
    if (path === null) return filesError(400);
    afterKey = Buffer.from(path, 'utf8');
  }

  // 4.1 lists no 404 (errors are 400, 401, 403, 429, 500, 503 only), so an unknown container id
  // is answered with an empty list rather than an undocumented status.
  const container = CONTAINERS.get(containerId) ?? NO_CONTAINER;
  return { status: 200, body: page(ctx, containerId, container, afterKey, limit.value) };
}

/** First index whose key is strictly greater than `after` (byte-wise UTF-8 order, 4.1 "strictly after"). */
function startIndex(objects: readonly StoredObject[], after: Buffer | null): number {
  if (after === null) return 0;
  let lo = 0;
  let hi = objects.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Buffer.compare(objects[mid]!.key, after) <= 0) lo = mid + 1;
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
function page(ctx: RouteContext, containerId: string, c: Container, after: Buffer | null, limit: number): unknown {
  const { opts } = ctx;
  const padded = opts.paddedIds;
  const bound = Math.max(1, opts.scanBound);
  const data: unknown[] = [];
  let lastListed: StoredObject | null = null;
  let scanPosition: StoredObject | null = null; // set when the page ends at the scan bound
  let hiddenSkipped = 0;
  let i = startIndex(c.objects, after);
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
  }
  // i is the index just after the resume position.
  const hasMore = (c.nextVisible[i] ?? c.objects.length) < c.objects.length;
  let lastId: string | null;
  if (scanPosition !== null && hasMore) lastId = fileId(scanPosition.path, { padded }); // rule 3
  else if (lastListed !== null) lastId = fileId(lastListed.path, { padded }); // rule 2
  else lastId = null; // rule 4: only with has_more false and empty data
  const first = data.length > 0 && !opts.firstIdNull ? (data[0] as { id: string }).id : null; // rule 5
  return extra(opts, { object: 'list', data, first_id: first, last_id: lastId, has_more: hasMore });
}

function fileObject(ctx: RouteContext, containerId: string, o: StoredObject): unknown {
  return extra(ctx.opts, {
    id: fileId(o.path, { padded: ctx.opts.paddedIds }),
    object: 'container.file',
    container_id: containerId,
    bytes: o.bytes,
    created_at: o.created_at,
    path: o.path,
    source: 'assistant',
  });
}
