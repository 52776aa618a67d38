/** GET /models/{author}/{slug}/endpoints — List all endpoints for a model (2.3, 2.4, 4.2). */
import { MODELS, type Endpoint, type Model } from '../data.ts';
import { modelsError, type JsonResponse } from '../errors.ts';
import { decodeSegment, extra, type RouteContext } from '../context.ts';
import type { ReferenceOptions } from '../options.ts';

export function listModelEndpoints(ctx: RouteContext): JsonResponse {
  // 4.2 path parameters author and slug, each percent-decoded exactly once; an undecodable
  // segment cannot name a model -> 404 (7.2 lists 403, 404, 500 only, so no 400 here).
  const author = decodeSegment(ctx.rawParams.author ?? '');
  const slug = decodeSegment(ctx.rawParams.slug ?? '');
  if (author === null || slug === null) return modelsError(404);
  const model = MODELS.get(`${author}/${slug}`);
  if (!model) return modelsError(404); // 7.2: "Resource not found"
  // 4.2: an object with one field `data` holding the model with endpoints (2.3).
  return { status: 200, body: extra(ctx.opts, { data: modelBody(ctx.opts, model) }) };
}

function modelBody(opts: ReferenceOptions, m: Model): unknown {
  const arch = opts.sparseEndpoints
    ? // 2.4: nullability of instruct_type/tokenizer is not shown; the sparse variant sends null.
      { ...m.architecture, instruct_type: null, tokenizer: null }
    : m.architecture;
  return extra(opts, {
    id: m.id,
    name: m.name,
    created: m.created,
    description: m.description,
    architecture: extra(opts, arch),
    endpoints: m.endpoints.map((e, i) => extra(opts, opts.sparseEndpoints ? sparse(e, i) : e)),
  });
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
