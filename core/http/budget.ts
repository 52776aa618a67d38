import { CannotJudge } from '../check/errors.ts';
import type { RunSettings } from '../run/run-settings.ts';
import type { RunState } from './run-state.ts';

/**
 * Takes one request of the run's budget (--max-requests), synchronously: checks in flight together
 * cannot all pass the test before any of them is logged and send more than the budget between them.
 */
export function spendBudget(
  state: RunState,
  settings: Pick<RunSettings, 'maxRequests' | 'requestsBefore'>,
  url: URL,
): void {
  // The command line's preflight (settings.requestsBefore) counts against the budget too.
  if (state.granted + settings.requestsBefore >= settings.maxRequests) {
    throw new CannotJudge('budget', `request budget of ${settings.maxRequests} spent before GET ${url.pathname}`);
  }
  state.granted++;
}
