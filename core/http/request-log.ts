import { writeFileSync } from 'node:fs';

/** One line of the run's request log: what was sent, never a header (so never a key). */
export interface RequestLogEntry {
  method: 'GET';
  url: string;
  status: number | null;
  ms: number;
  /** 1 for a retry after 429/503. */
  retry: 0 | 1;
  check: string;
  retryAfter?: string;
  error?: string;
}

/**
 * The request log of a run, in memory for the whole run: the request budget counts it, whole-run
 * judgements read it, the report counts it. Written out as JSON lines only when asked (audits).
 */
export class RequestLog {
  readonly entries: RequestLogEntry[] = [];

  /** Requests sent so far in the whole run (retries included). */
  get count(): number {
    return this.entries.length;
  }

  append(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  writeTo(file: string): void {
    writeFileSync(file, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  }
}
