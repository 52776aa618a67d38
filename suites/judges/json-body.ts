import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * Every documented response is JSON (section 1 "exchanges JSON"): a JSON media type, application/json
 * or a +json type (general.json-body; application/json itself is general.json-media-type's SHOULD, and
 * parameters such as charset are allowed, RFC 9110 section 8.3.1), a body that parses, and bytes that are UTF-8 (RFC 8259 section 8.1: JSON exchanged between systems
 * "MUST be encoded using UTF-8"). Judged for the statuses whose body the document states (the
 * response-schema judge's documentedSchema); a redirect or an undocumented status is judged elsewhere.
 *
 * Duplicate object names are not a failure: RFC 8259 section 4 says names "SHOULD be unique" and the
 * service document is silent, so the first one is observed (rule "Verdicts in both directions").
 */
import { isJsonMediaType, type JsonBodyFacts } from '../../core/http/json-body.ts';
import type { Finding, ResponseJudge, SeenResponse } from '../../core/check/judge.ts';
import { isJsonFamily } from '../support/json-media.ts';
import { documentedSchema } from './response-schema.ts';
import { shown } from '../support/values.ts';

/** Section 1 "exchanges JSON": JSON bytes under a JSON media type, +json types included (MUST). */
const JSON_BODY = 'general.json-body';
/** application/json itself on every response: the convention (SHOULD, reading errors-problem-json). */
const REQUIREMENT = 'general.json-media-type';

/** The strict-reading facts of a response, when the client recorded them (core/http/json-body.ts). */
const factsOf = (response: SeenResponse): JsonBodyFacts => response;

export const jsonBodyJudge: ResponseJudge = {
  id: 'responses.json',
  requirements: [JSON_BODY, REQUIREMENT],
  judge(response): Finding[] {
    if (documentedSchema(response.operation, response.status) === undefined) return [];
    const findings: Finding[] = [];
    const add = (requirementId: RequirementId, kind: string, message: string) =>
      findings.push({
        requirementId,
        message: `HTTP ${response.status}: ${message}`,
        exchange: response.exchange,
        dedupeKey: `${requirementId}:${response.operation}:${response.status}:${kind}`,
      });
    // As received: the exchange's headers are masked for the report.
    const contentType = response.contentType ?? response.exchange.response?.headers['content-type'];
    if (!isJsonFamily(contentType))
      add(
        JSON_BODY,
        'content-type',
        `Content-Type is ${shown(contentType ?? '(none)')}, not a JSON media type (application/json or a +json type)`,
      );
    else if (!isJsonMediaType(contentType))
      add(REQUIREMENT, 'content-type', `Content-Type is ${shown(contentType)}, expected application/json`);
    const offset = factsOf(response).invalidUtf8Offset;
    if (offset !== undefined)
      add(
        JSON_BODY,
        'utf-8',
        `the body is not UTF-8: the byte at offset ${offset} does not start a well-formed UTF-8 sequence (RFC 8259 section 8.1, RFC 3629)`,
      );
    if (response.json === undefined)
      add(
        JSON_BODY,
        'not-json',
        `the body is not JSON: ${shown((response.exchange.response?.body ?? '').slice(0, 80))}`,
      );
    return findings;
  },
  observe: (response) => duplicateKeyObservation(response),
};

/**
 * The first duplicate object name of a response, for an observation of general.json-media-type
 * (not a failure), or undefined. `value` is what the report shows.
 */
export function duplicateKeyObservation(
  response: SeenResponse,
):
  | { requirementId: RequirementId; value: { duplicateKey: string; status: number; url: string; check: string } }
  | undefined {
  const duplicateKey = factsOf(response).duplicateKey;
  if (duplicateKey === undefined) return undefined;
  return {
    requirementId: REQUIREMENT,
    value: { duplicateKey, status: response.status, url: response.exchange.request.url, check: response.check },
  };
}
