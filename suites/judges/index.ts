/**
 * The whole-run judges: fed every response the run received once all checks have run, each returns
 * the findings (a failure of one requirement, with the exchange and the record position) it sees.
 */
import type { ResponseJudge } from '../../core/judge.ts';
import { containerFilePagesJudge } from './container-file-pages.ts';
import { containerFileRecordsJudge } from './container-file-records.ts';
import { endpointRecordsJudge } from './endpoint-records.ts';
import { errorCodesJudge } from './error-codes.ts';
import { internPagesJudge } from './intern-pages.ts';
import { internRecordsJudge } from './intern-records.ts';
import { jsonBodyJudge } from './json-body.ts';
import { modelResponsesJudge } from './model-responses.ts';
import { responseSchemaJudge } from './response-schema.ts';

export { duplicateKeyObservation } from './json-body.ts';

export const RESPONSE_JUDGES: readonly ResponseJudge[] = [
  jsonBodyJudge,
  responseSchemaJudge,
  containerFileRecordsJudge,
  containerFilePagesJudge,
  internRecordsJudge,
  internPagesJudge,
  modelResponsesJudge,
  endpointRecordsJudge,
  errorCodesJudge,
];
