import type { FaultDeclaration } from '../faults.ts';

/** Faults of the reference in container files behaviour; each breaks the requirements it names and nothing else. */
export const CONTAINER_FILES_FAULTS: readonly FaultDeclaration[] = [];
