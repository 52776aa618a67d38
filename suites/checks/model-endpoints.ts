import { CannotJudge } from '../../core/check/errors.ts';
import { type CheckDeclaration, defineChecks, type ProbeContext } from '../../core/check/check.ts';
import type { RequirementId } from '../../spec/requirement-ids.ts';
import { expectSchema, expectStatus } from '../../core/check/expect.ts';
import { validate } from '../../spec/schemas.ts';
import {
  ENDPOINT_FIELDS,
  PERCENTILE_FIELDS,
  UPTIME_FIELDS,
  endpointsOf,
  fetchTargetModel,
  presentFields,
} from '../support/model-endpoints.ts';
import { AUTHOR_SLUG, brief, isObject, jsonType, shown, tally } from '../support/values.ts';
import { SECONDS_CEILING } from '../judges/container-file-records.ts';
import { percentilesRule, pricingFixedPointRule, pricingRule, uptimeRule } from '../judges/endpoint-records.ts';
import { expectJsonBody } from '../support/json-media.ts';
import { errorBody } from '../support/operations.ts';
import { conformRecord, type RecordRule } from '../judges/records.ts';
import { conformToSchema } from '../judges/response-schema.ts';
import { modelWrapperViolation } from '../judges/model-responses.ts';

/** 2.3: a created above 10^11 is read as milliseconds (10^11 s is the year 5138), as 2.1's created_at. */
const MAX_SECONDS = SECONDS_CEILING;
/** Distinct values kept per field in an observation. */
const VALUES_CAP = 12;

/**
 * Checks that apply one record rule of 2.4 to every endpoint of the target's model, declared as data:
 * the rule itself is the whole-run judge's (suites/judges/endpoint-records.ts). Which endpoint fields
 * are required is not shown (2.4), so a check whose fields no endpoint carries is a skip, not a pass.
 */
const ENDPOINT_RECORD_RULES: ReadonlyArray<{
  id: string;
  title: string;
  requirement: RequirementId;
  rule: RecordRule;
  /** The fields the rule judges, and how a skip names them when no endpoint carries one. */
  fields: readonly string[];
  what: string;
}> = [
  // 2.4: "Four fields prompt, completion, request, image, each a string holding a decimal number":
  // those four and no other (a stated count binds: decision stated-counts), each a decimal numeral in
  // any base-10 form (the fixed-point form is models.endpoint.pricing-fixed-point's SHOULD).
  {
    id: 'models.endpoint.pricing',
    title: 'pricing holds prompt, completion, request and image as strings holding a decimal number',
    requirement: 'models.endpoint.pricing-decimal-strings',
    rule: pricingRule,
    fields: ['pricing'],
    what: 'pricing',
  },
  // SHOULD: "a decimal number" also reads as exponent notation (reading pricing-exponent); fixed point
  // is the convention of the third-party API the service follows (9 rule 3).
  {
    id: 'models.endpoint.pricing-fixed-point',
    title: 'pricing values are written in plain fixed-point notation',
    requirement: 'models.endpoint.pricing-fixed-point',
    rule: pricingFixedPointRule,
    fields: ['pricing'],
    what: 'pricing',
  },
  // 2.4: "Numbers p50, p75, p90, p99".
  {
    id: 'models.endpoint.percentiles',
    title: 'latency_last_30m and throughput_last_30m hold numbers p50, p75, p90 and p99',
    requirement: 'models.endpoint.percentiles',
    rule: percentilesRule,
    fields: PERCENTILE_FIELDS,
    what: 'latency_last_30m or throughput_last_30m',
  },
  // 2.4: "number | Percent": a JSON number within 0..100.
  {
    id: 'models.endpoint.uptime',
    title: 'uptime_last_5m, uptime_last_30m and uptime_last_1d are numbers (percent)',
    requirement: 'models.endpoint.uptime-numbers',
    rule: uptimeRule,
    fields: UPTIME_FIELDS,
    what: 'an uptime field',
  },
];

function endpointRecordCheck(row: (typeof ENDPOINT_RECORD_RULES)[number]): CheckDeclaration {
  return {
    id: row.id,
    title: row.title,
    operation: 'listModelEndpoints',
    requirements: [row.requirement],
    async probe(ctx: ProbeContext) {
      const { res, model } = await fetchTargetModel(ctx);
      const endpoints = endpointsOf(ctx, model);
      presentFields(ctx, endpoints, row.fields, row.what);
      for (const [i, e] of endpoints.entries()) conformRecord(ctx, row.rule, e, res, `/data/endpoints/${i}`);
    },
  };
}

export const modelEndpointsChecks = defineChecks([
  {
    id: 'models.response.schema',
    title: 'The endpoints of the target model come as { data: model } of 2.3 with endpoints of 2.4',
    operation: 'listModelEndpoints',
    requirements: [
      'models.response.data-wrapper',
      'models.response.one-field',
      'models.model.schema',
      'models.model.fields-present',
      'models.endpoint.schema',
      'general.json-body',
    ],
    async probe(ctx: ProbeContext) {
      const res = await ctx.api.listModelEndpoints(ctx.target.modelEndpoints.model);
      // A model the deployment answers "Resource not found" (7.2) is the target file's to check, not a
      // failure of the server (rule "Bad input exits 2"): the run ends as an error naming the field.
      if (res.status === 404) {
        throw new CannotJudge(
          'target-file',
          `modelEndpoints.model ${shown(ctx.target.modelEndpoints.model)} was answered 404: is it a model the deployment serves? Check the target file`,
          [res.exchange],
        );
      }
      expectStatus(res, 200, 'models.response.data-wrapper');
      // Section 1 "exchanges JSON" (4.2 names no media type: application/json is general.json-media-type's SHOULD).
      expectJsonBody(res, 'general.json-body');
      // 4.2: "Response 200: an object with one field `data`, a model with endpoints (2.3)"; 2.3: the
      // types of the model's own fields and of architecture; 2.4: each endpoint field, where present,
      // has its type (presence is not shown). The id shape, the modality form, pricing, the percentile
      // objects and the uptimes are requirements of their own (the checks below).
      conformToSchema(ctx, 'listModelEndpoints', res);
      const extra = modelWrapperViolation(res.json);
      if (extra) ctx.conform(false, extra.requirementId, extra.message, res);
    },
  },
  {
    id: 'models.model.id-shape',
    title: 'The model id is shaped <author>/<slug>',
    operation: 'listModelEndpoints',
    requirements: ['models.model.id-shape'],
    async probe(ctx: ProbeContext) {
      const { res, model } = await fetchTargetModel(ctx);
      // An absent id is models.model.fields-present's (every 2.3 field is present: spec/readings.yaml,
      // decision model-fields-present); a non-string is a type error (models.model.schema).
      if (typeof model.id !== 'string')
        return ctx.skip(
          `the model id is ${jsonType(model, 'id')}, not a string (models.response.schema judges its type)`,
        );
      // 2.3: "Model identifier, shaped <author>/<slug>": two non-empty parts around exactly one slash
      // (4.2 takes author and slug as two path segments, so neither holds a slash).
      ctx.conform(
        AUTHOR_SLUG.test(model.id),
        ctx.requirement,
        `model id ${shown(model.id)} is not shaped <author>/<slug>`,
        res,
      );
    },
  },
  {
    id: 'models.model.id-matches-path',
    title: 'The model returned is the one the path names',
    operation: 'listModelEndpoints',
    requirements: ['models.model.id-matches-path'],
    async probe(ctx: ProbeContext) {
      const { res, model } = await fetchTargetModel(ctx);
      if (typeof model.id !== 'string' || !AUTHOR_SLUG.test(model.id)) {
        return ctx.skip('the model id is not an <author>/<slug> string (models.model.id-shape reports it)');
      }
      // 4.2: the path parameters author and slug name the model. Compared case-insensitively: SHOULD
      // only, since a deployment may answer an alias with its canonical id (requirement interpretation).
      const asked = ctx.target.modelEndpoints.model;
      ctx.conform(
        model.id.toLowerCase() === asked.toLowerCase(),
        ctx.requirement,
        `asked for ${shown(asked)}, got model ${shown(model.id)}`,
        res,
      );
    },
  },
  {
    id: 'models.model.created-seconds',
    title: 'created is an integer Unix timestamp in seconds',
    operation: 'listModelEndpoints',
    requirements: ['models.model.created-seconds'],
    async probe(ctx: ProbeContext) {
      const { res, model } = await fetchTargetModel(ctx);
      // Every 2.3 field is present (decision model-fields-present): an absent created is failed there, once.
      if (!('created' in model))
        return ctx.skip('the model carries no created field (models.model.fields-present reports it)');
      const created = model.created;
      ctx.conform(
        typeof created === 'number' && Number.isInteger(created),
        ctx.requirement,
        `created is ${shown(created)}, not an integer`,
        res,
      );
      // 2.3 "Unix timestamp in seconds": a value above 10^11 only makes sense as milliseconds.
      // Read as milliseconds only where a date can be (±8.64e15 ms, ECMA-262 21.4.1.22): 2^64+1 is judged, not a suite error.
      const asMs =
        Math.abs(created) <= 8.64e15 ? `${new Date(created).toISOString()} read as ms` : 'not a date even read as ms';
      ctx.conform(
        created <= MAX_SECONDS,
        ctx.requirement,
        `created ${created} is above 10^11: milliseconds, not seconds (${asMs})`,
        res,
      );
    },
  },
  {
    id: 'models.architecture.modality-shape',
    title: 'architecture.modality has the form <input>-><output>',
    operation: 'listModelEndpoints',
    requirements: ['models.architecture.modality-shape'],
    async probe(ctx: ProbeContext) {
      const { res, model } = await fetchTargetModel(ctx);
      const arch = model.architecture;
      if (!isObject(arch))
        return ctx.skip('the model carries no architecture object (models.response.schema reports it)');
      // 2.4: nullability of modality is not shown, so null or absent cannot be judged.
      if (typeof arch.modality !== 'string')
        return ctx.skip(`architecture.modality is ${jsonType(arch, 'modality')}: only a string has a form to judge`);
      // 2.3: "modality (string in the form <input>-><output>)": something, the arrow, something.
      ctx.conform(
        /^.+->.+$/.test(arch.modality),
        ctx.requirement,
        `architecture.modality ${shown(arch.modality)} is not of the form <input>-><output>`,
        res,
      );
    },
  },
  ...ENDPOINT_RECORD_RULES.map(endpointRecordCheck),
  {
    id: 'models.unknown-model-error',
    title: 'A model that does not exist gets a 4xx error with the section 7 error body, never a model',
    operation: 'listModelEndpoints',
    requirements: ['models.unknown-model-error'],
    needs: (t) => (t.modelEndpoints.missingModel ? undefined : { field: 'modelEndpoints.missingModel' }),
    async probe(ctx: ProbeContext) {
      const res = await ctx.api.listModelEndpoints(ctx.target.modelEndpoints.missingModel!);
      // 1: the operation "Returns one model's metadata": there is none to return. 4.2 lists 403, 404 and
      // 500, and 7.2 ties no condition to 404 (reading unknown-model-403): any refusal (4xx) passes.
      ctx.conform(
        res.status >= 400 && res.status < 500,
        ctx.requirement,
        `a model that does not exist answered HTTP ${res.status}, expected a 4xx error`,
        res,
      );
      // Section 7: the error body (error object with code and string message), whatever its media type.
      expectSchema(errorBody(res, 'models.unknown-model-error'), 'Error', 'models.unknown-model-error', res);
    },
  },
  {
    id: 'models.forbidden-model-error',
    title: 'A model the key may not read gets a 4xx error with the section 7 error body, never the model',
    operation: 'listModelEndpoints',
    requirements: ['models.forbidden-model-error'],
    needs: (t) => (t.modelEndpoints.forbiddenModel ? undefined : { field: 'modelEndpoints.forbiddenModel' }),
    async probe(ctx: ProbeContext) {
      const model = ctx.target.modelEndpoints.forbiddenModel!;
      const res = await ctx.api.listModelEndpoints(model);
      // 5 rule 3: "When authentication succeeds but the key lacks permission, the response is 403"; a
      // 404 that does not reveal the model exists is a reading (forbidden-model-404). A 200 says this
      // key may read it: the target file's to check, not the server's failure (rule "Bad input exits 2").
      if (res.status >= 200 && res.status < 300)
        throw new CannotJudge(
          'target-file',
          `modelEndpoints.forbiddenModel ${shown(model)} was answered ${res.status}: this key may read it. Check the target file`,
          [res.exchange],
        );
      ctx.conform(
        res.status >= 400 && res.status < 500,
        ctx.requirement,
        `a model the key may not read answered HTTP ${res.status}, expected a 4xx error (5 rule 3: 403)`,
        res,
      );
      // Section 7: the error body (error object with code and string message), whatever its media type.
      expectSchema(errorBody(res, 'models.forbidden-model-error'), 'Error', 'models.forbidden-model-error', res);
    },
  },
  {
    id: 'models.unknown-model',
    title: 'A model that does not exist gets 404 with an error body',
    operation: 'listModelEndpoints',
    requirements: ['models.unknown-model-404'],
    needs: (t) => (t.modelEndpoints.missingModel ? undefined : { field: 'modelEndpoints.missingModel' }),
    async probe(ctx: ProbeContext) {
      const res = await ctx.api.listModelEndpoints(ctx.target.modelEndpoints.missingModel!);
      // 7.2: 404 "Resource not found". SHOULD: no condition is tied to it (models.unknown-model-error is the MUST).
      expectStatus(res, 404, 'models.unknown-model-404', 'a model that does not exist');
      const body = errorBody(res, 'models.unknown-model-404');
      // Section 7: the error body (error object with code and string message).
      expectSchema(body, 'Error', 'models.unknown-model-404', res);
      // Whether error.code is an integer here is models.errors.code-integer (SHOULD, the errors checks):
      // a string code is shown, not failed as a MUST of this requirement.
      const extra = validate('ModelEndpointsError', body);
      if (extra.length)
        ctx.observe('models.unknown-model-404', {
          errorCode: (body as { error: { code: unknown } }).error.code,
          note: 'not an integer code (see models.errors.code-integer)',
        });
    },
  },
  {
    id: 'models.endpoint.nullability',
    title: 'Types and values seen for instruct_type, quantization, status, tokenizer and modality',
    operation: 'listModelEndpoints',
    kind: 'observation',
    requirements: ['models.endpoint.nullability'],
    async probe(ctx: ProbeContext) {
      const { model } = await fetchTargetModel(ctx);
      const endpoints = endpointsOf(ctx, model);
      const arch = isObject(model.architecture) ? model.architecture : undefined;
      // 2.4: "Allowed values and nullability of the endpoint fields (instruct_type, quantization, status,
      // tokenizer, modality) ... not shown". Three of them are architecture fields in 2.3, so both places are shown.
      const seen: Record<string, unknown> = { endpoints: endpoints.length };
      for (const field of ['instruct_type', 'quantization', 'status', 'tokenizer', 'modality']) {
        const types: Record<string, number> = {};
        const values: unknown[] = [];
        for (const e of endpoints) {
          tally(types, jsonType(e, field));
          const v = brief(e[field]);
          if (
            v !== undefined &&
            values.length < VALUES_CAP &&
            !values.some((x) => JSON.stringify(x) === JSON.stringify(v))
          )
            values.push(v);
        }
        seen[field] = {
          onEndpoints: { types, values },
          ...(arch
            ? {
                onArchitecture: {
                  type: jsonType(arch, field),
                  ...(field in arch ? { value: brief(arch[field]) } : {}),
                },
              }
            : {}),
        };
      }
      ctx.observe('models.endpoint.nullability', seen);
    },
  },
  {
    id: 'models.endpoint.required-fields',
    title: 'Which 2.4 endpoint fields are present, in how many endpoints',
    operation: 'listModelEndpoints',
    kind: 'observation',
    requirements: ['models.endpoint.required-fields'],
    async probe(ctx: ProbeContext) {
      const { model } = await fetchTargetModel(ctx);
      const endpoints = endpointsOf(ctx, model);
      // 2.4: "which endpoint fields are required: not shown". Present = the key is there (null counts as present).
      const present: Record<string, number> = {};
      for (const field of ENDPOINT_FIELDS) present[field] = endpoints.filter((e) => field in e).length;
      const others = [...new Set(endpoints.flatMap((e) => Object.keys(e)))].filter(
        (k) => !(ENDPOINT_FIELDS as readonly string[]).includes(k),
      );
      ctx.observe('models.endpoint.required-fields', {
        endpoints: endpoints.length,
        present,
        inEvery: ENDPOINT_FIELDS.filter((f) => present[f] === endpoints.length),
        sometimesAbsent: ENDPOINT_FIELDS.filter((f) => present[f] !== endpoints.length),
        ...(others.length ? { fieldsBeyond24: others.slice(0, VALUES_CAP) } : {}),
      });
    },
  },
]);
