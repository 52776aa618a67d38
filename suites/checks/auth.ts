import type { ApiResponse } from '../../core/http/client.ts';
import { defineChecks, type CheckDeclaration } from '../../core/check/check.ts';
import { CannotJudge } from '../../core/check/errors.ts';
import { conform, expectSchema, expectStatus } from '../../core/check/expect.ts';
import {
  errorBody,
  OPERATION_PROBES,
  sendWithKeyHeader,
  type KeyHeader,
  type OperationProbe,
} from '../support/operations.ts';
import { shown } from '../support/values.ts';

const needsRestrictedKey = (t: { hasRestrictedKey: boolean }) =>
  t.hasRestrictedKey
    ? undefined
    : { field: 'restrictedApiKey', why: 'a valid key that lacks permission, section 5 rule 3' };

/**
 * 5 + 7: a 401 or 403 carries the error body of its operation (7.1 / 7.2 / 7.3 schema). Its code is
 * the integer status where the document says so: 7.1 "In these bodies error.code equals the HTTP
 * status", 7.3 "401 (integer)", "403 (integer)". 7.2 states no equality, and section 7 allows
 * "integer, or string on some operations": there the section 7 shape is all that binds (an integer
 * code is models.errors.code-integer's SHOULD). The body is parsed whatever its Content-Type: the
 * media type is general.json-media-type's concern, so a text/plain 401 does not fail here.
 */
function expectAuthErrorBody(res: ApiResponse, op: OperationProbe, status: 401 | 403): void {
  const body = errorBody(res, 'auth.error-shape');
  // The model-endpoints operation's own schema holds an integer code (models.errors.code-integer, SHOULD):
  // only the section 7 shape binds there (spec/readings.yaml, decision model-error-codes).
  if (op.operation === 'listModelEndpoints') return expectSchema(body, 'Error', 'auth.error-shape', res);
  expectSchema(body, op.errorSchema, 'auth.error-shape', res);
  const code = (body as { error: { code: unknown } }).error.code;
  conform(
    code === status,
    'auth.error-shape',
    `${op.operation} ${status}: error.code is ${shown(code)}, expected the integer ${status}`,
    res,
  );
}

/**
 * 5 rule 1: the valid key in another form than `Bearer <API_KEY>`. Rule 2 gives 401 when the header is
 * missing or the key invalid, which these are not, so refusing them is a SHOULD (reading
 * auth-basic-accepted). The suite itself only ever sends the scheme as written, `Bearer` (reading
 * bearer-case-sensitive: RFC 9110 makes schemes case-insensitive, the document writes one spelling).
 */
const MALFORMED: ReadonlyArray<{ what: string; build(key: string): KeyHeader }> = [
  {
    what: 'the key in the Basic scheme',
    build: (key) => {
      const value = Buffer.from(`${key}:`, 'utf8').toString('base64');
      return { header: `Basic ${value}`, derived: [{ value, placeholder: 'base64($API_KEY:)' }] };
    },
  },
  { what: 'the key in a `Token` scheme', build: (key) => ({ header: `Token ${key}` }) },
  { what: 'the key with no scheme', build: (key) => ({ header: key }) },
];

// Section 5 applies to every operation: each rule is probed once per operation, so a report row
// says which operation broke it.
function authChecks(op: OperationProbe): CheckDeclaration[] {
  return [
    {
      id: `auth.bearer.${op.tag}`,
      title: `${op.operation} with the API key as \`Bearer <key>\` gets 200`,
      operation: op.operation,
      requirements: ['auth.bearer-accepted'],
      async probe(ctx) {
        // 5 rule 1: the documented credential. The body is the operation's own checks' concern.
        const res = await op.send(ctx, 'key');
        // A model answered "Resource not found" (7.2) is the target file's modelEndpoints.model, not a
        // refused key (rule "Bad input exits 2"): named as models.response.schema names it, where no preflight ran first.
        if (op.operation === 'listModelEndpoints' && res.status === 404) {
          throw new CannotJudge(
            'target-file',
            `modelEndpoints.model ${shown(ctx.target.modelEndpoints.model)} was answered 404: is it a model the deployment serves? Check the target file`,
            [res.exchange],
          );
        }
        expectStatus(res, 200, 'auth.bearer-accepted', `${op.operation} with Authorization: Bearer $API_KEY`);
      },
    },
    {
      id: `auth.missing.${op.tag}`,
      title: `${op.operation} without an Authorization header gets 401 with its error body`,
      operation: op.operation,
      requirements: ['auth.missing-401', 'auth.error-shape'],
      async probe(ctx) {
        // 5 rule 2 ("header is missing"); for interns also 5 rule 4 ("an API key is required").
        const res = await op.send(ctx, 'none');
        expectStatus(res, 401, 'auth.missing-401', `${op.operation} without Authorization`);
        expectAuthErrorBody(res, op, 401);
        // With the operation's parameters too: a server that checks the credential on the bare request only.
        const withParams = await op.sendWithParams(ctx, 'none');
        if (withParams) {
          expectStatus(withParams, 401, 'auth.missing-401', `${op.operation} with parameters, without Authorization`);
          expectAuthErrorBody(withParams, op, 401);
        }
      },
    },
    {
      id: `auth.invalid.${op.tag}`,
      title: `${op.operation} with an unknown, an empty or a lengthened bearer key gets 401 with its error body`,
      operation: op.operation,
      requirements: ['auth.invalid-401', 'auth.error-shape'],
      async probe(ctx) {
        // 5 rule 2 ("the key is invalid"): a made-up token no deployment issues, and an empty one
        // (RFC 6750 section 2.1: b64token is 1*char; a server may see `Bearer` once trailing
        // whitespace is stripped; either way no key).
        for (const [header, what] of [
          ['Bearer conformance-suite-unknown-key-0000', 'an unknown bearer key'],
          ['Bearer ', 'an empty bearer token'],
        ] as const) {
          const res = await op.send(ctx, { header });
          expectStatus(res, 401, 'auth.invalid-401', `${op.operation} with ${what}`);
          expectAuthErrorBody(res, op, 401);
        }
        // The valid key with one character added is another key, as invalid as any: a server that
        // compares only the start of the credential accepts it. It holds the whole key, so the mask hides
        // it in every output like the key itself.
        const res = await sendWithKeyHeader(ctx, op, (key) => ({ header: `Bearer ${key}0` }));
        expectStatus(res, 401, 'auth.invalid-401', `${op.operation} with the valid key and one character more`);
        expectAuthErrorBody(res, op, 401);
      },
    },
    {
      id: `auth.malformed.${op.tag}`,
      title: `${op.operation} with the valid key in another form than a bearer token gets 401`,
      operation: op.operation,
      requirements: ['auth.malformed-401'],
      estimatedRequests: MALFORMED.length,
      async probe(ctx) {
        // 5 rule 1 names one credential form, `Bearer <API_KEY>` (the valid key itself is used so that
        // only the form is wrong). SHOULD: the key is neither missing nor invalid (rule 2), so accepting
        // it is another reading; the bodies of 401s are judged by the MUST checks above.
        for (const m of MALFORMED) {
          const res = await sendWithKeyHeader(ctx, op, m.build);
          expectStatus(res, 401, 'auth.malformed-401', `${op.operation} with ${m.what}`);
        }
      },
    },
    {
      id: `auth.restricted.${op.tag}`,
      title: `${op.operation} with a valid key that may lack permission gets 403 or 200, never 401`,
      operation: op.operation,
      requirements: ['auth.restricted-403', 'auth.error-shape'],
      needs: needsRestrictedKey,
      async probe(ctx) {
        // 5 rule 3: a valid key lacking permission gets 403. Which kind of key each operation needs
        // is not shown (section 5), so 200 is as conformant as 403; 401 would call a valid key invalid.
        const res = await op.send(ctx, 'restricted');
        conform(
          res.status !== 401,
          'auth.restricted-403',
          `${op.operation} answered 401 to a valid (restricted) key; 5 rule 3 gives 403 when a valid key lacks permission`,
          res,
        );
        expectStatus(res, [200, 403], 'auth.restricted-403', `${op.operation} with the restricted key`);
        if (res.status === 403) expectAuthErrorBody(res, op, 403);
      },
    },
  ];
}

export const authChecksAll = defineChecks([
  ...OPERATION_PROBES.flatMap(authChecks),
  {
    id: 'auth.key-kind',
    title: 'Which operations accept the restricted key (not shown)',
    operation: 'general',
    requirements: ['auth.key-kind-per-operation'],
    kind: 'observation',
    needs: needsRestrictedKey,
    async probe(ctx) {
      // Section 5: "Which kind of key each of the three operations requires: not shown."
      const statuses: Record<string, number> = {};
      for (const op of OPERATION_PROBES) statuses[op.operation] = (await op.send(ctx, 'restricted')).status;
      ctx.observe('auth.key-kind-per-operation', {
        acceptedBy: Object.keys(statuses).filter((o) => statuses[o] === 200),
        statuses,
      });
    },
  },
]);
