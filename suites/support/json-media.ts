import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * Section 1: the service "exchanges JSON"; only the 200 of 4.1 names its media type (application/json).
 * A JSON body under application/json or under a structured +json type such as application/problem+json
 * (RFC 6839) is JSON under every reading (general.json-body, MUST); application/json itself everywhere is
 * the convention (general.json-media-type, SHOULD; reading errors-problem-json).
 */
import type { ApiResponse } from '../../core/http/client.ts';
import { conform, expectParsedJson } from '../../core/check/expect.ts';
import { shown } from './values.ts';

/** application/json or a `+json` type, compared case-insensitively, parameters allowed (RFC 9110 section 8.3.1). */
export function isJsonFamily(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/** The parsed body; fails `requirementId` unless it is JSON under a JSON media type. */
export function expectJsonBody(res: ApiResponse, requirementId: RequirementId = 'general.json-body'): unknown {
  const contentType = res.headers['content-type'];
  conform(
    isJsonFamily(contentType),
    requirementId,
    `Content-Type is ${shown(contentType ?? '(none)')}, not a JSON media type (application/json or a +json type)`,
    res,
  );
  return expectParsedJson(res, requirementId);
}
