import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * What the record judges share: one broken rule of one record, and how it becomes a finding.
 *
 * A record rule is a pure function of one record (a container file of 2.1, an intern of 2.5, an
 * endpoint of 2.4) returning the violation it sees, or undefined. The same function serves the check
 * that samples records with its own requests and the judge that sees every record of every response
 * of the run, so a rule is written once.
 */
import type { ProbeContext } from '../../core/check/check.ts';
import type { ApiResponse } from '../../core/http/client.ts';
import type { Finding, SeenResponse } from '../../core/check/judge.ts';
import { isObject } from '../support/values.ts';
import { recordLabel } from './record-label.ts';

export interface RecordViolation {
  requirementId: RequirementId;
  /** What is wrong, naming the field and its value (the caller adds where the record sits). */
  message: string;
  /**
   * The kind of violation (e.g. `created_at:milliseconds`): two records broken the same way are the
   * same violation for the report, which shows the first one seen with its exchange and position.
   */
  kind: string;
}

/** A record rule: the violation it sees in one record, or undefined (also when it cannot judge). */
export type RecordRule = (record: Record<string, unknown>) => RecordViolation | undefined;

/** The array at `key` of a JSON object, or [] when there is none (the schema judge reports that). */
export function arrayAt(holder: unknown, key: string): unknown[] {
  return isObject(holder) && Array.isArray(holder[key]) ? holder[key] : [];
}

/**
 * Applies `rules` to every object of `records` (a non-object element is the schema judge's) and
 * turns each violation into a finding at `${pointer}/${i}` with the record's position.
 */
export function recordFindings(
  response: SeenResponse,
  pointer: string,
  records: readonly unknown[],
  rules: readonly RecordRule[],
): Finding[] {
  const findings: Finding[] = [];
  // One finding per distinct violation (the first record that shows it): a page of a million records
  // broken alike is one finding, not a million (rule "Hostile input").
  const kinds = new Set<string>();
  for (const [i, record] of records.entries()) {
    if (!isObject(record)) continue;
    for (const rule of rules) {
      const v = rule(record);
      if (!v) continue;
      const label = recordLabel(record);
      if (kinds.has(`${v.requirementId}:${v.kind}`)) continue;
      kinds.add(`${v.requirementId}:${v.kind}`);
      findings.push({
        requirementId: v.requirementId,
        message: `${pointer}/${i}${label ? ` (${label})` : ''}: ${v.message}`,
        exchange: response.exchange,
        position: i,
        dedupeKey: `${v.requirementId}:${v.kind}`,
      });
    }
  }
  return findings;
}

/**
 * For a check that judges records it fetched itself: fails with the violation `rule` sees in `record`
 * (the rule's own requirement, which the check declares), the response as evidence, `where` naming the record.
 */
export function conformRecord(
  ctx: Pick<ProbeContext, 'conform'>,
  rule: RecordRule,
  record: Record<string, unknown>,
  res: ApiResponse,
  where: string,
): void {
  const v = rule(record);
  if (v) ctx.conform(false, v.requirementId, `${where}: ${v.message}`, res);
}
