import { createHash } from 'node:crypto';

/** One request and what came back, as it may appear in a report: secrets already redacted. */
export interface Exchange {
  request: { method: 'GET'; url: string; headers: Record<string, string> };
  response?: {
    status: number;
    headers: Record<string, string>;
    /** Body text, truncated for the report (see `truncated`). */
    body: string;
    truncated: boolean;
  };
  /** Transport failure (time-out, refused, reset, body over the cap). */
  error?: string;
  durationMs: number;
  /** 429/503 retries spent on this request before the response above. */
  retries: number;
  /**
   * The index of this exchange's own entry in the run's evidence.har: set as the request is recorded
   * (core/http/recorder.ts), so it names the answer this exchange holds, not another of the same URL.
   */
  harEntry?: number;
}

/** Bodies kept in evidence are cut to this many characters. */
export const EVIDENCE_BODY_CHARS = 4_000;

// Headers whose values change from run to run; masked so two runs with one seed write the same report.
const VOLATILE = new Set([
  'date',
  'x-request-id',
  'request-id',
  'cf-ray',
  'etag',
  'age',
  'x-amzn-trace-id',
  'server-timing',
  'keep-alive',
]);

export function maskVolatileHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = VOLATILE.has(k.toLowerCase()) ? '<volatile>' : v;
  return out;
}

export function truncateBody(text: string): { body: string; truncated: boolean } {
  return text.length > EVIDENCE_BODY_CHARS
    ? { body: detached(text.slice(0, EVIDENCE_BODY_CHARS)), truncated: true }
    : { body: detached(text), truncated: false };
}

/**
 * A copy of `s` that holds no reference to a larger string. V8 makes a slice of a long string (and a
 * string JSON.parse reads out of a body) a view into the whole: the first 4,000 characters of a
 * body kept as evidence, or a message quoting 80 of them, would keep the whole body alive for the
 * run, one body per response. What the run keeps is copied here, so it holds what it shows.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf16le').toString('utf16le');
}

/** A URL, a header or a message kept in evidence is cut to this many characters (a 7 MB cursor stays a line). */
export const EVIDENCE_TEXT_CHARS = 2_000;
/** At most this many response headers are kept in evidence. */
export const EVIDENCE_HEADERS = 64;

/**
 * A target's text as evidence, bounded: the first `max` characters, then how long it was and a
 * digest of the whole (so two excerpts of different texts never read the same).
 */
export function excerpt(text: string, max = EVIDENCE_TEXT_CHARS): string {
  if (text.length <= max) return detached(text);
  const digest = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
  return detached(`${text.slice(0, max)}… [${text.length} characters, sha256 ${digest}…]`);
}

/** Headers as evidence: names and values excerpted, at most EVIDENCE_HEADERS of them (the count of the rest said). */
export function excerptHeaders(headers: Record<string, string>): Record<string, string> {
  const entries = Object.entries(headers);
  const out: Record<string, string> = {};
  for (const [k, v] of entries.slice(0, EVIDENCE_HEADERS)) out[excerpt(k, 200)] = excerpt(v, 500);
  if (entries.length > EVIDENCE_HEADERS)
    out['x-conformance-omitted'] = `${entries.length - EVIDENCE_HEADERS} more headers not kept`;
  return out;
}
