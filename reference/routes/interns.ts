/** GET /interns — List interns (2.5, 2.6, 3, 4.3, 7.3). */
import { INTERNS, INTERN_STATUSES, type Intern, type InternStatus } from '../data.ts';
import { internsError, type JsonResponse } from '../errors.ts';
import { extra, type RouteContext } from '../context.ts';
import { hasFault } from '../faults/index.ts';
import { recordIndex } from '../faults/records.ts';
import type { FaultPosition, ReferenceOptions } from '../options.ts';
import { single } from '../query.ts';
import { readLimit } from '../limit.ts';
import { hasReading } from '../variants.ts';
import { servedOnce } from '../json-text.ts';

/** 4.3 / 8: page size 1..500. */
const LIMIT_MIN = 1;
const LIMIT_MAX = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listInterns(ctx: RouteContext): JsonResponse {
  const { opts, query, caller } = ctx;
  const names = opts.internsParams; // 4.3: parameter names are not shown -> configurable
  // Unknown query parameters are ignored (the document does not say they are invalid).

  const limitRaw = single(query, names.limit);
  if (!limitRaw.ok) return internsError('invalid_body', opts);
  let limit = readLimit(opts, limitRaw.value, LIMIT_MIN, LIMIT_MAX, opts.internsDefaultPageSize);
  if (
    hasFault(opts, 'interns-limit-above-maximum-served') &&
    /^[0-9]+$/.test(limitRaw.value ?? '') &&
    Number(limitRaw.value) > LIMIT_MAX
  )
    limit = { ok: true, value: Number(limitRaw.value) };
  if (hasFault(opts, 'interns-limit-non-integer-accepted') && limitRaw.value !== undefined)
    limit = parseIntPageSize(limitRaw.value, opts.internsDefaultPageSize);
  if (hasFault(opts, 'interns-limit-bounds-not-enforced') && /^(0|-?[1-9][0-9]{0,15})$/.test(limitRaw.value ?? ''))
    limit = { ok: true, value: Math.min(Math.max(Number(limitRaw.value), LIMIT_MIN), LIMIT_MAX) };
  if (hasFault(opts, 'errors-interns-integer-invalid-body') && !limit.ok)
    return { status: 400, body: { error: { code: 400, message: 'Invalid list query' } } };
  if (!limit.ok) return internsError('invalid_body', opts);
  if (hasFault(opts, 'interns-limit-max-too-low') && limit.value > 100) return internsError('invalid_body', opts);
  if (hasFault(opts, 'interns-limit-not-enforced')) limit = { ok: true, value: opts.internsDefaultPageSize };
  if (hasFault(opts, 'interns-page-size-off-by-one') && limitRaw.value !== undefined)
    limit = { ok: true, value: limit.value + 1 };
  if (hasFault(opts, 'interns-default-page-501') && limitRaw.value === undefined)
    limit = { ok: true, value: LIMIT_MAX + 1 };

  // 4.3: comma-separated list of section-3 values. Exact, case-sensitive values; an unknown
  // value or an empty element (`running,`, ``) makes the query invalid (7.3 invalid_body).
  const statusRaw = single(query, names.status);
  if (!statusRaw.ok) return internsError('invalid_body', opts);
  let statuses: ReadonlySet<string> | null = null;
  if (statusRaw.value !== undefined) {
    let parts = statusRaw.value.split(',');
    // status-filter-lenient: case folded, blanks trimmed, empty elements dropped.
    if (hasReading(opts, 'status-filter-lenient'))
      parts = parts.map((p) => p.trim().toLowerCase()).filter((p) => p.length > 0);
    if (
      !parts.every((p) => (INTERN_STATUSES as readonly string[]).includes(p)) &&
      !hasFault(opts, 'interns-bad-status-accepted')
    )
      return internsError('invalid_body', opts);
    statuses = new Set(parts as InternStatus[]);
  }
  if (hasFault(opts, 'interns-status-filter-ignored')) statuses = null;
  if (hasFault(opts, 'interns-status-subset-ignored') && statuses !== null && statuses.size > 1) statuses = null;
  if (hasFault(opts, 'interns-status-list-first-only') && statuses !== null && statuses.size > 1)
    statuses = new Set([[...statuses][0]!]);

  // 4.3: the workspace filter is a UUID that "must match the workspace of the API key".
  // Malformed -> invalid_body (the query is invalid). Well-formed but another workspace -> 403
  // Forbidden: the key is not permitted to see it and there is no fallback. UUIDs compare
  // case-insensitively (RFC 9562 section 4). Checked after the rest of the query is validated.
  const wsRaw = single(query, names.workspace);
  if (!wsRaw.ok) return internsError('invalid_body', opts);
  let wsFilter = wsRaw.value;
  if (hasFault(opts, 'interns-malformed-workspace-accepted') && wsFilter !== undefined && !UUID.test(wsFilter))
    wsFilter = undefined;
  if (wsFilter !== undefined) {
    if (!UUID.test(wsFilter) && hasFault(opts, 'interns-malformed-workspace-empty'))
      return { status: 200, body: extra(opts, { data: [], has_more: false }) };
    if (!UUID.test(wsFilter))
      return internsError(hasReading(opts, 'workspace-malformed-forbidden') ? 403 : 'invalid_body', opts);
    if (hasFault(opts, 'interns-workspace-filter-refused')) return internsError(403, opts);
    const mismatch = wsFilter.toLowerCase() !== caller.workspaceId.toLowerCase();
    // Faults: the filter is ignored, always or only with a page size beside it.
    const fallback =
      hasFault(opts, 'interns-workspace-fallback') ||
      (hasFault(opts, 'interns-workspace-fallback-with-limit') && (!limitRaw.ok || limitRaw.value !== undefined));
    // workspace-mismatch-empty: only interns of that workspace, and the key sees none of them.
    if (mismatch && hasReading(opts, 'workspace-mismatch-empty') && !fallback)
      return { status: 200, body: extra(opts, { data: [], has_more: false }) };
    if (mismatch && !fallback) return internsError(403, opts);
  }

  // 4.3: how to fetch the next page is not shown. The reference takes the id of the previous page's
  // last intern (opts.internsCursor); an id that is not a UUID is an invalid query, one it does not
  // list is "404-type not found" (4.3, 7.3 not_found).
  const cursorRaw = single(query, opts.internsCursor);
  if (!cursorRaw.ok || (cursorRaw.value !== undefined && !UUID.test(cursorRaw.value)))
    return internsError('invalid_body', opts);
  const cursor = cursorRaw.value?.toLowerCase();
  // Fault: the status filter is honoured alone and dropped when the workspace filter comes with it.
  if (hasFault(opts, 'interns-status-dropped-with-workspace') && wsFilter !== undefined) statuses = null;
  // Fault: a page size sent with no cursor takes one intern more and drops the newest: the page is in
  // order, newest first, but it is not the newest interns of the query.
  const skipNewest = hasFault(opts, 'interns-page-not-newest') && limitRaw.value !== undefined && cursor === undefined;
  const capacity = limit.value + (skipNewest ? 1 : 0);

  // 4.3: the key selects the visible interns (its own workspace). INTERNS is already newest
  // first (createdAt descending, ties by id descending).
  const data: unknown[] = [];
  let resumed = cursor === undefined;
  let hasMore = false;
  let visibleWorkspace = caller.workspaceId;
  if (hasFault(opts, 'interns-other-workspace-leak') && wsFilter === undefined)
    visibleWorkspace = INTERNS.find((i) => i.workspaceId !== caller.workspaceId)?.workspaceId ?? visibleWorkspace;
  let ordered = INTERNS;
  if (hasFault(opts, 'interns-oldest-first')) ordered = [...INTERNS].reverse();
  for (const listed of ordered) {
    if (opts.internsNone) break;
    const intern = stored(opts, listed);
    if (intern.workspaceId !== visibleWorkspace) continue;
    if (statuses !== null && !statuses.has(intern.status)) continue;
    if (!resumed) {
      resumed = listed.id.toLowerCase() === cursor;
      continue;
    }
    if (data.length === capacity) {
      hasMore = true; // 2.6: more matching interns exist beyond this page
      break;
    }
    data.push(servedIntern(opts, '', listed, () => extra(opts, internBody(opts, intern))));
  }
  if (!resumed) return internsError('not_found', opts);
  if (skipNewest && data.length === capacity) {
    data.shift();
    hasMore = true;
  }
  // Faults met only on a page fetched with the cursor, or on a page of more than 300 interns (the page-size bounds check's 500), never on a check's sample.
  const deep = data as Array<Record<string, unknown>>;
  if (hasFault(opts, 'interns-deep-other-workspace') && deep.length > 300)
    deep[300] = { ...deep[300], workspaceId: INTERNS.find((i) => i.workspaceId !== caller.workspaceId)?.workspaceId };
  if (hasFault(opts, 'interns-deep-order-swapped') && deep.length > 301)
    [deep[300], deep[301]] = [deep[301]!, deep[300]!];
  if (hasFault(opts, 'interns-cursor-page-other-workspace') && cursor !== undefined && deep.length > 2)
    deep[2] = { ...deep[2], workspaceId: INTERNS.find((i) => i.workspaceId !== caller.workspaceId)?.workspaceId };
  const body: Record<string, unknown> = { data, has_more: hasMore };
  if (hasFault(opts, 'interns-first-answer-other-workspace') && deep.length > 0 && firstListing(opts, caller))
    deep[0] = { ...deep[0], workspaceId: INTERNS.find((i) => i.workspaceId !== caller.workspaceId)?.workspaceId };
  if (hasFault(opts, 'interns-has-more-string')) body.has_more = String(hasMore);
  return { status: 200, body: extra(opts, body) };
}

/** Fault interns-first-answer-other-workspace: the management keys each server has listed interns to. */
const listedTo = new WeakMap<ReferenceOptions, Set<string>>();

/** True the first time this server lists interns to the management key (a run's first such request). */
function firstListing(opts: ReferenceOptions, caller: RouteContext['caller']): boolean {
  if (caller.kind !== 'management') return false;
  let callers = listedTo.get(opts);
  if (!callers) listedTo.set(opts, (callers = new Set()));
  if (callers.has(caller.workspaceId)) return false;
  callers.add(caller.workspaceId);
  return true;
}

/** Fault interns-limit-non-integer-accepted: parseInt, unparseable -> the default; bounds still enforced. */
function parseIntPageSize(raw: string, dflt: number): { ok: true; value: number } | { ok: false } {
  const n = parseInt(raw, 10);
  const value = Number.isNaN(n) ? dflt : n;
  return value >= LIMIT_MIN && value <= LIMIT_MAX ? { ok: true, value } : { ok: false };
}

/** Each intern as one reference sends it, made once (reference/json-text.ts). */
const servedIntern = servedOnce<Intern>();

/** One intern as sent (2.5), with the faults of the intern body applied. */
function internBody(opts: RouteContext['opts'], intern: (typeof INTERNS)[number]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...intern };
  // interns-omit-null-fields: 2.5 has no Required column; null fields are left out.
  if (hasReading(opts, 'interns-omit-null-fields'))
    for (const k of ['attached_vault_id', 'instructions', 'lastFailureMessage', 'progress'])
      if (out[k] === null) delete out[k];
  if (hasFault(opts, 'interns-description-not-string')) out.description = null;
  if (hasFault(opts, 'interns-bad-uuid')) out.vault_id = `vault_${intern.vault_id.slice(0, 8)}`;
  if (hasFault(opts, 'interns-timestamps-no-millis'))
    for (const k of ['createdAt', 'updatedAt'] as const) out[k] = intern[k].replace(/\.\d{3}Z$/, 'Z');
  if (hasFault(opts, 'interns-hostname-no-domain')) out.hostname = intern.name;
  if (hasFault(opts, 'interns-hostname-mismatch'))
    out.hostname = `i-${intern.id.slice(0, 8)}.${intern.hostname.split('.').slice(1).join('.')}`;
  if (hasFault(opts, 'interns-model-bad-shape')) out.model = intern.model.split('/').pop();
  if (hasFault(opts, 'interns-unknown-status-value') && intern.status === 'stopped') out.status = 'paused';
  return out;
}

/**
 * The intern as stored, with the record faults (reference/faults/records.ts) applied to the one intern
 * they break: what the status filter and the body both see, so no filter selects a status outside
 * section 3 and only the record rule breaks.
 */
function stored(opts: ReferenceOptions, intern: Intern): Intern {
  if (opts.faults.length === 0 || intern.id !== recordFaultInternId(intern.workspaceId, opts.faultPosition))
    return intern;
  const out = { ...intern };
  // The status is outside section 3 on purpose: that is the fault.
  if (hasFault(opts, 'interns-record-status-paused')) out.status = 'paused' as InternStatus;
  // The same instant written with a +02:00 offset, so the order (newest first) is unchanged.
  if (hasFault(opts, 'interns-record-no-vault-id')) delete (out as Partial<Intern>).vault_id;
  if (hasFault(opts, 'interns-record-created-at-offset'))
    out.createdAt = new Date(Date.parse(intern.createdAt) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
  return out;
}

const recordFaultInterns = new Map<string, string | undefined>();
/** Id of the intern the record faults break: first, middle or last of the workspace's newest 500 (LIMIT_MAX, the largest page). */
function recordFaultInternId(workspaceId: string, position: FaultPosition): string | undefined {
  const key = `${workspaceId}:${position}`;
  if (!recordFaultInterns.has(key)) {
    const newest = INTERNS.filter((i) => i.workspaceId === workspaceId).slice(0, LIMIT_MAX);
    recordFaultInterns.set(key, newest[recordIndex(position, newest.length)]?.id);
  }
  return recordFaultInterns.get(key);
}
