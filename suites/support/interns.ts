import type { RequirementId } from '../../spec/requirement-ids.ts';
import type { ProbeContext } from '../../core/check/check.ts';
import type { ApiResponse, Query } from '../../core/http/client.ts';
import { conform } from '../../core/check/expect.ts';
import type { TargetView } from '../../core/target/target.ts';
import { shortKeyMemo } from '../../core/text/text-memo.ts';
import { INTERNS_LIMIT } from '../../spec/parameter-bounds.ts';
import type { SchemaViolation } from '../../spec/schemas.ts';
import { internsQuery } from './interns-query.ts';
import { isObject, shown } from './values.ts';

export interface InternPage {
  res: ApiResponse;
  body: Record<string, unknown>;
  /** Elements of `data` that are objects (the rest is interns.response.schema's to report). */
  interns: Array<Record<string, unknown>>;
}

/**
 * Reads a 200 answer of list interns as an intern list (2.6). A 200 body that is not `{ data: [...] }`
 * cannot be judged by a check on another point: that check is skipped and interns.response.schema
 * reports the body.
 */
export function internPage(ctx: ProbeContext, res: ApiResponse): InternPage {
  const body = res.json;
  if (!isObject(body) || !Array.isArray(body.data))
    ctx.skip('the 200 body is not an intern list { data: [...] } (interns.response.schema reports it)');
  return { res, body, interns: body.data.filter(isObject) };
}

/**
 * The page a check on the interns themselves (2.5) judges: the plain request, no query parameter, so
 * it needs no parameter name. Anything but a 200 intern list is a precondition, not this check's
 * failure (interns.response.schema reports it).
 */
export async function plainInternPage(ctx: ProbeContext, query: Query = {}): Promise<InternPage> {
  const res = await ctx.api.listInterns(query);
  if (res.status !== 200)
    ctx.skip(`GET /interns answered HTTP ${res.status}, not 200 (interns.response.schema reports it)`);
  return internPage(ctx, res);
}

/**
 * The query of the largest page the document allows (8 "Page size 1 to 500", spec/openapi.yaml), or
 * undefined when the target file does not name the page-size parameter.
 */
export function widestInternsQuery(target: TargetView): Query | undefined {
  return target.interns.params ? internsQuery(target, { limit: INTERNS_LIMIT().max }) : undefined;
}

/**
 * The page a check on the interns themselves (2.5) judges: the largest the document allows (8 "Page
 * size 1 to 500") when the target file names the page-size parameter, else the plain request. A
 * record rule's own check then sees every intern any check of the run can see on a first page, so
 * its requirement's status does not depend on what else ran (rule "Verdicts in both directions": `--grep`, `--shard`).
 */
export async function widestInternPage(ctx: ProbeContext): Promise<InternPage> {
  return plainInternPage(ctx, widestInternsQuery(ctx.target) ?? {});
}

/**
 * Why a requirement on the interns a page lists (their records, order, states, workspace, count) is not
 * judged when none of the pages a check read listed one: a rule over every intern listed holds of an
 * empty list without showing anything (rule "No green without evidence"). `what` says what was left.
 */
export function noInternListed(what: string): string {
  return `the key lists no interns: ${what}`;
}

/** How many interns a response lists: the length of its `data` array, 0 for any other answer (its shape is the schema's). */
export function internsIn(res: ApiResponse): number {
  const body = res.json as { data?: unknown } | undefined;
  return res.status === 200 && body && typeof body === 'object' && Array.isArray(body.data) ? body.data.length : 0;
}

/** widestInternPage, skipping the check when the key sees no intern at all. */
export async function someInterns(ctx: ProbeContext): Promise<InternPage> {
  const page = await widestInternPage(ctx);
  if (page.interns.length === 0) ctx.skip(noInternListed('nothing to judge'));
  return page;
}

/**
 * 7.3: an invalid query is answered with `error.code` "invalid_body"; the HTTP status of string-coded
 * bodies is not shown, so any 4xx is accepted (a 2xx, 3xx or 5xx is not a rejection of the query).
 */
export function expectInvalidBody(res: ApiResponse, requirementId: RequirementId, what: string): void {
  conform(
    res.status >= 400 && res.status < 500,
    requirementId,
    `${what}: expected a 4xx error with error.code "invalid_body", got HTTP ${res.status}`,
    res,
  );
  conform(
    res.jsonError === undefined,
    requirementId,
    `${what}: the HTTP ${res.status} body is not JSON (${res.jsonError})`,
    res,
  );
  const error = isObject(res.json) ? res.json.error : undefined;
  const code = isObject(error) ? error.code : undefined;
  conform(
    code === 'invalid_body',
    requirementId,
    `${what}: HTTP ${res.status} with error.code ${shown(code)}, expected "invalid_body" (7.3)`,
    res,
  );
}

/** Section 3: the eight lifecycle states, the suite's one list of them (kept beside the arbitraries that draw from it). */
export { INTERN_STATES } from '../../generators/arbitraries/interns-status.ts';

/** RFC 9562 section 4 string form: 8-4-4-4-12 hexadecimal digits, either case; no version is imposed (2.5 says "UUID format"). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 1123 host label: letters, digits and hyphens, 1 to 63 characters, no hyphen at either end. */
export const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Rules of the Intern component that a requirement of their own covers (checked by that requirement's check). */
export function ownedInIntern(v: SchemaViolation): boolean {
  return (
    (v.keyword === 'format' && ['/id', '/workspaceId', '/vault_id'].includes(v.path)) || // interns.intern.uuid-fields
    (['format', 'pattern'].includes(v.keyword) && ['/createdAt', '/updatedAt'].includes(v.path)) || // interns.intern.timestamps
    (v.keyword === 'pattern' && v.path === '/hostname') || // interns.intern.hostname-shape
    (v.keyword === 'pattern' && v.path === '/model') || // interns.intern.model-shape
    (v.keyword === 'enum' && v.path === '/status')
  ); // interns.intern.status-value
}

const UTC_MILLIS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})(?:Z|\+00:00)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;
/** `2024-01-01T00:00:00.000+00:00`: no timestamp of 2.5 is longer (a longer string is read, and refused, each time). */
const UTC_MILLIS_MAX_CHARS = 29;

/**
 * 2.5 "ISO 8601 UTC timestamp with milliseconds": date, `T`, time with exactly three fraction digits,
 * and UTC written `Z` or `+00:00` (ISO 8601 allows both for UTC). Returns the instant in ms, or
 * undefined when the text is not such a timestamp (including calendar-impossible dates, hour 24 and
 * leap seconds, which JavaScript's Date does not read as written). The fields are checked here and
 * the instant is Date.UTC's: Date.parse and toISOString cost more than the rest of the judge of a
 * record, and a run judges the same interns' timestamps page after page: each is read once
 * while they are few (core/text/text-memo.ts shortKeyMemo).
 */
export const parseUtcMillis: (s: string) => number | undefined = shortKeyMemo(
  readUtcMillis,
  16_384,
  UTC_MILLIS_MAX_CHARS,
);

function readUtcMillis(s: string): number | undefined {
  const m = UTC_MILLIS.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec, ms] = [m[1], m[2], m[3], m[4], m[5], m[6], m[7]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (
    mo < 1 ||
    mo > 12 ||
    d < 1 ||
    d > (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]!) ||
    h > 23 ||
    mi > 59 ||
    sec > 59
  )
    return undefined;
  // Date.UTC reads years 0 to 99 as 1900 to 1999: those are computed 400 (Gregorian) years on and brought back.
  return y < 100
    ? Date.UTC(y + 400, mo - 1, d, h, mi, sec, ms) - FOUR_CENTURIES_MS
    : Date.UTC(y, mo - 1, d, h, mi, sec, ms);
}
