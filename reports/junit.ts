/**
 * junit.xml: one test case per requirement, one test suite per operation, so CI systems (GitHub,
 * GitLab, Jenkins, Azure) show the conformance run as tests. Skips are <skipped>, observations pass
 * with a property `observed`, failures carry the message and the curl reproduction, errors are <error>.
 *
 * It gates as the exit code does, since a reporter action fails a job on failures + errors > 0:
 * a SHOULD failure that does not gate (no --fail-on should) is a passed test case carrying a
 * `warning` property and its evidence in <system-out>; a requirement left unjudged by what made the
 * run INCOMPLETE is an <error>; and a verdict that is not conformant always shows at least one
 * failure or error (the `verdict` test case), so failures + errors > 0 exactly when the exit code is not 0.
 */
import type { ConformanceReport, RequirementFailure, RequirementResult } from './model.ts';
import { esc, escAttr } from './escape.ts';
import { byOperation, compactJson, observedText, oneLine, replayCheckCommand, verdictLine } from './format.ts';

/** What a requirement is in JUnit's terms, gated as the run's exit code is. */
type Case = 'pass' | 'warning' | 'failure' | 'error' | 'skipped';

function caseOf(report: ConformanceReport, r: RequirementResult): Case {
  switch (r.status) {
    case 'pass':
    case 'observed':
      return 'pass';
    case 'fail':
      return r.level === 'MUST' || (r.level === 'SHOULD' && report.run.failOn === 'should') ? 'failure' : 'warning';
    case 'error':
      return 'error';
    case 'skip':
    case 'disabled':
      return unjudgedByIncomplete(report, r) ? 'error' : 'skipped';
  }
}

/**
 * A requirement the run could not judge for the reason its verdict is INCOMPLETE: a run limit, or under
 * --require-all any MUST not judged (skipped for whatever reason, or not selected outside a shard), as
 * reports/build-report.ts verdictOf decides it.
 */
function unjudgedByIncomplete(report: ConformanceReport, r: RequirementResult): boolean {
  if (report.verdict !== 'incomplete') return false;
  if (r.status === 'skip' && r.cause === 'run-limit') return true;
  return (
    report.run.requireAll === true &&
    r.level === 'MUST' &&
    (r.status === 'skip' || (r.status === 'disabled' && !report.run.shard))
  );
}

function counted(cases: readonly Case[]): { failures: number; errors: number; skipped: number } {
  return {
    failures: cases.filter((c) => c === 'failure').length,
    errors: cases.filter((c) => c === 'error').length,
    skipped: cases.filter((c) => c === 'skipped').length,
  };
}

export function junitXml(report: ConformanceReport): string {
  const cases = new Map(report.requirements.map((r) => [r, caseOf(report, r)]));
  const all = counted([...cases.values()]);
  // A verdict that is not conformant with no failing or erring requirement (e.g. a run stopped with
  // nothing of its own cut) still fails the reporter: one `verdict` test case carries it.
  const verdictCase = report.verdict !== 'conformant' && all.failures + all.errors === 0;
  const verdictKind = report.verdict === 'non-conformant' ? 'failure' : 'error';
  const total = {
    tests: report.requirements.length + (verdictCase ? 1 : 0),
    failures: all.failures + (verdictCase && verdictKind === 'failure' ? 1 : 0),
    errors: all.errors + (verdictCase && verdictKind === 'error' ? 1 : 0),
  };
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escAttr(`conformance ${report.specVersion}: ${verdictLine(report)} (${report.target.baseUrl})`)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${all.skipped}" time="${(report.run.durationMs / 1000).toFixed(3)}" timestamp="${escAttr(report.run.startedAt)}">`,
  ];
  if (verdictCase) {
    const why = oneLine(verdictLine(report), 500);
    out.push(
      `  <testsuite name="conformance" tests="1" failures="${verdictKind === 'failure' ? 1 : 0}" errors="${verdictKind === 'error' ? 1 : 0}" skipped="0">`,
      `    <testcase name="verdict" classname="conformance">`,
      `      <${verdictKind} message="${escAttr(why)}" type="${escAttr(report.verdict)}">${esc(why)}</${verdictKind}>`,
      '    </testcase>',
      '  </testsuite>',
    );
  }
  for (const { operation, requirements } of byOperation(report.requirements)) {
    const t = counted(requirements.map((r) => cases.get(r)!));
    out.push(
      `  <testsuite name="${escAttr(operation)}" tests="${requirements.length}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}">`,
      '    <properties>',
      property('specVersion', report.specVersion, 6),
      property('suite', `${report.suite.name} ${report.suite.version} (${report.suite.commit})`, 6),
      property('target', report.target.baseUrl, 6),
      property('seed', report.run.seed, 6),
      property('verdict', report.verdict, 6),
      property('replay', report.run.replay, 6),
      '    </properties>',
    );
    for (const r of requirements) out.push(...testcase(report, r, cases.get(r)!));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function property(name: string, value: unknown, indent: number): string {
  return `${' '.repeat(indent)}<property name="${escAttr(name)}" value="${escAttr(value)}"/>`;
}

function testcase(report: ConformanceReport, r: RequirementResult, kind: Case): string[] {
  const open = `    <testcase name="${escAttr(`[${r.level}] ${r.id}: ${r.statement}`)}" classname="${escAttr(r.operation)}"`;
  if (kind === 'warning') {
    // A SHOULD failure the run does not gate on: passed, with the warning and its evidence beside it.
    return [
      `${open}>`,
      '      <properties>',
      property(
        'warning',
        oneLine(`${r.level} failed (not gating without --fail-on should): ${r.reason ?? 'failed'}`, 500),
        8,
      ),
      '      </properties>',
      `      <system-out>${esc([`WARNING: ${heading(r)}`, ...(r.failures ?? []).map((f) => failureText(report, f))].join('\n\n'))}</system-out>`,
      '    </testcase>',
    ];
  }
  if (kind === 'error' && (r.status === 'skip' || r.status === 'disabled')) {
    return [
      `${open}>`,
      `      <error message="${escAttr(oneLine(`not judged (${report.verdict}): ${r.reason ?? 'skipped'}`, 500))}" type="incomplete">${esc(`${heading(r)}\n${r.reason ?? ''}`)}</error>`,
      '    </testcase>',
    ];
  }
  switch (r.status) {
    case 'pass':
      return r.observed?.length
        ? [
            `${open}>`,
            '      <properties>',
            property('observed', observedText(r.observed, 2000), 8),
            '      </properties>',
            '    </testcase>',
          ]
        : [`${open}/>`];
    case 'observed':
      return [
        `${open}>`,
        '      <properties>',
        property('observed', observedText(r.observed, 2000), 8),
        '      </properties>',
        '    </testcase>',
      ];
    case 'skip':
      return [
        `${open}>`,
        `      <skipped message="${escAttr(oneLine(r.reason ?? 'skipped', 500))}"/>`,
        '    </testcase>',
      ];
    case 'disabled':
      return [
        `${open}>`,
        `      <skipped message="${escAttr(oneLine(`disabled: ${r.reason ?? 'not selected'}`, 500))}"/>`,
        '    </testcase>',
      ];
    case 'error':
      return [
        `${open}>`,
        `      <error message="${escAttr(oneLine(r.reason ?? 'error', 500))}" type="error">${esc(`${heading(r)}\n${r.reason ?? ''}`)}</error>`,
        '    </testcase>',
      ];
    case 'fail':
      return [
        `${open}>`,
        `      <failure message="${escAttr(oneLine(r.reason ?? 'failed', 500))}" type="${escAttr(r.level)}">${esc([heading(r), ...(r.failures ?? []).map((f) => failureText(report, f))].join('\n\n'))}</failure>`,
        '    </testcase>',
      ];
  }
}

function heading(r: RequirementResult): string {
  const words = (r.basis ?? []).map((b) => `\nThe document, section ${b.section}: ${b.quote}`).join('');
  return `${r.id} (${r.level}, section ${r.section}): ${r.statement}${words}`;
}

function failureText(report: ConformanceReport, f: RequirementFailure): string {
  const lines = [`check ${f.checkId}: ${f.message}`];
  for (const x of f.exchanges) {
    lines.push(`  ${x.request.method} ${x.request.url}`);
    if (x.response)
      lines.push(
        `  -> HTTP ${x.response.status}${x.response.headers['content-type'] ? ` (${x.response.headers['content-type']})` : ''}: ${oneLine(x.response.body, 300)}`,
      );
    if (x.error) lines.push(`  -> ${x.error}`);
  }
  if (f.curl) lines.push(`reproduce: ${f.curl}`);
  if (f.counterexample) {
    lines.push(`counterexample: ${compactJson(f.counterexample.value, 1000)}`);
    lines.push(`replay: ${replayCheckCommand(report, f.checkId, f.counterexample.path)}`);
  }
  return lines.join('\n');
}
