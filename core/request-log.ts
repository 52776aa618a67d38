import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
 * The request log of a run (runDir/requests.jsonl). It is shared by every Playwright worker of the
 * run, and survives the worker restarts that follow a failed test, so the request budget holds for
 * the whole run; it is also what the report counts and what the safety tests audit.
 */
export class RequestLog {
  readonly file: string;
  private n: number;

  constructor(runDir: string) {
    this.file = join(runDir, 'requests.jsonl');
    this.n = existsSync(this.file) ? countLines(readFileSync(this.file, 'utf8')) : 0;
  }

  /** Requests sent so far in the whole run (this process's view: other shards count their own). */
  get count(): number {
    return this.n;
  }

  append(entry: RequestLogEntry): void {
    appendFileSync(this.file, JSON.stringify(entry) + '\n');
    this.n++;
  }

  static read(runDir: string): RequestLogEntry[] {
    const file = join(runDir, 'requests.jsonl');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RequestLogEntry);
  }
}

function countLines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}
