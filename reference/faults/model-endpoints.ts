import type { FaultDeclaration } from '../faults.ts';

/** Faults of the reference in model endpoints behaviour; each breaks the requirements it names and nothing else. */
export const MODEL_ENDPOINTS_FAULTS: readonly FaultDeclaration[] = [];
