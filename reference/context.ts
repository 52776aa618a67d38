import type { Caller } from './auth.ts';
import type { ReferenceOptions } from './options.ts';

/** What server.ts hands a route after routing, authentication and permission checks. */
export interface RouteContext {
  opts: ReferenceOptions;
  caller: Caller;
  query: URLSearchParams;
  /** Path parameters exactly as they appear in the request line (still percent-encoded). */
  rawParams: Readonly<Record<string, string>>;
}

/** Percent-decodes one path segment exactly once; null when the encoding is malformed. */
export function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Adds the unknown field `x_reference` when options.extraFields (the document never forbids extra fields). */
export function extra<T extends object>(opts: ReferenceOptions, obj: T): T {
  return opts.extraFields ? { ...obj, x_reference: true } : obj;
}
