import type { FaultDeclaration } from '../faults.ts';

/** Faults of the reference in auth errors behaviour; each breaks the requirements it names and nothing else. */
export const AUTH_ERRORS_FAULTS: readonly FaultDeclaration[] = [];
