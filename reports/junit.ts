/**
 * junit.xml: one test case per requirement, one test suite per operation, so CI systems (GitHub,
 * GitLab, Jenkins, Azure) show the conformance run as tests. Skips are <skipped>, observations pass
 * with a property `observed`, failures carry the message and the curl reproduction, errors are <error>.
 */
import type { ConformanceReport, RequirementFailure, RequirementResult } from './model.ts';
import { esc, escAttr } from './escape.ts';
import { byOperation, compactJson, observedText, oneLine, replayCheckCommand, tally, verdictLine } from './format.ts';

export function junitXml(report: ConformanceReport): string {
  const all = tally(report.requirements);
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escAttr(`conformance ${report.specVersion}: ${verdictLine(report)} (${report.target.baseUrl})`)}" tests="${report.requirements.length}" failures="${all.fail}" errors="${all.error}" skipped="${all.skip + all.disabled}" time="${(report.run.durationMs / 1000).toFixed(3)}" timestamp="${escAttr(report.run.startedAt)}">`,
  ];
  for (const { operation, requirements } of byOperation(report.requirements)) {
    const t = tally(requirements);
    out.push(
      `  <testsuite name="${escAttr(operation)}" tests="${requirements.length}" failures="${t.fail}" errors="${t.error}" skipped="${t.skip + t.disabled}">`,
      '    <properties>',
      property('specVersion', report.specVersion, 6),
      property('suite', `${report.suite.name} ${report.suite.version} (${report.suite.commit})`, 6),
      property('target', report.target.baseUrl, 6),
      property('seed', report.run.seed, 6),
      property('verdict', report.verdict, 6),
      property('replay', report.run.replay, 6),
      '    </properties>',
    );
    for (const r of requirements) out.push(...testcase(report, r));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function property(name: string, value: unknown, indent: number): string {
  return `${' '.repeat(indent)}<property name="${escAttr(name)}" value="${escAttr(value)}"/>`;
}

function testcase(report: ConformanceReport, r: RequirementResult): string[] {
  const open = `    <testcase name="${escAttr(`[${r.level}] ${r.id}: ${r.statement}`)}" classname="${escAttr(r.operation)}"`;
  switch (r.status) {
    case 'pass':
      return r.observed?.length ? [`${open}>`, '      <properties>', property('observed', observedText(r.observed, 2000), 8), '      </properties>', '    </testcase>'] : [`${open}/>`];
    case 'observed':
      return [`${open}>`, '      <properties>', property('observed', observedText(r.observed, 2000), 8), '      </properties>', '    </testcase>'];
    case 'skip':
      return [`${open}>`, `      <skipped message="${escAttr(oneLine(r.reason ?? 'skipped', 500))}"/>`, '    </testcase>'];
    case 'disabled':
      return [`${open}>`, `      <skipped message="${escAttr(oneLine(`disabled: ${r.reason ?? 'not selected'}`, 500))}"/>`, '    </testcase>'];
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
  return `${r.id} (${r.level}, section ${r.section}): ${r.statement}`;
}

function failureText(report: ConformanceReport, f: RequirementFailure): string {
  const lines = [`check ${f.checkId}: ${f.message}`];
  for (const x of f.exchanges) {
    lines.push(`  ${x.request.method} ${x.request.url}`);
    if (x.response) lines.push(`  -> HTTP ${x.response.status}${x.response.headers['content-type'] ? ` (${x.response.headers['content-type']})` : ''}: ${oneLine(x.response.body, 300)}`);
    if (x.error) lines.push(`  -> ${x.error}`);
  }
  if (f.curl) lines.push(`reproduce: ${f.curl}`);
  if (f.counterexample) {
    lines.push(`counterexample: ${compactJson(f.counterexample.value, 1000)}`);
    lines.push(`replay: ${replayCheckCommand(report, f.checkId, f.counterexample.path)}`);
  }
  return lines.join('\n');
}
