import { CannotJudge } from '../check/errors.ts';
import type { SeenResponse } from '../check/judge.ts';
import type { RunSettings } from '../run/run-settings.ts';
import type { Mask } from '../text/mask.ts';
import type { RunState } from './run-state.ts';

/**
 * Statuses that can come on any request and say nothing of it: 429 and 503 (7.1, 8 rule 3; a rate
 * limit or an outage, answered on any operation) and, for list interns, 408 (4.3, 7.3, 8 rule 4: "A
 * 408 response exists for list interns"). Retried within the retry budget, never a check's answer.
 */
export function isTransient(operation: SeenResponse['operation'], status: number): boolean {
  return status === 429 || status === 503 || (status === 408 && operation === 'listInterns');
}

/**
 * Retries a request may take because the target turned it away while several were in flight, besides
 * --max-retries: each lowers the run's window (flight-window.ts), so the next try goes with fewer at
 * once. Bounded per request; the retry budget, the request budget and the deadline bound them too.
 */
export const CROWDED_RETRIES = 8;

/**
 * Full jitter (as AWS's and gRPC's back-off): requests turned away together retry at random instants
 * within the exponential step, not all at the end of one pause, where the target is busy again.
 * Timing only: no verdict depends on it.
 */
export function jitterMs(attempt: number, capMs: number): number {
  return Math.random() * Math.min(capMs, 200 * 2 ** (attempt - 1));
}

/** Retry-After (seconds or HTTP date) when given, else exponential from 200 ms; never above the cap. */
export function backoff(attempt: number, retryAfter: string | undefined, capMs: number): number {
  let ms = 200 * 2 ** (attempt - 1);
  const value = retryAfter?.trim() ?? '';
  // delay-seconds or an HTTP-date (RFC 9110 10.2.3); anything else (empty, negative) is ignored.
  if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
  else if (/^[A-Za-z]{3},/.test(value) && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - Date.now();
  return Math.min(Math.max(ms, 0), capMs);
}

/**
 * Holds the run `ms` before a 429/503 retry, within the run's retry budget (the time all such waits
 * may take together): a target that keeps limiting cannot hold the run until its deadline. Past the
 * budget the run stops sending, with that reason (8 rule 3: a 429 is never the probed requirement's
 * failure). The retry then waits in pace() like every other request of the run.
 */
export function holdForRetry(
  state: RunState,
  settings: Pick<RunSettings, 'retryBudgetMs'>,
  ms: number,
  url: URL,
  mask: Mask,
  /** What the target kept doing, for the stop's reason; and the window's hint (flight-window.ts). */
  kept = 'answering 429/503',
  hint = '',
): void {
  // One target, one pause (8 rule 3): a 429/503 holds every check's next request, not only the
  // retry of the one that received it; the budget counts the time the run is held, once.
  const now = Date.now();
  const until = Math.max(state.pausedUntil, now + ms);
  const added = until - Math.max(now, state.pausedUntil);
  if (state.rateLimitedWaitMs + added > settings.retryBudgetMs) {
    state.stopped ??= `the target kept ${kept}: the retry budget of ${settings.retryBudgetMs / 1000} s was spent waiting (last: GET ${mask.text(url.pathname)})${hint}; nothing more is sent in this run`;
    throw new CannotJudge('rate-limited', state.stopped);
  }
  state.rateLimitedWaitMs += added;
  state.pausedUntil = until;
}

/** What a 429, 503 or 408 that outlasted every retry leaves the check with (8 rules 3 and 4). */
export function stillTransient(status: number, retries: number, retryAfter: string | undefined, mask: Mask): string {
  const after = retryAfter !== undefined ? ` (Retry-After: ${mask.text(retryAfter).slice(0, 40)})` : '';
  return `target still answered ${status} after ${retries} retries${after}`;
}
