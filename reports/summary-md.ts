/**
 * summary.md: the short Markdown for a CI job summary ($GITHUB_STEP_SUMMARY) or a PR comment:
 * verdict, counts per level and per operation, each failure with its requirement id and one line,
 * the replay command. The evidence stays in report.html / report.json.
 */
import type { ConformanceReport, RequirementResult, RequirementStatus } from './model.ts';
import { REQUIREMENT_STATUSES } from './model.ts';
import { mdCode, mdText } from './escape.ts';
import { byOperation, durationText, LEVEL_ORDER, oneLine, scopeText, tally } from './format.ts';

const ICON: Record<ConformanceReport['verdict'], string> = { conformant: '✅', 'non-conformant': '❌', error: '⚠️' };

/** Failures and errors listed in full up to this many; the rest are counted. */
const MAX_LISTED = 25;

export function summaryMarkdown(report: ConformanceReport): string {
  const r = report.run;
  const scope = scopeText(report);
  const out: string[] = [
    `## ${ICON[report.verdict]} Conformance ${mdText(report.specVersion)}: ${report.verdict.toUpperCase()}`,
    '',
    `Target ${mdCode(report.target.baseUrl)} · suite ${mdText(report.suite.version)} (${mdCode(report.suite.commit)}) · seed ${r.seed} · ${r.requests} requests · fails on ${r.failOn === 'should' ? 'MUST and SHOULD' : 'MUST'} · started ${r.startedAt} · took ${durationText(r.durationMs)}${scope ? ` · ${mdText(scope)}` : ''}`,
    '',
    table('level', LEVEL_ORDER.map((level) => ({ name: level, counts: report.counts[level] }))),
    '',
    table('operation', byOperation(report.requirements).map((g) => ({ name: g.operation, counts: tally(g.requirements) }))),
    '',
  ];
  const failures = report.requirements.filter((q) => q.status === 'fail');
  const errors = report.requirements.filter((q) => q.status === 'error');
  if (failures.length) out.push(`### Failures (${failures.length})`, '', ...list(failures), '');
  if (errors.length) out.push(`### Errors (${errors.length})`, '', ...list(errors), '');
  if (r.budgetExhausted.length) out.push(`Request budget of ${r.maxRequests} spent: ${r.budgetExhausted.map(mdCode).join(', ')} cut short.`, '');
  out.push('Replay this run (keys from the environment):', '', '```sh', r.replay.replace(/\r?\n/g, ' ') || `npm run conformance -- --seed ${r.seed}`, '```', '');
  out.push('Evidence of every failure (request, response, `curl` reproduction): `report.html` and `report.json` of this run.', '');
  return out.join('\n');
}

function table(first: string, rows: Array<{ name: string; counts: Record<RequirementStatus, number> }>): string {
  const lines = [`| ${first} | ${REQUIREMENT_STATUSES.join(' | ')} |`, `|---|${REQUIREMENT_STATUSES.map(() => '--:').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.name} | ${REQUIREMENT_STATUSES.map((s) => (row.counts[s] ? (s === 'fail' || s === 'error' ? `**${row.counts[s]}**` : String(row.counts[s])) : '0')).join(' | ')} |`);
  return lines.join('\n');
}

/** A reason quotes what the target sent (URLs, header values): in a code span, nothing in it becomes a link. */
function list(reqs: readonly RequirementResult[]): string[] {
  const shown = reqs.slice(0, MAX_LISTED).map((q) => `- ${mdCode(q.id)} (${q.level}, section ${mdText(q.section)}, ${q.operation}): ${mdCode(oneLine(q.reason ?? '', 200))}`);
  if (reqs.length > MAX_LISTED) shown.push(`- … and ${reqs.length - MAX_LISTED} more (see report.html)`);
  return shown;
}
