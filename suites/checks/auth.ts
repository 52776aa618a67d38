import { defineChecks, type CheckDeclaration } from '../../core/check.ts';
import { conform, expectJson, expectSchema, expectStatus } from '../../core/expect.ts';
import { OPERATION_PROBES, type OperationProbe } from '../support/operations.ts';

// Section 5 applies to every operation: each rule is probed once per operation, so a report row
// says which operation broke it.
function authChecks(op: OperationProbe): CheckDeclaration[] {
  return [
    {
      id: `auth.missing.${op.tag}`,
      title: `${op.operation} without an Authorization header gets 401 with its error body`,
      operation: op.operation,
      requirements: ['auth.missing-401', 'auth.error-shape'],
      async probe(ctx) {
        const res = await op.send(ctx, 'none');
        expectStatus(res, 401, 'auth.missing-401');
        expectSchema(expectJson(res), op.errorSchema, 'auth.error-shape', res);
        conform((res.json as { error: { code: unknown } }).error.code === 401, 'auth.error-shape', `error.code is ${JSON.stringify((res.json as { error: { code: unknown } }).error.code)}, expected 401`, res);
      },
    },
    {
      id: `auth.invalid.${op.tag}`,
      title: `${op.operation} with an unknown bearer key gets 401`,
      operation: op.operation,
      requirements: ['auth.invalid-401', 'auth.error-shape'],
      async probe(ctx) {
        const res = await op.send(ctx, { header: 'Bearer conformance-suite-unknown-key-0000' });
        expectStatus(res, 401, 'auth.invalid-401');
        expectSchema(expectJson(res), op.errorSchema, 'auth.error-shape', res);
      },
    },
  ];
}

export const authChecksAll = defineChecks(OPERATION_PROBES.flatMap(authChecks));
