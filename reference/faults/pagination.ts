import type { FaultDeclaration } from '../faults.ts';

/** Faults of the reference in pagination behaviour; each breaks the requirements it names and nothing else. */
export const PAGINATION_FAULTS: readonly FaultDeclaration[] = [];
