import type { CheckDeclaration } from '../../core/check.ts';
import { authChecksAll } from './auth.ts';
import { containerFilesChecks } from './container-files.ts';
import { internsChecks } from './interns.ts';
import { modelEndpointsChecks } from './model-endpoints.ts';

/** Every declared check, in run order. The report, the traceability test and the docs read this list. */
export const ALL_CHECKS: readonly CheckDeclaration[] = [...containerFilesChecks, ...modelEndpointsChecks, ...internsChecks, ...authChecksAll];
