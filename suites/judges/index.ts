/**
 * The whole-run judges: fed every response the run received once all checks have run, each returns
 * the findings (a failure of one requirement, with the exchange and the record position) it sees.
 */
import type { ResponseJudge, SeenResponse } from '../../core/check/judge.ts';
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

/**
 * 4.3 "Requests sent to regional host names are refused": how, status and body, is not shown, so a
 * regional host's refusal is judged by no rule of a response (JSON, schema, error code); whether it
 * refuses at all is interns.regional-host-refused's. One place for every judge, present and future.
 */
function exceptRegionalRefusals(judge: ResponseJudge): ResponseJudge {
  const judged = (r: SeenResponse) => !(r.regional && r.status >= 300);
  return {
    ...judge,
    judge: (r) => (judged(r) ? judge.judge(r) : []),
    ...(judge.observe ? { observe: (r: SeenResponse) => (judged(r) ? judge.observe!(r) : undefined) } : {}),
  };
}

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
].map(exceptRegionalRefusals);
