import { inspect } from 'node:util';
import { excerpt, excerptHeaders, maskVolatileHeaders, truncateBody, type Exchange } from '../check/evidence.ts';
import type { Mask } from '../text/mask.ts';
import type { RequestLogEntry } from './request-log.ts';

/**
 * One request and what came back, as evidence: masked here, where it becomes evidence (the checks and
 * judges read the response as sent), and bounded. The body is masked whole before it is cut, so a key
 * the cut would split is not left half shown; the pass is linear, and what is kept is the excerpt.
 * The body is masked when it is first read (responseOf): most exchanges are never read.
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
  unread: UnreadBodies = { chars: 0 },
): Exchange {
  return {
    request: { method: 'GET', url: excerpt(mask.text(url.toString())), headers: excerptHeaders(mask.headers(headers)) },
    durationMs,
    retries,
    ...(recordedEntry !== undefined ? { harEntry: recordedEntry } : {}),
    ...(response
      ? {
          response: responseOf(
            mask,
            response.status,
            excerptHeaders(maskVolatileHeaders(mask.headers(response.headers))),
            response.text,
            unread,
          ),
        }
      : {}),
    ...(error ? { error: excerpt(mask.text(error)) } : {}),
  };
}

/**
 * The characters of response bodies a run holds until they are read, masked (responseOf). Bounded like
 * the run's memory of answers (core/http/answer-memory.ts), rule "Hostile input": a body over
 * LAZY_BODY_CHARS, or one that would take the run over LAZY_RUN_CHARS, is masked at once instead, so
 * a hostile target's megabytes are not kept whole for every exchange a check keeps.
 */
export interface UnreadBodies {
  chars: number;
}
const LAZY_BODY_CHARS = 1024 * 1024;
const LAZY_RUN_CHARS = 32 * 1024 * 1024;

type Response = NonNullable<Exchange['response']>;

/**
 * An exchange's response whose body is masked and cut the first time `body` or `truncated` is read, by
 * the mask as it is then (it only gains secrets): most exchanges are never read (only those of a
 * finding, a failure or a log line are), and masking is most of what a body costs. Nothing unmasked can
 * be read: the text is held by the getters alone, which every copy goes through (JSON.stringify, a
 * spread, structuredClone), and the console (util.inspect) prints the response masked.
 */
function responseOf(
  mask: Mask,
  status: number,
  headers: Record<string, string>,
  text: string,
  unread: UnreadBodies,
): Response {
  if (text.length > LAZY_BODY_CHARS || unread.chars + text.length > LAZY_RUN_CHARS)
    return { status, headers, ...truncateBody(mask.text(text)) };
  unread.chars += text.length;
  let held: string | undefined = text;
  let cut = { body: '', truncated: false };
  const read = (): { body: string; truncated: boolean } => {
    if (held !== undefined) {
      cut = truncateBody(mask.text(held));
      unread.chars -= held.length;
      held = undefined;
    }
    return cut;
  };
  // Own enumerable getters, in the order of a response's fields: a report reads as of a plain object.
  return {
    __proto__: PRINTED_MASKED,
    status,
    headers,
    get body() {
      return read().body;
    },
    get truncated() {
      return read().truncated;
    },
  } as Response;
}

/** What the console (util.inspect) prints of a response: its fields, the body read (so masked), not `[Getter]`. */
const PRINTED_MASKED = {
  [inspect.custom](this: Response) {
    return { status: this.status, headers: this.headers, body: this.body, truncated: this.truncated };
  },
};

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
