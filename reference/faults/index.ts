import type { Operation } from '../operations.ts';
import type { ReferenceOptions } from '../options.ts';
import { AUTH_ERRORS_FAULTS } from './auth-errors.ts';
import { CONTAINER_FILES_FAULTS } from './container-files.ts';
import { EMPTY_CONTAINER_FAULTS } from './empty-container.ts';
import { INTERNS_FAULTS } from './interns.ts';
import { MODEL_ENDPOINTS_FAULTS } from './model-endpoints.ts';
import { PAGINATION_FAULTS } from './pagination.ts';
import { READING_FAULTS } from './readings.ts';
import { RECORD_FAULTS } from './records.ts';
import { UNASKED_FAULTS } from './unasked.ts';

/** One deliberate defect of the reference: it breaks exactly the requirements listed in `breaks`. */
export interface FaultDeclaration {
  name: string;
  operation: Operation;
  /** Requirement ids of spec/requirements.yaml the fault violates: the suite must fail at least one. */
  breaks: readonly string[];
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
];

/** True when the fault `name` is switched on. Route code uses `if (hasFault(opts, 'name'))`. */
export function hasFault(options: Pick<ReferenceOptions, 'faults'>, name: string): boolean {
  return options.faults.includes(name);
}

/** Names in `faults` that FAULTS does not declare (a typo would otherwise silently test nothing). */
export function unknownFaults(faults: readonly string[]): string[] {
  return faults.filter((f) => !FAULTS.some((d) => d.name === f));
}
