import { requirement } from '../document/catalogue.ts';
import type { CheckOutcome } from './check.ts';

/**
 * Whether a check's outcome fails the gate, by the verdict's own rule (reports/build-report.ts): a
 * failed MUST requirement, a failed SHOULD under fail-on should, or an error (a verdict that is not
 * CONFORMANT). A SHOULD failure under fail-on must is shown, never gating. Playwright's side of a run
 * applies it so `npx playwright test` exits as the command line does.
 */
export function isGating(outcome: CheckOutcome, failOn: 'must' | 'should'): boolean {
  if (outcome.status === 'error') return true;
  if (outcome.status !== 'fail') return false;
  if (outcome.failures.length === 0) return true;
  return outcome.failures.some((f) => {
    const level = requirement(f.requirementId).level;
    return level === 'MUST' || (failOn === 'should' && level === 'SHOULD');
  });
}
