import type { RequirementId } from '../../spec/requirement-ids.ts';
import { validate, type SchemaName } from '../../spec/schemas.ts';
import type { ApiResponse } from '../http/client.ts';
import { ConformanceFailure } from './errors.ts';
import { isJsonMediaType } from '../http/json-body.ts';

/** Throws a conformance failure of requirementId unless cond holds; the response becomes the evidence. */
export function conform(cond: unknown, requirementId: RequirementId, message: string, res?: ApiResponse): asserts cond {
  if (!cond) throw new ConformanceFailure(requirementId, message, res ? [res.exchange] : []);
}

export function expectStatus(
  res: ApiResponse,
  allowed: number | readonly number[],
  requirementId: RequirementId,
  what = '',
): void {
  const list = typeof allowed === 'number' ? [allowed] : allowed;
  if (list.includes(res.status)) return;
  const location = res.headers['location'] ? ` (redirect to ${res.headers['location']}, not followed)` : '';
  throw new ConformanceFailure(
    requirementId,
    `${what ? `${what}: ` : ''}expected HTTP ${list.join(' or ')}, got ${res.status}${location}`,
    [res.exchange],
  );
}

/** The body parses as JSON and the media type is application/json (parameters allowed). */
export function expectJson(res: ApiResponse, requirementId: RequirementId = 'general.json-media-type'): unknown {
  // The one media-type rule, shared with the whole-run JSON judge (suites/judges/json-body.ts).
  conform(
    isJsonMediaType(res.headers['content-type']),
    requirementId,
    `Content-Type is ${JSON.stringify(res.headers['content-type'] ?? '(none)')}, expected application/json`,
    res,
  );
  return expectParsedJson(res, requirementId);
}

/** The parsed body; fails `requirementId` unless the body parses as JSON (its media type is the caller's to judge). */
export function expectParsedJson(res: ApiResponse, requirementId: RequirementId): unknown {
  conform(
    res.jsonError === undefined,
    requirementId,
    `body is not JSON (${res.jsonError}): ${res.text.slice(0, 80)}`,
    res,
  );
  return res.json;
}

/** Validates value against an OpenAPI component; the message names the exact path of each violation. */
export function expectSchema(
  value: unknown,
  schema: SchemaName,
  requirementId: RequirementId,
  res?: ApiResponse,
  at = '',
): void {
  const violations = validate(schema, value);
  if (violations.length === 0) return;
  const list = violations
    .slice(0, 5)
    .map((v) => `${at}${v.path || '/'} ${v.message}`)
    .join('; ');
  const more = violations.length > 5 ? ` (+${violations.length - 5} more)` : '';
  throw new ConformanceFailure(requirementId, `does not match ${schema}: ${list}${more}`, res ? [res.exchange] : []);
}
