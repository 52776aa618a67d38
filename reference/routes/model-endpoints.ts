/** GET /models/{author}/{slug}/endpoints — List all endpoints for a model (2.3, 2.4, 4.2). */
import { FORBIDDEN_MODEL_FIXTURE, MODELS, type Endpoint, type Model } from '../data.ts';
import { modelsError, type JsonResponse } from '../errors.ts';
import { decodeSegment, extra, type RouteContext } from '../context.ts';
import { hasFault } from '../faults/index.ts';
import { recordIndex } from '../faults/records.ts';
import type { ReferenceOptions } from '../options.ts';
import { hasReading } from '../variants.ts';

export function listModelEndpoints(ctx: RouteContext): JsonResponse {
  // 4.2 path parameters author and slug, each percent-decoded exactly once; an undecodable
  // segment cannot name a model -> 404 (7.2 lists 403, 404, 500 only, so no 400 here).
  const author = decodeSegment(ctx.rawParams.author ?? '');
  const slug = decodeSegment(ctx.rawParams.slug ?? '');
  if (author === null || slug === null) return modelsError(404);
  // 5 rule 3: "When authentication succeeds but the key lacks permission, the response is 403": a model
  // of another workspace; reading forbidden-model-404 does not reveal that it exists.
  if (`${author}/${slug}` === FORBIDDEN_MODEL_FIXTURE) {
    if (hasReading(ctx.opts, 'forbidden-model-404')) return modelsError(404);
    if (hasFault(ctx.opts, 'models-forbidden-error-no-code'))
      return {
        status: 403,
        body: { error: { message: 'Only management keys of the owning workspace can perform this operation' } },
      };
    return modelsError(403);
  }
  const named = MODELS.get(`${author}/${slug}`);
  if (!named && hasFault(ctx.opts, 'models-unknown-200')) {
    const architecture = {
      input_modalities: ['text'],
      output_modalities: ['text'],
      modality: 'text->text',
      instruct_type: null,
      tokenizer: 'Other',
    };
    return {
      status: 200,
      body: { data: { id: `${author}/${slug}`, name: slug, created: 0, description: '', architecture, endpoints: [] } },
    };
  }
  if (!named) return modelsError(hasReading(ctx.opts, 'unknown-model-403') ? 403 : 404); // 7.2: "Resource not found"
  let model = named;
  if (hasFault(ctx.opts, 'models-other-model-returned'))
    model = [...MODELS.values()].find((m) => m.id !== named.id) ?? named;
  // 4.2: an object with one field `data` holding the model with endpoints (2.3).
  const data = modelBody(ctx.opts, model);
  if (hasFault(ctx.opts, 'models-no-data-wrapper')) return { status: 200, body: data };
  if (hasFault(ctx.opts, 'models-description-latin1')) return { status: 200, body: null, raw: latin1Cafe({ data }) };
  if (hasFault(ctx.opts, 'models-wrapper-extra-field'))
    return { status: 200, body: { data, links: { self: `/models/${author}/${slug}/endpoints` } } };
  // 4.2 "one field `data`": unknown fields (options.extraFields) go inside the model, never beside data.
  return { status: 200, body: { data } };
}

function modelBody(opts: ReferenceOptions, m: Model): unknown {
  let arch: Record<string, unknown> = opts.sparseEndpoints
    ? // 2.4: nullability of instruct_type/tokenizer is not shown; the sparse variant sends null.
      { ...m.architecture, instruct_type: null, tokenizer: null }
    : m.architecture;
  if (hasFault(opts, 'models-modality-arrow-missing'))
    arch = { ...arch, modality: m.architecture.modality.replace('->', ' to ') };
  if (hasFault(opts, 'models-architecture-modalities-string'))
    arch = { ...arch, input_modalities: m.architecture.input_modalities.join(',') };
  if (hasFault(opts, 'models-architecture-no-instruct-type')) {
    const { instruct_type: _left, ...rest } = arch;
    arch = rest;
  }
  const body: Record<string, unknown> = {
    id: m.id,
    name: m.name,
    created: m.created,
    description: m.description,
    architecture: extra(opts, arch),
    endpoints: m.endpoints.map((e, i) => extra(opts, endpointBody(opts, e, i))),
  };
  // Record fault: one endpoint (options.faultPosition), not every one, with pricing.completion a JSON number.
  const bad = recordIndex(opts.faultPosition, m.endpoints.length);
  if (hasFault(opts, 'models-record-endpoint-pricing-number') && bad >= 0)
    (body.endpoints as Array<Record<string, unknown>>)[bad]!.pricing = {
      ...m.endpoints[bad]!.pricing,
      completion: Number(m.endpoints[bad]!.pricing.completion),
    };
  const endpoints = body.endpoints as Array<Record<string, unknown>>;
  if (hasFault(opts, 'models-record-pricing-two-fields') && bad >= 0)
    endpoints[bad]!.pricing = {
      prompt: m.endpoints[bad]!.pricing.prompt,
      completion: m.endpoints[bad]!.pricing.completion,
    };
  if (hasFault(opts, 'models-record-latency-no-p99') && bad >= 0) {
    const { p99: _p99, ...rest } = m.endpoints[bad]!.latency_last_30m;
    endpoints[bad]!.latency_last_30m = rest;
  }
  if (hasFault(opts, 'models-no-endpoints')) delete body.endpoints;
  if (hasFault(opts, 'models-no-description')) delete body.description;
  if (hasFault(opts, 'models-description-latin1')) body.description = `${m.description} (caf\u00e9)`;
  if (hasFault(opts, 'models-created-millis')) body.created = m.created * 1000;
  if (hasFault(opts, 'models-id-without-author')) body.id = m.id.split('/')[1];
  return extra(opts, body);
}

/** One endpoint as sent (2.4), with the variant and the endpoint faults applied. */
function endpointBody(opts: ReferenceOptions, e: Endpoint, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = opts.sparseEndpoints ? sparse(e, i) : { ...e };
  // pricing-exponent: the decimal numbers as Python prints floats ("2.5e-06" below 1e-4, "0.0").
  if (hasReading(opts, 'pricing-exponent'))
    out.pricing = Object.fromEntries(Object.entries(e.pricing).map(([k, v]) => [k, pythonFloat(Number(v))]));
  if (hasFault(opts, 'models-pricing-not-numeric'))
    out.pricing = Object.fromEntries(Object.entries(e.pricing).map(([k, v]) => [k, `$${v}`]));
  if (hasFault(opts, 'models-endpoint-context-length-string')) out.context_length = String(e.context_length);
  if (hasFault(opts, 'models-pricing-fifth-field')) out.pricing = { ...(out.pricing as object), discount: '0' };
  if (hasFault(opts, 'models-pricing-numbers'))
    out.pricing = Object.fromEntries(Object.entries(e.pricing).map(([k, v]) => [k, Number(v)]));
  if (hasFault(opts, 'models-percentile-strings'))
    out.latency_last_30m = Object.fromEntries(Object.entries(e.latency_last_30m).map(([k, v]) => [k, String(v)]));
  if (hasFault(opts, 'models-uptime-strings'))
    for (const k of ['uptime_last_5m', 'uptime_last_30m', 'uptime_last_1d']) if (k in out) out[k] = String(out[k]);
  return out;
}

/**
 * 2.4: "Allowed values and nullability of (instruct_type, quantization, status, tokenizer,
 * modality), and which endpoint fields are required: not shown." The sparse variant uses that
 * freedom: quantization null on every other endpoint, status null on the first, and a few
 * fields (max_prompt_tokens, uptime_last_1d, tag) left out on some endpoints.
 */
function sparse(e: Endpoint, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...e };
  if (i % 2 === 0) out.quantization = null;
  if (i === 0) out.status = null;
  if (i % 2 === 1) delete out.max_prompt_tokens;
  if (i % 3 === 0) delete out.uptime_last_1d;
  if (i === 2) delete out.tag;
  return out;
}

/** Python's str(float): exponent form (two-digit exponent) below 1e-4 and from 1e16, else ".0" on whole numbers. */
function pythonFloat(n: number): string {
  const a = Math.abs(n);
  if (a !== 0 && (a < 1e-4 || a >= 1e16)) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

/**
 * Fault models-description-latin1: the body as UTF-8 except the "é" of "(café)" in the description,
 * sent as the Latin-1 byte 0xE9 (an encoding mistake of a server that writes Latin-1 text into a
 * UTF-8 body): every other byte is unchanged, so only RFC 8259 section 8.1 breaks.
 */
function latin1Cafe(body: unknown): Buffer {
  const utf8 = Buffer.from(JSON.stringify(body), 'utf8');
  const cafe = Buffer.from('caf\u00e9)', 'utf8');
  const at = utf8.indexOf(cafe);
  return Buffer.concat([utf8.subarray(0, at + 3), Buffer.from([0xe9]), utf8.subarray(at + cafe.length - 1)]);
}
