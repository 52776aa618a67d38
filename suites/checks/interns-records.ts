import type { CheckDeclaration, ProbeContext } from '../../core/check/check.ts';
import type { RequirementId } from '../../spec/requirement-ids.ts';
import {
  hostnameNameRule,
  hostnameShapeRule,
  modelShapeRule,
  statusValueRule,
  timestampsRule,
  uuidFieldsRule,
} from '../judges/intern-records.ts';
import { conformRecord, type RecordRule } from '../judges/records.ts';
import { someInterns } from '../support/interns.ts';

/**
 * Checks that apply one record rule of 2.5 to every intern the key lists, declared as data: the rule
 * itself is the whole-run judge's (suites/judges/intern-records.ts), which judges every intern of the run.
 */
const INTERN_RECORD_RULES: ReadonlyArray<{
  id: string;
  title: string;
  requirements: readonly RequirementId[];
  rule: RecordRule;
  /** Said as a skip when the key lists no intern: the rule then has nothing to be judged on. */
  skipWhenNone?: string;
}> = [
  // 2.5: "string (UUID format)".
  {
    id: 'interns.intern.uuid-fields',
    title: 'id, workspaceId and vault_id are UUIDs',
    requirements: ['interns.intern.uuid-fields'],
    rule: uuidFieldsRule,
  },
  // 2.5: "ISO 8601 UTC timestamp with milliseconds": three fraction digits, UTC (Z or +00:00), a real date.
  {
    id: 'interns.intern.timestamps',
    title: 'createdAt and updatedAt are ISO 8601 UTC timestamps with milliseconds',
    requirements: ['interns.intern.timestamps'],
    rule: timestampsRule,
  },
  // 2.5: "<intern_name>.<domain>": at least two non-empty dot-separated labels (requirement interpretation).
  {
    id: 'interns.intern.hostname-shape',
    title: 'hostname has the form <intern_name>.<domain>',
    requirements: ['interns.intern.hostname-shape'],
    rule: hostnameShapeRule,
  },
  // 2.5: "<intern_name>.<domain>"; host names compare case-insensitively (RFC 4343). A name that is a
  // host label appears verbatim (MUST); another is expected in its common label form (SHOULD).
  {
    id: 'interns.intern.hostname-name',
    title: 'The first label of hostname is the intern name',
    requirements: ['interns.intern.hostname-label-name', 'interns.intern.hostname-name'],
    rule: hostnameNameRule,
    skipWhenNone: 'no intern is listed',
  },
  // 2.5: "Model identifier <author>/<slug>" (as 2.3).
  {
    id: 'interns.intern.model-shape',
    title: 'model is a model identifier <author>/<slug>',
    requirements: ['interns.intern.model-shape'],
    rule: modelShapeRule,
  },
  // 2.5 / 3: "One of the lifecycle statuses in section 3" (exact, case-sensitive values).
  {
    id: 'interns.intern.status-value',
    title: 'status is one of the lifecycle states of section 3',
    requirements: ['interns.intern.status-value'],
    rule: statusValueRule,
  },
];

function internRecordCheck(row: (typeof INTERN_RECORD_RULES)[number]): CheckDeclaration {
  return {
    id: row.id,
    title: row.title,
    operation: 'listInterns',
    requirements: row.requirements,
    async probe(ctx: ProbeContext) {
      const { res, interns } = await someInterns(ctx);
      if (row.skipWhenNone && interns.length === 0) return ctx.skip(row.skipWhenNone);
      for (const [i, intern] of interns.entries()) conformRecord(ctx, row.rule, intern, res, `/data/${i}`);
    },
  };
}

/** One check per record rule of 2.5, in the table's order (suites/checks/interns.ts lists them). */
export const internRecordChecks: readonly CheckDeclaration[] = INTERN_RECORD_RULES.map(internRecordCheck);
