import type { ApiResponse } from '../../core/http/client.ts';
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { expectJson, expectSchema } from '../../core/check/expect.ts';
import { expectJsonBody } from '../support/json-media.ts';
import { errorBody, errorsAmong, OPERATION_PROBES } from '../support/operations.ts';

/** Each operation's plain request, the same without a key (5 rule 2) and its own invalid input where the target file allows it. */
async function successAndErrors(ctx: ProbeContext): Promise<ApiResponse[]> {
  const out: ApiResponse[] = [];
  for (const op of OPERATION_PROBES) {
    for (const res of [await op.send(ctx, 'key'), await op.send(ctx, 'none'), await op.sendInvalid(ctx)])
      if (res) out.push(res);
  }
  return out;
}

/** Headers through which a deployment could announce deprecation or negotiate a version (section 9: not shown). */
const VERSION_HEADERS = ['deprecation', 'sunset', 'api-version', 'x-api-version', 'link'] as const;

export const generalChecks = defineChecks([
  {
    id: 'general.errors.shape',
    title: 'Error bodies of every operation have the section 7 shape',
    operation: 'general',
    requirements: ['general.errors.shape'],
    async probe(ctx: ProbeContext) {
      // One error of each operation's own input where the target file allows it (4.1 limit=0, 4.2 the
      // missing model, 4.3 page size 0) and the no-key 401 of each (5 rule 2).
      const sent: Array<ApiResponse | undefined> = [];
      for (const op of OPERATION_PROBES) sent.push(await op.sendInvalid(ctx), await op.send(ctx, 'none'));
      const errors = errorsAmong(sent);
      if (errors.length === 0) ctx.skip('no error response was provoked, so there is nothing to judge');
      for (const res of errors) {
        // Section 7: error {code, message, metadata?: object|null}, service_metadata?: object|null,
        // user_id?: string|null; code "integer, or string on some operations". Content-Type is
        // general.json-media-type's: the body is parsed whatever it says.
        expectSchema(
          errorBody(res, 'general.errors.shape'),
          'Error',
          'general.errors.shape',
          res,
          `HTTP ${res.status} `,
        );
      }
    },
  },
  {
    id: 'general.json-body',
    title: 'Success and error responses of every operation are JSON under a JSON media type',
    operation: 'general',
    requirements: ['general.json-body'],
    async probe(ctx: ProbeContext) {
      // Section 1 "exchanges JSON": application/json or a +json type such as application/problem+json
      // (RFC 6839), parameters allowed; the body parses.
      for (const res of await successAndErrors(ctx)) expectJsonBody(res, 'general.json-body');
    },
  },
  {
    id: 'general.json-media-type',
    title: 'Success and error responses of every operation are application/json',
    operation: 'general',
    requirements: ['general.json-media-type'],
    async probe(ctx: ProbeContext) {
      // SHOULD: 4.1 names application/json for its 200 only (files.list.media-type); the same type
      // everywhere is the convention (reading errors-problem-json). Parameters such as charset=utf-8
      // are allowed (RFC 9110 section 8.3.1), and the type is compared case-insensitively.
      for (const res of await successAndErrors(ctx)) expectJson(res, 'general.json-media-type');
    },
  },
  {
    id: 'general.base-url-v1',
    title: 'The base URL ends with the version segment /v1',
    operation: 'general',
    requirements: ['general.base-url-v1'],
    async probe(ctx: ProbeContext) {
      const { target } = ctx;
      // 9 rule 1: "{base_url} already includes the version path segment /v1; paths in section 4 are
      // appended to it." The client appends them to target.baseUrl, so its last segment must be v1.
      const path = new URL(target.baseUrl).pathname.replace(/\/+$/, '');
      ctx.conform(
        path.split('/').at(-1) === 'v1',
        ctx.requirement,
        `baseUrl ${target.baseUrl} does not end with the path segment /v1 (section 9 rule 1)`,
      );
    },
  },
  {
    id: 'general.versioning.negotiation',
    title: 'Deprecation and version headers on the responses (not shown)',
    operation: 'general',
    requirements: ['general.versioning.negotiation'],
    kind: 'observation',
    async probe(ctx: ProbeContext) {
      // 9: "Deprecation policy and version negotiation: not shown." Observed on each operation's plain request.
      const seen: Record<string, Record<string, string>> = {};
      for (const op of OPERATION_PROBES) {
        const res = await op.send(ctx, 'key');
        const headers = Object.fromEntries(
          VERSION_HEADERS.filter((h) => res.headers[h] !== undefined).map((h) => [h, res.headers[h]!]),
        );
        if (Object.keys(headers).length) seen[op.operation] = headers;
      }
      ctx.observe('general.versioning.negotiation', Object.keys(seen).length ? seen : 'none');
    },
  },
]);
