/** GET /interns — List interns (2.5, 2.6, 3, 4.3, 7.3). */
import { INTERNS, INTERN_STATUSES, type InternStatus } from '../data.ts';
import { internsError, type JsonResponse } from '../errors.ts';
import { extra, type RouteContext } from '../context.ts';
import { single, strictInt } from '../query.ts';

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
  const limit = strictInt(limitRaw.value, LIMIT_MIN, LIMIT_MAX, opts.internsDefaultPageSize);
  if (!limit.ok) return internsError('invalid_body', opts);

  // 4.3: comma-separated list of section-3 values. Exact, case-sensitive values; an unknown
  // value or an empty element (`running,`, ``) makes the query invalid (7.3 invalid_body).
  const statusRaw = single(query, names.status);
  if (!statusRaw.ok) return internsError('invalid_body', opts);
  let statuses: ReadonlySet<string> | null = null;
  if (statusRaw.value !== undefined) {
    const parts = statusRaw.value.split(',');
    if (!parts.every((p) => (INTERN_STATUSES as readonly string[]).includes(p))) return internsError('invalid_body', opts);
    statuses = new Set(parts as InternStatus[]);
  }

  // 4.3: the workspace filter is a UUID that "must match the workspace of the API key".
  // Malformed -> invalid_body (the query is invalid). Well-formed but another workspace -> 403
  // Forbidden: the key is not permitted to see it and there is no fallback. UUIDs compare
  // case-insensitively (RFC 9562 section 4). Checked after the rest of the query is validated.
  const wsRaw = single(query, names.workspace);
  if (!wsRaw.ok) return internsError('invalid_body', opts);
  if (wsRaw.value !== undefined) {
    if (!UUID.test(wsRaw.value)) return internsError('invalid_body', opts);
    if (wsRaw.value.toLowerCase() !== caller.workspaceId.toLowerCase()) return internsError(403, opts);
  }

  // 4.3: the key selects the visible interns (its own workspace). INTERNS is already newest
  // first (createdAt descending, ties by id descending).
  const data: unknown[] = [];
  let hasMore = false;
  for (const intern of INTERNS) {
    if (intern.workspaceId !== caller.workspaceId) continue;
    if (statuses !== null && !statuses.has(intern.status)) continue;
    if (data.length === limit.value) {
      hasMore = true; // 2.6: more matching interns exist beyond this page
      break;
    }
    data.push(extra(opts, intern));
  }
  // 4.3: how to fetch the page after one with has_more true is not shown; nothing is implemented.
  return { status: 200, body: extra(opts, { data, has_more: hasMore }) };
}
