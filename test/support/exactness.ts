import type { FaultDeclaration } from '../../reference/faults/index.ts';
import type { ConformantVariant } from '../../reference/variants.ts';
import type { ConformanceReport, RequirementResult } from '../../reports/model.ts';

/**
 * What "caught" means in the self-test, written once for test/self-test.test.ts and the score table:
 * a fault is caught when the run is NON-CONFORMANT, fails EVERY requirement the fault names in
 * `breaks`, and fails no other requirement save those it declares in `alsoFails` (each of which must
 * fail too). Anything looser lets a check that blames the wrong requirement, or a rule no fault
 * reaches, pass unseen.
 */
export interface FaultJudgement {
  caught: boolean;
  verdict: ConformanceReport['verdict'];
  /** Named in `breaks` and not failed: its status and why (e.g. "not reached: … failed first"). */
  missing: RequirementResult[];
  /** Failed, yet neither in `breaks` nor in `alsoFails`: the check and its message are in `reason`. */
  extra: RequirementResult[];
  /** Declared in `alsoFails` and not failed: the declaration no longer holds. */
  stale: RequirementResult[];
  /** Requirements of `breaks` that failed (what the fault shows). */
  shown: string[];
}

export function judgeFault(fault: FaultDeclaration, report: ConformanceReport): FaultJudgement {
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const failed = new Set(report.requirements.filter((r) => r.status === 'fail').map((r) => r.id));
  const declared = new Set((fault.alsoFails ?? []).map((a) => a.id));
  const missing = fault.breaks.filter((id) => !failed.has(id)).map((id) => byId.get(id)!);
  const extra = report.requirements.filter(
    (r) => r.status === 'fail' && !fault.breaks.includes(r.id) && !declared.has(r.id),
  );
  const stale = [...declared].filter((id) => !failed.has(id)).map((id) => byId.get(id)!);
  const caught =
    report.verdict === 'non-conformant' && missing.length === 0 && extra.length === 0 && stale.length === 0;
  return { caught, verdict: report.verdict, missing, extra, stale, shown: fault.breaks.filter((id) => failed.has(id)) };
}

const line = (r: RequirementResult) =>
  `    ${r.id} (${r.level}) ${r.status}: ${r.reason ?? ''}${r.status === 'fail' ? '' : ` [checks: ${r.checks.join(', ') || 'none'}]`}`;

/** The test's failure message: the fault, then each missing, extra and stale requirement with its check and message, then what to do. */
export function faultProblem(fault: FaultDeclaration, j: FaultJudgement, seed: number): string {
  if (j.caught) return '';
  const out = [`fault ${fault.name} (seed ${seed}, verdict ${j.verdict}) is not caught exactly:`];
  if (j.verdict !== 'non-conformant') out.push('  the run is not NON-CONFORMANT');
  if (j.missing.length) out.push('  named in breaks but not failed:', ...j.missing.map(line));
  if (j.extra.length) out.push('  failed but not named (check: message):', ...j.extra.map(line));
  if (j.stale.length) out.push('  declared in alsoFails but not failed (drop the declaration):', ...j.stale.map(line));
  out.push(
    '  Make the fault break exactly what it names; or fix the check that blames the wrong requirement (its message says which);',
    "  or, when the one defect truly breaks the extra requirement too, declare it on the fault: alsoFails: [{ id: '<id>', why: '<how, with the document's words>' }].",
    '  A requirement "not reached" was left unjudged because its check failed first on another one: make the fault reach it.',
  );
  return out.join('\n');
}

/** A variant's MUST requirements that are not judged and passed on one run, save those it declares `unjudged` (and that are not failed). */
export function variantProblems(variant: ConformantVariant, report: ConformanceReport): string[] {
  const declared = new Map((variant.unjudged ?? []).map((u) => [u.id, u.why]));
  const out: string[] = [];
  for (const r of report.requirements.filter((x) => x.level === 'MUST')) {
    if (r.status === 'pass') {
      if (declared.has(r.id)) out.push(`${r.id} is declared unjudged but passed (drop the declaration)`);
      continue;
    }
    // A failure is never excused by a declaration: the variant is conformant or it is not.
    if (r.status !== 'fail' && declared.has(r.id)) continue;
    out.push(
      `${r.id} ${r.status}: ${r.reason ?? ''}${r.status === 'fail' ? '' : ' (judge it, or declare it on the variant: unjudged: [{ id, why }], the reading that leaves nothing to judge)'}`,
    );
  }
  if (report.verdict !== 'conformant')
    out.push(`verdict ${report.verdict}${report.run.incomplete ? `: ${report.run.incomplete}` : ''}`);
  return out;
}
