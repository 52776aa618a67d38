import type { ApiResponse } from '../../core/client.ts';
import { ConformanceFailure } from '../../core/errors.ts';
import { validate, type SchemaName, type SchemaViolation } from '../../spec/schemas.ts';

/**
 * Violations of `value` against a component, minus those `owned` claims. One OpenAPI component mixes
 * rules of several requirements (a type of 2.5 and the UUID format of the same field, say); each
 * check names the precise requirement that broke, so a schema check leaves the rules that have a
 * requirement of their own to that requirement's check.
 */
export function violationsOf(schema: SchemaName, value: unknown, owned: (v: SchemaViolation) => boolean = () => false): SchemaViolation[] {
  return validate(schema, value).filter((v) => !owned(v));
}

/** Throws a failure of requirementId naming the first violations (same wording as expectSchema). */
export function failOnViolations(violations: readonly SchemaViolation[], schema: SchemaName, requirementId: string, res?: ApiResponse, at = ''): void {
  if (violations.length === 0) return;
  const list = violations.slice(0, 5).map((v) => `${at}${v.path || '/'} ${v.message}`).join('; ');
  const more = violations.length > 5 ? ` (+${violations.length - 5} more)` : '';
  throw new ConformanceFailure(requirementId, `does not match ${schema}: ${list}${more}`, res ? [res.exchange] : []);
}
