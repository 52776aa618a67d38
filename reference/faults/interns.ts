import type { FaultDeclaration } from '../faults.ts';

/** Faults of the reference in interns behaviour; each breaks the requirements it names and nothing else. */
export const INTERNS_FAULTS: readonly FaultDeclaration[] = [];
