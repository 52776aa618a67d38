import type { Operation } from '../operations.ts';
import type { ReferenceOptions } from '../options.ts';
import { AUTH_ERRORS_FAULTS } from './auth-errors.ts';
import { CONTAINER_FILES_FAULTS } from './container-files.ts';
import { EMPTY_CONTAINER_FAULTS } from './empty-container.ts';
import { GENERAL_FAULTS } from './general.ts';
import { INTERNS_FAULTS } from './interns.ts';
import { MODEL_ENDPOINTS_FAULTS } from './model-endpoints.ts';
import { PAGINATION_FAULTS } from './pagination.ts';
import { READING_FAULTS } from './readings.ts';
import { RECORD_FAULTS } from './records.ts';
import { UNASKED_FAULTS } from './unasked.ts';

/**
 * A requirement a fault fails besides those it is meant to prove, because the one defect truly breaks
 * it too: `why` says how, with the document's words (a 401 to the valid key leaves no 200 to judge).
 */
export interface AlsoFails {
  id: string;
  why: string;
}

/**
 * One deliberate defect of the reference. The self-test (test/self-test.test.ts) holds it to exactly
 * what it declares: on the self-test's seed the suite fails EVERY requirement of `breaks` and no other
 * requirement, save those of `alsoFails`, each of which must fail too (a declaration that no longer
 * holds is stale).
 */
export interface FaultDeclaration {
  name: string;
  operation: Operation;
  /** Requirement ids of spec/requirements.yaml the fault violates: the suite must fail every one. */
  breaks: readonly string[];
  /** Other requirements the same defect fails, each with the reason (none by default). */
  alsoFails?: readonly AlsoFails[];
  description: string;
}

/** Faults the reference can be started with (options.faults), one file per area so each stays small. */
export const FAULTS: readonly FaultDeclaration[] = [
  ...CONTAINER_FILES_FAULTS,
  ...PAGINATION_FAULTS,
  ...MODEL_ENDPOINTS_FAULTS,
  ...INTERNS_FAULTS,
  ...AUTH_ERRORS_FAULTS,
  ...READING_FAULTS,
  ...RECORD_FAULTS,
  ...EMPTY_CONTAINER_FAULTS,
  ...UNASKED_FAULTS,
  ...GENERAL_FAULTS,
];

/** True when the fault `name` is switched on. Route code uses `if (hasFault(opts, 'name'))`. */
export function hasFault(options: Pick<ReferenceOptions, 'faults'>, name: string): boolean {
  return options.faults.includes(name);
}

/** Names in `faults` that FAULTS does not declare (a typo would otherwise silently test nothing). */
export function unknownFaults(faults: readonly string[]): string[] {
  return faults.filter((f) => !FAULTS.some((d) => d.name === f));
}
