import type { CheckDeclaration } from '../../core/check/check.ts';
import { authChecksAll } from './auth.ts';
import { containerFilesChecks } from './container-files.ts';
import { containerFilesAfterChecks } from './container-files-after.ts';
import { containerFilesLimitChecks } from './container-files-limit.ts';
import { emptyContainerChecks } from './empty-container.ts';
import { errorsChecks } from './errors.ts';
import { generalChecks } from './general.ts';
import { internsChecks } from './interns.ts';
import { internsQueryChecks } from './interns-query.ts';
import { internsPropertyChecks } from './interns-properties.ts';
import { internsPrefixChecks } from './interns-prefixes.ts';
import { modelEndpointsChecks } from './model-endpoints.ts';
import { paginationChecks } from './pagination.ts';
import { paginationPropertyChecks } from './pagination-properties.ts';
import { paginationWalkChecks } from './pagination-walks.ts';

/** Every declared check, in report order. The report, the traceability test and the docs read this list. */
export const ALL_CHECKS: readonly CheckDeclaration[] = [
  ...containerFilesChecks,
  ...containerFilesLimitChecks,
  ...containerFilesAfterChecks,
  ...paginationChecks,
  ...paginationPropertyChecks,
  ...paginationWalkChecks,
  ...emptyContainerChecks,
  ...modelEndpointsChecks,
  ...internsChecks,
  ...internsQueryChecks,
  ...internsPropertyChecks,
  ...internsPrefixChecks,
  ...authChecksAll,
  ...errorsChecks,
  ...generalChecks,
];
