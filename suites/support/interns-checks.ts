import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * What the list interns checks share (2.5, 4.3, 7.3): the observation cap, the other workspace a
 * target file may name, UUID comparison, and a parameter whose values are each refused.
 */
import type { AbsentField, ProbeContext } from '../../core/check/check.ts';
import type { TargetView } from '../../core/target/target.ts';
import { expectInvalidBody } from './interns.ts';
import { confirmInternsParams, internsQuery, needsInternsParams } from './interns-query.ts';
import { shown } from './values.ts';

/** Values kept per list in an observation. */
export const CAP = 12;

export function needsOtherWorkspace(t: TargetView): AbsentField | undefined {
  return needsInternsParams(t) ?? (t.interns.otherWorkspaceId ? undefined : { field: 'interns.otherWorkspaceId' });
}

export const sameUuid = (a: unknown, b: string): boolean =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** 7.3: each value of one query parameter is refused with invalid_body (any 4xx: the status of string codes is not shown). */
export async function expectEachInvalid(
  ctx: ProbeContext,
  requirementId: RequirementId,
  param: 'limit' | 'status',
  values: readonly string[],
): Promise<void> {
  await confirmInternsParams(ctx);
  for (const value of values) {
    const res = await ctx.api.listInterns(internsQuery(ctx.target, { [param]: value }));
    expectInvalidBody(res, requirementId, `${param === 'limit' ? 'page size' : 'status'} ${shown(value)}`);
  }
}
