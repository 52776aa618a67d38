import type { ProbeContext } from '../../core/check/check.ts';
import type { ApiResponse } from '../../core/http/client.ts';
import type { SchemaViolation } from '../../spec/schemas.ts';
import { isObject } from './values.ts';

export interface TargetModel {
  res: ApiResponse;
  /** `data` of the 200 body (2.3). */
  model: Record<string, unknown>;
}

/**
 * GET the target file's model (4.2) as the input of a check on one part of it. A body that is not
 * `{ data: <object> }` cannot be judged part by part: the check is skipped and models.response.schema
 * reports the wrapper (so one broken wrapper is one failure, of models.response.data-wrapper).
 */
export async function fetchTargetModel(ctx: ProbeContext): Promise<TargetModel> {
  const res = await ctx.api.listModelEndpoints(ctx.target.modelEndpoints.model);
  if (res.status !== 200)
    ctx.skip(`the target model answered HTTP ${res.status}, not 200 (models.response.schema reports it)`);
  const body = res.json;
  if (!isObject(body) || !isObject(body.data))
    ctx.skip('the 200 body is not { data: <model> } (models.response.schema reports it)');
  return { res, model: body.data };
}

/** The model's endpoints (2.3 `endpoints`, 2.4), skipping the check when there is nothing to judge. */
export function endpointsOf(ctx: ProbeContext, model: Record<string, unknown>): Array<Record<string, unknown>> {
  const endpoints = model.endpoints;
  if (endpoints === undefined)
    ctx.skip('the model carries no endpoints field (models.model.fields-present reports it)');
  if (!Array.isArray(endpoints)) ctx.skip('endpoints is not an array (models.response.schema reports it)');
  const objects = endpoints.filter(isObject);
  if (objects.length === 0) ctx.skip('the model lists no endpoint objects: nothing to judge');
  return objects;
}

/** 2.4 fields of an endpoint, in the order of the table. */
export const ENDPOINT_FIELDS = [
  'name',
  'model_id',
  'model_name',
  'provider_name',
  'tag',
  'context_length',
  'max_completion_tokens',
  'max_prompt_tokens',
  'quantization',
  'status',
  'supported_parameters',
  'supports_implicit_caching',
  'pricing',
  'latency_last_30m',
  'throughput_last_30m',
  'uptime_last_5m',
  'uptime_last_30m',
  'uptime_last_1d',
] as const;

export const UPTIME_FIELDS = ['uptime_last_5m', 'uptime_last_30m', 'uptime_last_1d'] as const;
export const PERCENTILE_FIELDS = ['latency_last_30m', 'throughput_last_30m'] as const;

/**
 * The given fields that the endpoints carry, with their JSON pointer: 2.4 leaves presence open, so an
 * absent field is not judged. Skips the check when no endpoint carries any of them.
 */
export function presentFields(
  ctx: ProbeContext,
  endpoints: ReadonlyArray<Record<string, unknown>>,
  fields: readonly string[],
  what: string,
): Array<{ pointer: string; value: unknown }> {
  const found = endpoints.flatMap((e, i) =>
    fields.filter((f) => f in e).map((f) => ({ pointer: `/data/endpoints/${i}/${f}`, value: e[f] })),
  );
  if (found.length === 0) ctx.skip(`no endpoint carries ${what}`);
  return found;
}

/** Rules of the Model component that a requirement of their own covers (checked by that requirement's check). */
export function ownedInModel(v: SchemaViolation): boolean {
  return (
    (v.keyword === 'pattern' && v.path === '/id') || // models.model.id-shape
    (v.keyword === 'pattern' && v.path === '/architecture/modality')
  ); // models.architecture.modality-shape
}

/** Rules of the Endpoint component that a requirement of their own covers. */
export function ownedInEndpoint(v: SchemaViolation): boolean {
  return (
    /^\/pricing(\/|$)/.test(v.path) || // models.endpoint.pricing-decimal-strings
    /^\/(latency|throughput)_last_30m(\/|$)/.test(v.path) || // models.endpoint.percentiles
    /^\/uptime_last_(5m|30m|1d)$/.test(v.path)
  ); // models.endpoint.uptime-numbers
}
