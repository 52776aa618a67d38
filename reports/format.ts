/** Helpers shared by the report writers: every format says the same thing the same way. */
import type { Level } from '../core/document/catalogue.ts';
import { LEVELS } from '../core/document/catalogue.ts';
import { dataJson } from '../core/text/data-json.ts';
import { OPERATIONS, type Operation } from '../core/document/operations.ts';
import { checkReplayCommand, runReplayCommand } from '../core/run/replay.ts';
import {
  REQUIREMENT_STATUSES,
  type ConformanceReport,
  type RequirementResult,
  type RequirementStatus,
  type Verdict,
} from './model.ts';

export const VERDICT_TEXT: Record<Verdict, string> = {
  conformant: 'conformant',
  'non-conformant': 'non-conformant',
  error: 'error',
  incomplete: 'incomplete',
};

/** Exit code of a run or a merge: 0 conformant, 1 non-conformant, 2 the run could not judge what it must. */
export const EXIT_CODE: Record<Verdict, 0 | 1 | 2> = { conformant: 0, 'non-conformant': 1, error: 2, incomplete: 2 };

/** Top-level sections of the service document (shared/seed/service-interface.md), for grouping. */
export const SECTION_TITLES: Record<string, string> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/** `2.2, 4.1 rule 5` -> `2`: the top-level section a requirement is filed under (its first citation). */
export function topSection(section: string): string {
  return /^\s*(\d+)/.exec(section)?.[1] ?? '?';
}

export function sectionTitle(top: string): string {
  return `${top} ${SECTION_TITLES[top] ?? ''}`.trim();
}

/** Requirements grouped by top-level section, sections in numeric order, catalogue order inside. */
export function bySection(
  reqs: readonly RequirementResult[],
): Array<{ section: string; title: string; requirements: RequirementResult[] }> {
  const groups = new Map<string, RequirementResult[]>();
  for (const r of reqs) {
    const top = topSection(r.section);
    const list = groups.get(top) ?? [];
    list.push(r);
    groups.set(top, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (Number(a) || 99) - (Number(b) || 99))
    .map(([section, requirements]) => ({ section, title: sectionTitle(section), requirements }));
}

/** Requirements grouped by operation, in the order of core/document/operations.ts; empty operations left out. */
export function byOperation(
  reqs: readonly RequirementResult[],
): Array<{ operation: Operation; requirements: RequirementResult[] }> {
  return OPERATIONS.map((operation) => ({
    operation,
    requirements: reqs.filter((r) => r.operation === operation),
  })).filter((g) => g.requirements.length > 0);
}

export function tally(reqs: readonly RequirementResult[]): Record<RequirementStatus, number> {
  const out = Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, 0])) as Record<RequirementStatus, number>;
  for (const r of reqs) out[r.status]++;
  return out;
}

export const LEVEL_ORDER: readonly Level[] = LEVELS;

/** Whitespace collapsed to single spaces, cut to `max` characters: for one-line reasons. */
export function oneLine(text: string, max = 240): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** A value as compact JSON data (functions, symbols, undefined as markers; undefined alone as `undefined`), cut to `max` characters. */
export function compactJson(value: unknown, max = 400): string {
  return value === undefined ? 'undefined' : dataJson(value, max);
}

/** What was observed for a requirement, as one line: the distinct values, in order. */
export function observedText(values: readonly unknown[] | undefined, max = 400): string {
  if (!values || values.length === 0) return '';
  const distinct = [...new Set(values.map((v) => compactJson(v, max)))];
  return oneLine(distinct.join('; '), max);
}

/** What was observed, for a reader: each distinct value as indented JSON, cut to `max` characters. */
export function observedPretty(values: readonly unknown[] | undefined, max = 4000): string {
  if (!values || values.length === 0) return '';
  const distinct = [...new Set(values.map((v) => (v === undefined ? 'undefined' : dataJson(v, max, 2))))];
  const s = distinct.join('\n\n');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** A response body, pretty-printed when it is JSON (the evidence is easier to read), else as it came. */
export function prettyBody(body: string): string {
  if (!/^\s*[[{]/.test(body)) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** What report.run.durationMs measures, in the words every output uses for it. */
export const RUN_TIME_LABEL = 'run took (engine start to report)';

export function durationText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The verdict and what it rests on, as one line that every output can start with: the verdict, the
 * failed requirements per level (a SHOULD failure marked "not gating" unless the run fails on SHOULD)
 * and the MUST requirements left unjudged (error or skip), e.g.
 * `NON-CONFORMANT — 1 MUST failed; 2 SHOULD failed (not gating); 3 MUST not judged`.
 */
export function verdictLine(report: ConformanceReport): string {
  const c = report.counts;
  const parts = [
    report.run.partial ? `partial: ${report.run.partial.checks} of ${report.run.partial.of} checks` : '',
    report.run.incomplete ?? '',
    c.MUST.fail ? `${c.MUST.fail} MUST failed` : '',
    c.SHOULD.fail ? `${c.SHOULD.fail} SHOULD failed${report.run.failOn === 'should' ? '' : ' (not gating)'}` : '',
    ...mustNotJudgedParts(report),
  ].filter(Boolean);
  return `${report.verdict.toUpperCase()}${parts.length ? ` — ${parts.join('; ')}` : ''}`;
}

/**
 * The MUST requirements a run left unjudged that its verdict line names (beyond an incomplete run's
 * own cause): `3 MUST not judged`, `2 MUST not judged: interns.otherWorkspaceId absent`. Every
 * output that states the verdict says them (summary.md, report.html's banner, the console).
 */
export function mustNotJudgedParts(report: ConformanceReport): string[] {
  const c = report.counts;
  const absent = report.run.mustNotJudged;
  // Those a --max-failures stop left are said once, with its cause, whatever their level.
  const stopped = report.requirements.filter((r) => r.cause === 'max-failures');
  const stoppedMust = stopped.filter((r) => r.level === 'MUST').length;
  const other = c.MUST.error + c.MUST.skip - (absent?.count ?? 0) - stoppedMust;
  // The unjudged MUST are said in one part, their causes beside the one count, so no count is said twice.
  const others = !report.run.incomplete && other > 0 ? other : 0;
  const absentCount = absent?.count ?? 0;
  const causes = [
    absentCount ? `${absent!.fields.join(', ')} absent${others ? ` (${absentCount})` : ''}` : '',
    absentCount && others ? `other causes (${others})` : '',
  ].filter(Boolean);
  const unjudged = others + absentCount;
  return [
    stopped.length ? `${stopped.length} requirement(s) ${stopped[0]!.reason}` : '',
    unjudged ? `${unjudged} MUST not judged${causes.length ? `: ${causes.join(', ')}` : ''}` : '',
  ].filter(Boolean);
}

/** The label of the run's scope: whole run, one shard, or merged shards. */
export function scopeText(report: ConformanceReport): string {
  if (report.run.shard) return `shard ${report.run.shard} only (partial report: the other shards' checks are disabled)`;
  if (report.run.mergedShards) return `merged from ${report.run.mergedShards} shards`;
  return '';
}

/** The command that replays one check of a failure (and its counterexample, when fast-check found one). */
export function replayCheckCommand(report: ConformanceReport, checkId: string, replayPath?: string): string {
  // What the run received outside its checks (the preflight) every run receives again: no --grep selects it.
  if (report.received?.some((r) => r.checkId === checkId)) return runReplayCommand(report.run.replay, report.run.seed);
  return checkReplayCommand(report.run.replay, report.run.seed, checkId, replayPath);
}

/**
 * The time the run spent waiting on the target (its rate limit's Retry-After, the backoff between
 * retries), said where the run's time is said so a slow run names its cause; '' when it waited not at all.
 */
export function waitingText(report: ConformanceReport, withRetries = true): string {
  const waitedMs = report.run.rateLimitedWaitMs ?? 0;
  if (waitedMs <= 0) return '';
  const retries = withRetries ? report.run.retries : 0;
  return `waited ${(waitedMs / 1000).toFixed(1)} s for the target's rate limit${retries ? ` (${retries} retries)` : ''}`;
}
