import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * Every error body the run receives, whichever check provoked it (a 429 or 503 met while paginating,
 * a 500, an unexpected 404), judged by what its operation's table states of its code (rule "Judge every response").
 * The shape itself is the response-schema judge's; this judges the code against the HTTP status, and
 * only where the document ties them:
 * - 7.1 "In these bodies `error.code` equals the HTTP status" (listContainerFiles);
 * - 7.3 writes the integer codes as statuses ("401 (integer)", "403 (integer)", "408 (integer)") and
 *   leaves open only "HTTP status for the bodies whose code is a string": an integer code is its status.
 * 7.2 ties no code to a status, and section 7 allows "integer, or string on some operations": the
 * model-endpoints operation's codes are not judged here.
 */
import type { Finding, ResponseJudge, SeenResponse } from '../../core/check/judge.ts';
import { isObject, shown } from '../support/values.ts';

/** The code of a section 7 error body, or undefined when the body has none (the schema judge's). */
function errorCode(response: SeenResponse): { code: unknown } | undefined {
  const error = isObject(response.json) ? response.json['error'] : undefined;
  return isObject(error) && 'code' in error ? { code: error['code'] } : undefined;
}

/** The rule the error body of one response of `operation` breaks, or undefined. */
export function errorCodeViolation(
  operation: SeenResponse['operation'],
  status: number,
  code: unknown,
): { requirementId: RequirementId; message: string } | undefined {
  // A code that is no integer is files.errors.shape's (the schema judge): one broken field, one failure.
  if (operation === 'listContainerFiles' && typeof code === 'number' && code !== status) {
    return {
      requirementId: 'files.errors.code-equals-status',
      message: `HTTP ${status}: error.code is ${shown(code)}, expected ${status} (7.1 "In these bodies error.code equals the HTTP status")`,
    };
  }
  if (operation === 'listInterns' && typeof code === 'number' && code !== status) {
    return {
      requirementId: 'interns.errors.code-equals-status',
      message: `HTTP ${status}: the integer error.code ${code} is not the HTTP status (7.3 writes integer codes as statuses)`,
    };
  }
  return undefined;
}

export const errorCodesJudge: ResponseJudge = {
  id: 'errors.codes',
  requirements: ['files.errors.code-equals-status', 'interns.errors.code-equals-status'],
  judge(response): Finding[] {
    if (response.status < 400) return [];
    const body = errorCode(response);
    if (!body) return [];
    const broken = errorCodeViolation(response.operation, response.status, body.code);
    return broken
      ? [
          {
            ...broken,
            exchange: response.exchange,
            dedupeKey: `${broken.requirementId}:${response.status}:${JSON.stringify(body.code).slice(0, 40)}`,
          },
        ]
      : [];
  },
};
