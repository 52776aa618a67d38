import { CannotJudge } from '../check/errors.ts';
import { Places } from '../run/places.ts';
import type { FlightWindow } from './flight-window.ts';
import { RequestLog } from './request-log.ts';

/**
 * After this many requests in a row without a usable answer (time-out, refused or reset connection,
 * body over the cap, 429/503 after every retry) the run sends nothing more: a target that stopped
 * answering costs this many request time-outs, not one per remaining request.
 */
export const CONSECUTIVE_FAILURE_LIMIT = 3;

/**
 * The state of one run, in memory, shared by every check of the run (however many are in flight): the
 * request log (the budget counts it), the pace, the pause a 429/503 asked for, the time spent waiting
 * on them, and why the run stopped sending, if it did.
 */
export class RunState {
  readonly log = new RequestLog();
  failuresInARow = 0;
  /**
   * Time the whole run was held waiting before 429/503 retries: a target that limits now and then
   * still spends it. A pause counts once, however many checks it held.
   */
  rateLimitedWaitMs = 0;
  /** When the last request of the run left (ms since the epoch): the pace counts from it. */
  lastSent = -Infinity;
  /** Requests the budget granted so far (sent, or waiting for their turn to be sent). */
  granted = 0;
  /** No request of the run leaves before this instant (ms since the epoch): the pause the last 429/503 asked for. */
  pausedUntil = 0;
  stopped: string | undefined;
  /** The run stopped because the suite's deadline passed (its `stopped` says so in words). */
  deadlinePassed = false;
  /** Requests answered from the run's memory of what it already received instead of being sent again. */
  requestsSaved = 0;
  /**
   * The instant (ms since the epoch) each request left, in order, when the run has a --max-rps: what
   * the rate is held to across every check in flight.
   */
  readonly slots: number[] = [];
  /** Requests of the run handed to the transport and not yet answered: the window's size at most. */
  readonly requestsInFlight = new Places();
  /** How many requests may be in flight at once (--concurrency at most), made with the run's first request. */
  window: FlightWindow | undefined;
  /** Requests on the wire now (handed to the transport, not yet answered). */
  onTheWire = 0;
  /** The one request waiting for the next slot of --max-rps or the end of a pause: the others line up by rank. */
  readonly pacer = new Places();
}

/**
 * Once the target stopped answering, the remaining checks are cut short like a spent budget
 * (`skip`, with the reason): the requests that did fail are the run's `error`s.
 */
export function refuseIfStopped(state: RunState): void {
  if (state.stopped) throw new CannotJudge('stopped', `not sent: ${state.stopped}`);
}

/** A request without a usable answer: CONSECUTIVE_FAILURE_LIMIT of them in a row stop the run. */
export function noteFailure(state: RunState, what: string): void {
  state.failuresInARow++;
  if (state.failuresInARow >= CONSECUTIVE_FAILURE_LIMIT) {
    state.stopped ??= `the target stopped answering (${state.failuresInARow} requests in a row without a usable answer, last: ${what}); nothing more is sent in this run`;
  }
}

export function noteAnswer(state: RunState): void {
  state.failuresInARow = 0;
}
