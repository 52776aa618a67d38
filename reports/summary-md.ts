/**
 * summary.md: the Markdown for a CI job summary ($GITHUB_STEP_SUMMARY) or a PR comment. The verdict
 * line first; counts per level and per operation; one line per failing requirement; then, per
 * failure, what a reader needs to act on it: requirement, level (a SHOULD that does not fail the run
 * marked "not gating"), message, counterexample as JSON data, the curl of the failing request and the
 * command that replays the check. The full evidence stays in report.html / report.json.
 *
 * Every string the target controls (messages quoting bodies, URLs, counterexample values, skip
 * reasons) is put in a code span or a fenced block sized past any backtick run inside, with control
 * characters shown escaped: nothing it holds can autolink, render as Markdown or HTML, or move a
 * terminal's cursor when the file is printed (rule "Hostile input").
 */
import { coverageLines } from '../core/run/coverage.ts';
import { dataJson } from '../core/text/data-json.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { mdCode, mdText } from './escape.ts';
import {
  byOperation,
  durationText,
  LEVEL_ORDER,
  oneLine,
  replayCheckCommand,
  RUN_TIME_LABEL,
  scopeText,
  tally,
  verdictLine,
  waitingText,
} from './format.ts';
import type { ConformanceReport, RequirementFailure, RequirementResult, RequirementStatus } from './model.ts';
import { REQUIREMENT_STATUSES } from './model.ts';

const ICON: Record<ConformanceReport['verdict'], string> = {
  conformant: '✅',
  'non-conformant': '❌',
  error: '⚠️',
  incomplete: '⚠️',
};

/** Requirements listed (and detailed) up to this many; the rest are counted. */
const MAX_LISTED = 25;
/** Failures detailed per requirement (several checks can fail one requirement). */
const MAX_FAILURES_SHOWN = 2;
/** Bounds of the target-controlled parts, so a hostile target cannot grow the summary past what CI accepts. */
const LIMITS = { headline: 200, message: 500, counterexample: 2_000, curl: 2_000 } as const;

/**
 * Target text as a block: a fence longer than any backtick run inside (so no line can close it),
 * every line indented as the block is (so none escapes its container), control characters escaped.
 */
function fenced(text: string, info: string, indent = ''): string[] {
  const body = terminalSafe(text, { keepNewlines: true });
  const fence = '`'.repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${indent}${fence}${info}`, ...body.split('\n').map((l) => `${indent}${l}`), `${indent}${fence}`];
}

/** A SHOULD failure fails the run only with --fail-on should; the reader is told which ones do. */
function gating(report: ConformanceReport, q: RequirementResult): boolean {
  return q.level === 'MUST' || (q.level === 'SHOULD' && report.run.failOn === 'should');
}

export function summaryMarkdown(report: ConformanceReport): string {
  const r = report.run;
  const scope = scopeText(report);
  const out: string[] = [
    // The verdict line can quote the target (an incomplete run's cause: a Retry-After, a URL): escaped.
    `## ${ICON[report.verdict]} Conformance ${mdText(report.specVersion)}: ${mdText(verdictLine(report))}`,
    '',
    ...(r.warnings ?? []).flatMap((w) => [`> **Warning:** ${mdText(w)}`, '']),
    `Target ${mdCode(report.target.baseUrl)} · suite ${mdText(report.suite.version)} (${mdCode(report.suite.commit)}) · seed ${r.seed} · ${r.requests} requests · fails on ${r.failOn === 'should' ? 'MUST and SHOULD' : 'MUST'} · started ${mdText(r.startedAt)} · ${RUN_TIME_LABEL} ${durationText(r.durationMs)}${waitingText(report) ? ` · ${mdText(waitingText(report))}` : ''}${scope ? ` · ${mdText(scope)}` : ''}`,
    '',
    ...(r.keysSentTo ? [`Keys sent only to ${r.keysSentTo.map(mdCode).join(', ')}`, ''] : []),
    // What the verdict covers of each listing (rule "No green without evidence").
    ...(r.coverage ? [...coverageLines(r.coverage).map((l) => `- Listing ${mdText(l)}`), ''] : []),
    table(
      'level',
      LEVEL_ORDER.map((level) => ({ name: level, counts: report.counts[level] })),
    ),
    '',
    table(
      'operation',
      byOperation(report.requirements).map((g) => ({ name: g.operation, counts: tally(g.requirements) })),
    ),
    '',
  ];
  const failures = report.requirements.filter((q) => q.status === 'fail');
  const errors = report.requirements.filter((q) => q.status === 'error');
  if (failures.length) out.push(`### Failures (${failures.length})`, '', ...list(report, failures), '');
  if (errors.length) out.push(`### Errors (${errors.length})`, '', ...list(report, errors), '');
  // A MUST left unjudged is part of what the verdict rests on: the reader sees which and why.
  const skipped = report.requirements.filter((q) => q.status === 'skip' && q.level === 'MUST');
  if (skipped.length) out.push(`### MUST requirements skipped (${skipped.length})`, '', ...list(report, skipped), '');
  if (r.budgetExhausted.length)
    out.push(`Request budget of ${r.maxRequests} spent: ${r.budgetExhausted.map(mdCode).join(', ')} cut short.`, '');
  if (failures.length)
    out.push('### Failure details', '', ...failures.slice(0, MAX_LISTED).flatMap((q) => details(report, q)));
  out.push(
    '### Replay this run',
    '',
    'Keys come from the environment, as in the run.',
    '',
    ...fenced(r.replay.replace(/\r?\n/g, ' ') || `npm run conformance -- --seed ${r.seed}`, 'sh'),
    '',
  );
  out.push('Evidence of every failure (each request and response): `report.html` and `report.json` of this run.', '');
  return out.join('\n');
}

function table(first: string, rows: Array<{ name: string; counts: Record<RequirementStatus, number> }>): string {
  const lines = [
    `| ${first} | ${REQUIREMENT_STATUSES.join(' | ')} |`,
    `|---|${REQUIREMENT_STATUSES.map(() => '--:').join('|')}|`,
  ];
  for (const row of rows)
    lines.push(
      `| ${row.name} | ${REQUIREMENT_STATUSES.map((s) => (row.counts[s] ? (s === 'fail' || s === 'error' ? `**${row.counts[s]}**` : String(row.counts[s])) : '0')).join(' | ')} |`,
    );
  return lines.join('\n');
}

function list(report: ConformanceReport, reqs: readonly RequirementResult[]): string[] {
  const shown = reqs.slice(0, MAX_LISTED).map((q) => {
    const level = q.status === 'fail' && !gating(report, q) ? `${q.level}, not gating` : q.level;
    return `- ${mdCode(q.id)} (${level}, section ${mdText(q.section)}, ${q.operation}): ${mdCode(oneLine(q.reason ?? '', LIMITS.headline))}`;
  });
  if (reqs.length > MAX_LISTED) shown.push(`- … and ${reqs.length - MAX_LISTED} more (see report.html)`);
  return shown;
}

/** One failing requirement: each failure (up to MAX_FAILURES_SHOWN) with its evidence and replay. */
function details(report: ConformanceReport, q: RequirementResult): string[] {
  const fails = q.failures ?? [];
  const out = [
    `#### ${mdCode(q.id)} · ${q.level}${gating(report, q) ? '' : ' · not gating'} · section ${mdText(q.section)} · ${q.operation}`,
    '',
    `> ${mdText(q.statement)}`,
    '',
    ...documentWords(q),
  ];
  // The failure the console and the list above said first, then a shrunk counterexample with its
  // replay, the most useful evidence a reader can act on.
  const [first, ...rest] = fails;
  const shown = first
    ? [first, ...rest.sort((a, b) => Number(b.counterexample !== undefined) - Number(a.counterexample !== undefined))]
    : [];
  for (const f of shown.slice(0, MAX_FAILURES_SHOWN)) out.push(...failure(report, f));
  if (fails.length > MAX_FAILURES_SHOWN)
    out.push(`… and ${fails.length - MAX_FAILURES_SHOWN} more failures of this requirement (see report.html)`, '');
  if (fails.length === 0 && q.reason) out.push(`- Message: ${mdCode(oneLine(q.reason, LIMITS.message))}`, '');
  return out;
}

/** The document's sentences the requirement rests on, quoted with their sections. */
function documentWords(q: RequirementResult): string[] {
  if (!q.basis?.length) return [];
  return [...q.basis.map((b) => `- The document, section ${mdText(b.section)}: ${mdCode(b.quote)}`), ''];
}

function failure(report: ConformanceReport, f: RequirementFailure): string[] {
  const last = f.exchanges.at(-1);
  const out = [`- Check ${mdCode(f.checkId)}: ${mdCode(oneLine(f.message, LIMITS.message))}`];
  if (last?.response)
    out.push(
      `- Last response: HTTP ${last.response.status} to ${mdCode(oneLine(last.request.url, LIMITS.headline))}${last.harEntry !== undefined ? ` (evidence.har entry ${last.harEntry})` : ''}`,
    );
  else if (last?.error) out.push(`- Last request failed: ${mdCode(oneLine(last.error, LIMITS.headline))}`);
  if (f.counterexample) {
    const c = f.counterexample;
    out.push(
      `- Counterexample (fast-check seed ${c.seed}${c.path ? `, path ${mdCode(c.path)}` : ''}), as JSON data:`,
      '',
      ...fenced(dataJson(c.value, LIMITS.counterexample, 2), 'json', '  '),
      '',
    );
  }
  if (f.curl)
    out.push(
      '- Reproduce the request (keys from the environment variables the target file names):',
      '',
      ...fenced(oneLine(f.curl, LIMITS.curl), 'sh', '  '),
      '',
    );
  out.push(
    '- Replay the check:',
    '',
    ...fenced(replayCheckCommand(report, f.checkId, f.counterexample?.path), 'sh', '  '),
    '',
  );
  return out;
}
