import type { Exchange } from '../check/evidence.ts';
import type { JsonBodyFacts } from './json-body.ts';

/** A response as a check receives it. */
export interface ApiResponse extends JsonBodyFacts {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  exchange: Exchange;
}
