import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * Every 200 answer of the model-endpoints operation the run receives, judged by what the wrapper of
 * 4.2 obeys on its own: "Response 200: an object with one field `data`". The count is the
 * document's: elsewhere its field tables never say how many fields an object holds, so unknown fields
 * stay open there (spec/openapi.yaml); here it says one, as 2.4 says four of pricing (spec/readings.yaml,
 * decision stated-counts; counted-fields.ts).
 */
import type { Finding, ResponseJudge } from '../../core/check/judge.ts';
import { isObject } from '../support/values.ts';
import { fieldsBeyondCount } from './counted-fields.ts';

/** The wrapper's fields other than `data`, when the body is an object that has `data` and more. */
export function modelWrapperViolation(json: unknown): { requirementId: RequirementId; message: string } | undefined {
  // Not an object, or no data: the wrapper itself is broken, models.response.data-wrapper's.
  if (!isObject(json) || !('data' in json)) return undefined;
  const beyond = fieldsBeyondCount(json, ['data']);
  if (!beyond) return undefined;
  return {
    requirementId: 'models.response.one-field',
    message: `the 200 body has ${beyond.count + 1} fields, data and ${beyond.text}; 4.2: "an object with one field \`data\`"`,
  };
}

export const modelResponsesJudge: ResponseJudge = {
  id: 'models.responses',
  requirements: ['models.response.one-field'],
  judge(response): Finding[] {
    if (response.operation !== 'listModelEndpoints' || response.status !== 200) return [];
    const broken = modelWrapperViolation(response.json);
    return broken ? [{ ...broken, exchange: response.exchange, dedupeKey: `${broken.requirementId}:wrapper` }] : [];
  },
};
