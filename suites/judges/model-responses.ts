/**
 * Every 200 answer of the model-endpoints operation the run receives, judged by what the wrapper of
 * 4.2 obeys on its own: "Response 200: an object with one field `data`". The count is the
 * document's: elsewhere (2.1 to 2.6, 7) its field tables never say an object holds only those
 * fields, so unknown fields stay open there (spec/openapi.yaml); here it says one (spec/readings.yaml,
 * levels: models.response.one-field).
 */
import type { Finding, ResponseJudge } from '../../core/judge.ts';
import { excerpt } from '../../core/evidence.ts';
import { isObject } from '../support/values.ts';

/** Field names listed in a message at most. */
const NAMED = 5;

/** The wrapper's fields other than `data`, when the body is an object that has `data` and more. */
export function modelWrapperViolation(json: unknown): { requirementId: string; message: string } | undefined {
  // Not an object, or no data: the wrapper itself is broken, models.response.data-wrapper's.
  if (!isObject(json) || !('data' in json)) return undefined;
  const others: string[] = [];
  let count = 0;
  for (const k in json) {
    if (k === 'data') continue;
    count++;
    if (others.length < NAMED) others.push(JSON.stringify(excerpt(k, 60)));
  }
  if (count === 0) return undefined;
  const more = count > NAMED ? ` (+${count - NAMED} more)` : '';
  return { requirementId: 'models.response.one-field', message: `the 200 body has ${count + 1} fields, data and ${others.join(', ')}${more}; 4.2: "an object with one field \`data\`"` };
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
