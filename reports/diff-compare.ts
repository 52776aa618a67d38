/**
 * The comparison of two reports (`conformance diff A B`): where two implementations, or two runs, part
 * ways. Pure, so the text and HTML renderings (reports/diff-text.ts, reports/diff-html.ts) say the
 * same thing.
 *
 * Each requirement appears at most once:
 * - a MUST or SHOULD requirement when its status differs (pass on one side, fail on the other...);
 * - an UNSPECIFIED requirement (a point the document leaves open: the implementation profile) when
 *   what was observed differs, or when one side observed it and the other did not. These are the
 *   choices each implementation made where the document is silent; neither is a failure. What is
 *   compared is the choice: the numbers that count what a run saw or did (how many endpoints, pages or
 *   interns, how many times a status came, how long an answer took) are left out (reports/diff-counts.ts),
 *   so an unsharded run and the merge of its shards, or two targets holding other data, agree.
 *
 * Nothing of the run itself is compared either: requests sent, retries, timings, coverage, the
 * evidence's entries and their numbers count the run, not the target's choices.
 */
import type { Level } from '../core/document/catalogue.ts';
import { withoutCounts } from './diff-counts.ts';
import type { ConformanceReport, RequirementResult, RequirementStatus, Verdict } from './model.ts';

export interface DiffSide {
  /** The report file as the user named it. */
  file: string;
  baseUrl: string;
  verdict: Verdict;
  seed: number;
  failOn: 'must' | 'should';
  startedAt: string;
  suiteCommit: string;
  /** `shard 1/3` or `merged from 3 shards` when the report does not cover a whole run alone. */
  scope?: string;
}

/** What one side says about a requirement; `absent` when its report does not list it. */
export interface SideStatus {
  status: RequirementStatus | 'absent';
  reason?: string;
}

export interface SideObservation extends SideStatus {
  /** The distinct values observed, in the order of the report, their counts left out (reports/diff-counts.ts). */
  observed: unknown[];
}

interface RequirementHeader {
  id: string;
  level: Level;
  section: string;
  operation: string;
  statement: string;
}

export interface StatusDifference extends RequirementHeader {
  a: SideStatus;
  b: SideStatus;
}

export interface ObservationDifference extends RequirementHeader {
  a: SideObservation;
  b: SideObservation;
  /** The leaves that differ, for reading side by side (see leafDifferences). */
  leaves: LeafDifference[];
}

/** One value that differs inside two observations: its path (`limit`, `statuses.listInterns`) and each side's value. */
export interface LeafDifference {
  path: string;
  /** Missing on that side when undefined. */
  a?: unknown;
  b?: unknown;
}

export interface ReportComparison {
  specVersion: string;
  specDocument: string;
  suite: { name: string; version: string };
  a: DiffSide;
  b: DiffSide;
  statuses: StatusDifference[];
  observations: ObservationDifference[];
  agree: boolean;
}

/**
 * Why two reports cannot be compared, or undefined when they can: requirement ids and what each
 * check observes belong to one version of the suite and of the document, so a comparison across
 * versions would show the suite's changes as the implementations' differences.
 */
export function incomparable(a: ConformanceReport, b: ConformanceReport): string | undefined {
  if (a.specVersion !== b.specVersion)
    return `the reports judge different versions of the service document (A ${a.specVersion}, B ${b.specVersion})`;
  if (a.suite.name !== b.suite.name || a.suite.version !== b.suite.version) {
    return `the reports were written by different suite versions (A ${a.suite.name} ${a.suite.version}, B ${b.suite.name} ${b.suite.version}); run both with one version`;
  }
  return undefined;
}

export function compareReports(
  a: ConformanceReport,
  b: ConformanceReport,
  files: { a: string; b: string },
): ReportComparison {
  const inA = new Map(a.requirements.map((r) => [r.id, r]));
  const inB = new Map(b.requirements.map((r) => [r.id, r]));
  const ids = [...inA.keys(), ...[...inB.keys()].filter((id) => !inA.has(id))];
  const statuses: StatusDifference[] = [];
  const observations: ObservationDifference[] = [];
  for (const id of ids) {
    const ra = inA.get(id);
    const rb = inB.get(id);
    const header = headerOf((ra ?? rb)!);
    if (header.level === 'UNSPECIFIED') {
      const sa = observationOf(ra);
      const sb = observationOf(rb);
      if (sa.status !== sb.status || !sameValue(sa.observed, sb.observed))
        observations.push({ ...header, a: sa, b: sb, leaves: leafDifferences(sa.observed, sb.observed) });
    } else {
      const sa = statusOf(ra);
      const sb = statusOf(rb);
      if (sa.status !== sb.status) statuses.push({ ...header, a: sa, b: sb });
    }
  }
  return {
    specVersion: a.specVersion,
    specDocument: a.specDocument,
    suite: { name: a.suite.name, version: a.suite.version },
    a: sideOf(a, files.a),
    b: sideOf(b, files.b),
    statuses,
    observations,
    agree: statuses.length === 0 && observations.length === 0,
  };
}

function headerOf(r: RequirementResult): RequirementHeader {
  return { id: r.id, level: r.level, section: r.section, operation: r.operation, statement: r.statement };
}

function statusOf(r: RequirementResult | undefined): SideStatus {
  if (!r) return { status: 'absent' };
  return r.reason !== undefined ? { status: r.status, reason: r.reason } : { status: r.status };
}

function observationOf(r: RequirementResult | undefined): SideObservation {
  const distinct = new Map<string, unknown>();
  for (const v of r?.observed ?? []) {
    const choice = withoutCounts(r?.id ?? '', v);
    distinct.set(canonicalJson(choice), choice);
  }
  return { ...statusOf(r), observed: [...distinct.values()] };
}

function sideOf(r: ConformanceReport, file: string): DiffSide {
  const scope = r.run.shard
    ? `shard ${r.run.shard}`
    : r.run.mergedShards
      ? `merged from ${r.run.mergedShards} shards`
      : undefined;
  return {
    file,
    baseUrl: r.target.baseUrl,
    verdict: r.verdict,
    seed: r.run.seed,
    failOn: r.run.failOn,
    startedAt: r.run.startedAt,
    suiteCommit: r.suite.commit,
    ...(scope ? { scope } : {}),
  };
}

/** JSON with object keys sorted: two observations equal but for the order of their keys are one choice. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
        : v,
    ) ?? 'undefined'
  );
}

function sameValue(x: unknown, y: unknown): boolean {
  return canonicalJson(x) === canonicalJson(y);
}

const MAX_LEAVES = 200;

/**
 * The leaves where two observations differ, so a reader sees `limit: "limit" | "page_size"` rather
 * than two blocks of JSON to compare by eye. Objects are walked key by key; arrays and scalars are
 * leaves (a list such as `acceptedBy` is one choice). With one value on each side the paths start
 * inside it; several distinct values are compared position by position (`#2.limit`). At most
 * MAX_LEAVES leaves (a hostile report could hold millions): the full values stay in the comparison.
 */
export function leafDifferences(a: readonly unknown[], b: readonly unknown[]): LeafDifference[] {
  const out: LeafDifference[] = [];
  if (a.length <= 1 && b.length <= 1) walk('', a[0], b[0], a.length > 0, b.length > 0, out);
  else
    for (let i = 0; i < Math.max(a.length, b.length); i++)
      walk(`#${i + 1}`, a[i], b[i], i < a.length, i < b.length, out);
  return out.slice(0, MAX_LEAVES);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function walk(path: string, a: unknown, b: unknown, hasA: boolean, hasB: boolean, out: LeafDifference[]): void {
  if (out.length >= MAX_LEAVES) return;
  if (hasA && hasB && isRecord(a) && isRecord(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
    for (const k of keys) walk(path ? `${path}.${k}` : k, a[k], b[k], Object.hasOwn(a, k), Object.hasOwn(b, k), out);
    return;
  }
  if (hasA && hasB && sameValue(a, b)) return;
  out.push({ path: path || '(value)', ...(hasA ? { a } : {}), ...(hasB ? { b } : {}) });
}
