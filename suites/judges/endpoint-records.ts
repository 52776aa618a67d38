import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * The rules of one endpoint (2.4) that have a requirement of their own: pricing, the percentile
 * objects and the uptimes. Applied to every endpoint of every 200 answer of the model-endpoints
 * operation the run receives, and by the models.endpoint.* checks. 2.4 leaves presence open ("which
 * endpoint fields are required: not shown"), so an absent field is never judged.
 */
import type { Finding, ResponseJudge } from '../../core/check/judge.ts';
import { validate, type SchemaName, type SchemaViolation } from '../../spec/schemas.ts';
import { PERCENTILE_FIELDS, UPTIME_FIELDS } from '../support/model-endpoints.ts';
import { isObject, shown } from '../support/values.ts';
import { fieldsBeyondCount } from './counted-fields.ts';
import { arrayAt, recordFindings, type RecordRule, type RecordViolation } from './records.ts';

/** The first violations of a component, as the checks have always worded them. */
function schemaViolation(
  requirementId: RequirementId,
  schema: SchemaName,
  field: string,
  violations: readonly SchemaViolation[],
): RecordViolation | undefined {
  const first = violations[0];
  if (!first) return undefined;
  const list = violations
    .slice(0, 5)
    .map((v) => `${field}${v.path} ${v.message}`)
    .join('; ');
  const more = violations.length > 5 ? ` (+${violations.length - 5} more)` : '';
  return {
    requirementId,
    kind: `${field}${first.path.replace(/\/\d+(?=\/|$)/g, '/*')}:${first.keyword}`,
    message: `does not match ${schema}: ${list}${more}`,
  };
}

/**
 * A decimal (base-10) numeral in any of its written forms: sign, digits, fraction, exponent ("2.5e-06").
 * "A decimal number" says base 10, not fixed point (reading pricing-exponent, spec/readings.yaml).
 */
const DECIMAL_NUMERAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const PRICING_FIELDS = ['prompt', 'completion', 'request', 'image'] as const;

/**
 * 2.4 pricing: "Four fields prompt, completion, request, image, each a string holding a decimal
 * number": an object with those four fields and no other, each a string holding a decimal numeral. The
 * fixed-point form of spec/openapi.yaml's DecimalString is pricingFixedPointRule's (SHOULD).
 */
export const pricingRule: RecordRule = (endpoint) => {
  if (!('pricing' in endpoint)) return undefined;
  const pricing = endpoint.pricing;
  const structural = validate('Pricing', pricing).filter((v) => v.keyword !== 'pattern');
  if (structural.length)
    return schemaViolation('models.endpoint.pricing-decimal-strings', 'Pricing', 'pricing', structural);
  // "Four fields": the count binds as 4.2's "one field" does (spec/readings.yaml, decision stated-counts).
  const beyond = isObject(pricing) ? fieldsBeyondCount(pricing, PRICING_FIELDS) : undefined;
  if (beyond)
    return {
      requirementId: 'models.endpoint.pricing-decimal-strings',
      kind: 'pricing:count',
      message: `pricing has ${beyond.count + PRICING_FIELDS.length} fields, the four and ${beyond.text}; 2.4: "Four fields \`prompt\`, \`completion\`, \`request\`, \`image\`"`,
    };
  for (const k of PRICING_FIELDS) {
    const v = isObject(pricing) ? pricing[k] : undefined;
    if (typeof v === 'string' && !DECIMAL_NUMERAL.test(v)) {
      return {
        requirementId: 'models.endpoint.pricing-decimal-strings',
        kind: `pricing/${k}:numeral`,
        message: `pricing/${k} is ${shown(v)}, not a string holding a decimal number`,
      };
    }
  }
  return undefined;
};

/** SHOULD: the four written in plain fixed point (spec/openapi.yaml DecimalString), the convention of the API the service follows (9 rule 3). */
export const pricingFixedPointRule: RecordRule = (endpoint) => {
  if (!('pricing' in endpoint) || pricingRule(endpoint)) return undefined;
  const pattern = validate('Pricing', endpoint.pricing).filter((v) => v.keyword === 'pattern');
  return schemaViolation('models.endpoint.pricing-fixed-point', 'Pricing', 'pricing', pattern);
};

/** 2.4 latency_last_30m / throughput_last_30m: "Numbers p50, p75, p90, p99" (a latency or a throughput is never negative). */
export const percentilesRule: RecordRule = (endpoint) => {
  for (const field of PERCENTILE_FIELDS) {
    if (!(field in endpoint)) continue;
    const v = schemaViolation(
      'models.endpoint.percentiles',
      'Percentiles',
      field,
      validate('Percentiles', endpoint[field]),
    );
    if (v) return v;
  }
  return undefined;
};

/** 2.4 uptime_last_5m / 30m / 1d: "number | Percent": a JSON number within 0..100. */
export const uptimeRule: RecordRule = (endpoint) => {
  for (const field of UPTIME_FIELDS) {
    if (!(field in endpoint)) continue;
    const v = endpoint[field];
    if (typeof v !== 'number' || !Number.isFinite(v))
      return {
        requirementId: 'models.endpoint.uptime-numbers',
        kind: `${field}:type`,
        message: `${field} is ${shown(v)}, not a number`,
      };
    if (v < 0 || v > 100)
      return {
        requirementId: 'models.endpoint.uptime-numbers',
        kind: `${field}:range`,
        message: `${field} is ${v}, outside 0..100 percent`,
      };
  }
  return undefined;
};

const ENDPOINT_RULES: readonly RecordRule[] = [pricingRule, pricingFixedPointRule, percentilesRule, uptimeRule];

/** Every endpoint of every 200 answer of the model-endpoints operation, whichever check fetched it. */
export const endpointRecordsJudge: ResponseJudge = {
  id: 'models.endpoint-records',
  requirements: [
    'models.endpoint.pricing-decimal-strings',
    'models.endpoint.pricing-fixed-point',
    'models.endpoint.percentiles',
    'models.endpoint.uptime-numbers',
  ],
  judge(response): Finding[] {
    if (response.operation !== 'listModelEndpoints' || response.status !== 200) return [];
    const model = isObject(response.json) ? response.json.data : undefined;
    return recordFindings(response, '/data/endpoints', arrayAt(model, 'endpoints'), ENDPOINT_RULES);
  },
};
