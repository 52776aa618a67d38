import { strongestLevel } from '../core/document/catalogue.ts';
import { absentFieldText, estimateOf, type CheckDeclaration } from '../core/check/check.ts';
import { grepText } from '../core/check/tags.ts';
import type { RunSettings } from '../core/run/run-settings.ts';
import { viewOf, type Target } from '../core/target/target.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';

/** The preflight sends one request per operation (cli/preflight.ts). */
const PREFLIGHT_REQUESTS = 3;

export interface PlannedCheck {
  check: CheckDeclaration;
  /** Requests the check is expected to send (0 when it will be skipped). */
  estimate: number;
  /** Why the check will be skipped against this target (an optional field is absent). */
  skip?: string;
}

export interface Plan {
  checks: PlannedCheck[];
  /** Requests of the whole run, the preflight included. */
  estimate: number;
}

/** The checks a run would execute (after --grep) and what they would cost; sends nothing. */
export function buildPlan(target: Target, settings: Pick<RunSettings, 'numRuns'>, grep: string | undefined): Plan {
  const re = grep ? new RegExp(grep) : undefined;
  const view = viewOf(target);
  const checks = ALL_CHECKS.filter((c) => !re || re.test(grepText(c))).map((check): PlannedCheck => {
    const absent = check.needs?.(view);
    return absent
      ? { check, estimate: 0, skip: absentFieldText(absent) }
      : { check, estimate: estimateOf(check, settings.numRuns) };
  });
  return { checks, estimate: PREFLIGHT_REQUESTS + checks.reduce((sum, c) => sum + c.estimate, 0) };
}

/** --dry-run: what the run would do, without a single request. */
export function printPlan(target: Target, settings: RunSettings, grep: string | undefined): void {
  const plan = buildPlan(target, settings, grep);
  const properties = plan.checks.filter((c) => c.check.kind === 'property').length;
  const lines = [
    `plan: ${plan.checks.length} of ${ALL_CHECKS.length} checks (${properties} properties, ${settings.numRuns} runs each) against ${target.baseUrl}`,
    '  level       kind         requests  check',
  ];
  for (const { check, estimate, skip } of plan.checks) {
    const requests = skip ? 'skip' : `~${estimate}`;
    lines.push(
      `  ${strongestLevel(check.requirements).padEnd(11)} ${(check.kind ?? 'check').padEnd(12)} ${requests.padStart(8)}  ${check.id}  [${check.requirements.join(', ')}]${skip ? ` — ${skip}` : ''}`,
    );
  }
  lines.push(`estimated requests: ~${plan.estimate} (preflight included), request budget ${settings.maxRequests}`);
  if (plan.estimate > settings.maxRequests) {
    lines.push(
      `the estimate is over the budget: checks after the first ~${settings.maxRequests} requests would be cut short (raise --max-requests)`,
    );
  }
  if (settings.maxRps > 0) {
    const seconds = Math.ceil(plan.estimate / settings.maxRps);
    lines.push(`rate limit ${settings.maxRps} requests/s: at least ~${seconds} s`);
    // The run would end INCOMPLETE at its deadline: said before, not discovered after.
    if (seconds * 1000 > settings.deadlineMs)
      lines.push(
        `the estimate is over the deadline of ${settings.deadlineMs / 1000} s: checks after the first ~${settings.deadlineMs / 1000} s would be cut short and the run would end INCOMPLETE (raise --deadline or --max-rps)`,
      );
  }
  lines.push('dry run: no request sent');
  process.stdout.write(`${lines.join('\n')}\n`);
}
