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
}

/** Bodies kept in evidence are cut to this many characters. */
export const EVIDENCE_BODY_CHARS = 4_000;

// Headers whose values change from run to run; masked so two runs with one seed write the same report.
const VOLATILE = new Set(['date', 'x-request-id', 'request-id', 'cf-ray', 'etag', 'age', 'x-amzn-trace-id', 'server-timing', 'keep-alive']);

export function maskVolatileHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = VOLATILE.has(k.toLowerCase()) ? '<volatile>' : v;
  return out;
}

export function truncateBody(text: string): { body: string; truncated: boolean } {
  return text.length > EVIDENCE_BODY_CHARS
    ? { body: text.slice(0, EVIDENCE_BODY_CHARS), truncated: true }
    : { body: text, truncated: false };
}
