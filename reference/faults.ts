import type { Operation } from '../core/operations.ts';
import type { ReferenceOptions } from './options.ts';

/** One deliberate defect of the reference: it breaks exactly the requirements listed in `breaks`. */
export interface FaultDeclaration {
  name: string;
  operation: Operation;
  /** Requirement references (service document sections) the fault violates. */
  breaks: readonly string[];
  description: string;
}

/** Faults the reference can be started with (options.faults). Empty for now. */
export const FAULTS: readonly FaultDeclaration[] = [];

/** True when the fault `name` is switched on. Route code uses `if (hasFault(opts, 'name'))`. */
export function hasFault(options: Pick<ReferenceOptions, 'faults'>, name: string): boolean {
  return options.faults.includes(name);
}

/** Names in `faults` that FAULTS does not declare (a typo would otherwise silently test nothing). */
export function unknownFaults(faults: readonly string[]): string[] {
  return faults.filter((f) => !FAULTS.some((d) => d.name === f));
}
