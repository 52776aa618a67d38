/**
 * `--wait-for SECONDS`: a CI job starts the service, then the suite; a service still starting would
 * be the preflight's "unreachable" at once. The command first waits until the target answers (any
 * HTTP response: a 401 or a 404 is an answer, a refused or reset connection is not), polling with a
 * growing interval, bounded in count and in time: at most --wait-for seconds and never past the run's
 * deadline, which counts this wait (it is counted from the command's start).
 *
 * What is polled is the base URL's documented path of the interns list without a key: a documented
 * path (the suite sends nothing else), and no key is sent to a service that may not be the one the
 * target file means yet. --header's headers are sent, as with every request of the run: a gateway in
 * front of the service may refuse (or not route) a request without them, and they go to the base
 * URL's host only, which the allowed hosts cleared for the keys (core/target/allowed-hosts.ts).
 *
 * The answer is read no further than its status line, and judged by no response judge: the wait asks
 * before the run, of a service still starting, which is what --wait-for exists to tolerate; a
 * half-started service's answer would otherwise fail a conformant one
 * (rule "Verdicts in both directions"). The run's own requests, the preflight's first, are judged
 * (rule "Judge every response").
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { deadlineLeftMs, type RunSettings } from '../core/run/run-settings.ts';
import type { ExtraHeader } from '../core/target/target.ts';

/** First pause between two attempts; it doubles up to MAX_INTERVAL_MS. */
const FIRST_INTERVAL_MS = 250;
const MAX_INTERVAL_MS = 2_000;
/** An attempt's own time-out (the run's --timeout bounds it too). */
const ATTEMPT_TIMEOUT_MS = 5_000;

export interface WaitResult {
  /** The first answer's HTTP status, when one came. */
  status?: number;
  attempts: number;
  waitedMs: number;
  /** Why the wait ended without an answer (one line), when it did. */
  fatal?: string;
}

/** The most attempts a wait of `waitMs` can make (each one is followed by a pause of at least FIRST_INTERVAL_MS). */
export function maxAttempts(waitMs: number): number {
  return Math.ceil(waitMs / FIRST_INTERVAL_MS) + 1;
}

export async function waitForTarget(
  baseUrl: string,
  waitS: number,
  settings: Pick<RunSettings, 'startedAt' | 'deadlineMs' | 'requestTimeoutMs'>,
  extraHeaders: readonly ExtraHeader[] = [],
): Promise<WaitResult> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // As the client sends them (core/http/client.ts): never Authorization or Accept (cli/header-option.ts).
  for (const h of extraHeaders) headers[h.name.toLowerCase()] = h.value;
  const started = Date.now();
  const waitMs = waitS * 1000;
  const until = Math.min(started + waitMs, started + deadlineLeftMs(settings, started));
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/interns`);
  let interval = FIRST_INTERVAL_MS;
  let last = 'no attempt';
  let attempts = 0;
  for (const limit = maxAttempts(waitMs); attempts < limit; ) {
    const left = until - Date.now();
    if (left <= 0) break;
    attempts++;
    const answer = await attempt(url, headers, Math.min(left, ATTEMPT_TIMEOUT_MS, settings.requestTimeoutMs));
    if (typeof answer === 'number') return { status: answer, attempts, waitedMs: Date.now() - started };
    last = answer;
    const pause = Math.min(interval, until - Date.now());
    if (pause <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
    interval = Math.min(interval * 2, MAX_INTERVAL_MS);
  }
  const byDeadline = until < started + waitMs;
  const waited = ((Date.now() - started) / 1000).toFixed(1);
  return {
    attempts,
    waitedMs: Date.now() - started,
    fatal: byDeadline
      ? `the suite's deadline of ${settings.deadlineMs / 1000} s passed while waiting for ${url.origin} to answer (--wait-for ${waitS}; ${attempts} attempts, last: ${last}): nothing judged`
      : `target ${baseUrl} did not answer within --wait-for ${waitS} s (${attempts} attempts in ${waited} s, last: ${last}): nothing judged`,
  };
}

/** One attempt: the answer's status, or why there was none (ECONNREFUSED, a time-out). */
function attempt(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<number | string> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const done = (v: number | string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(v);
    };
    const req = send(url, { method: 'GET', headers, agent: false }, (res) => done(res.statusCode ?? 0));
    req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms`), timeoutMs);
    req.end();
  });
}
