import { strongestLevel } from '../core/catalogue.ts';
import { tagsOf } from '../core/tags.ts';
import type { RunSettings } from '../core/run-settings.ts';
import type { Target } from '../core/target.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';

/** --dry-run: what the run would do, without a single request. */
export function printPlan(target: Target, settings: RunSettings, grep: string | undefined): void {
  const re = grep ? new RegExp(grep) : undefined;
  const selected = ALL_CHECKS.filter((c) => !re || re.test(`${c.id} ${tagsOf(c).join(' ')}`));
  const lines = [`plan: ${selected.length} of ${ALL_CHECKS.length} checks against ${target.baseUrl}, request budget ${settings.maxRequests}`];
  for (const c of selected) lines.push(`  ${strongestLevel(c.requirements).padEnd(11)} ${c.id}  [${c.requirements.join(', ')}]`);
  lines.push('dry run: no request sent');
  process.stdout.write(lines.join('\n') + '\n');
}
