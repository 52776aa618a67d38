import { excerpt, excerptHeaders, maskVolatileHeaders, truncateBody, type Exchange } from '../check/evidence.ts';
import type { Mask } from '../text/mask.ts';
import type { RequestLogEntry } from './request-log.ts';

/**
 * One request and what came back, as evidence: masked here, where it becomes evidence (the checks and
 * judges read the response as sent), and bounded. The body is masked whole before it is cut, so a key
 * the cut would split is not left half shown; the pass is linear, and what is kept is the excerpt.
 */
export function exchangeOf(
  mask: Mask,
  url: URL,
  headers: Record<string, string>,
  response: { status: number; headers: Record<string, string>; text: string } | undefined,
  durationMs: number,
  retries: number,
  error?: string,
  recordedEntry?: number,
): Exchange {
  return {
    request: { method: 'GET', url: excerpt(mask.text(url.toString())), headers: excerptHeaders(mask.headers(headers)) },
    durationMs,
    retries,
    ...(recordedEntry !== undefined ? { harEntry: recordedEntry } : {}),
    ...(response
      ? {
          response: {
            status: response.status,
            headers: excerptHeaders(maskVolatileHeaders(mask.headers(response.headers))),
            ...truncateBody(mask.text(response.text)),
          },
        }
      : {}),
    ...(error ? { error: excerpt(mask.text(error)) } : {}),
  };
}

/** The request log's line for one request sent: never a header but Retry-After, masked and bounded. */
export function logEntryOf(
  mask: Mask,
  url: URL,
  check: string,
  retries: number,
  ms: number,
  outcome: { status: number; retryAfter: string | undefined } | { error: string },
): RequestLogEntry {
  // Bounded like all evidence (rule "Hostile input"): a cursor of megabytes is not kept once per request.
  const sent = excerpt(mask.text(url.toString()));
  const retry = retries > 0 ? (1 as const) : (0 as const);
  if ('error' in outcome) return { method: 'GET', url: sent, status: null, ms, retry, check, error: outcome.error };
  return {
    method: 'GET',
    url: sent,
    status: outcome.status,
    ms,
    retry,
    check,
    // Masked like every header the target sends (it may echo anything).
    ...(outcome.retryAfter ? { retryAfter: excerpt(mask.text(outcome.retryAfter), 200) } : {}),
  };
}
