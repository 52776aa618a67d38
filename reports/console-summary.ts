import { join } from 'node:path';
import type { ConformanceReport } from './model.ts';
import { REPORT_FILES } from './write-report.ts';

/** The closing lines a run prints: verdict, counts per level, requests, where the report files are. */
export function consoleSummary(report: ConformanceReport, reportFile: string): string {
  const c = report.counts;
  const line = (l: keyof typeof c) => `${l} ${c[l].pass} pass, ${c[l].fail} fail, ${c[l].error} error, ${c[l].skip} skip${c[l].observed ? `, ${c[l].observed} observed` : ''}`;
  const dir = join(reportFile, '..');
  return [
    '',
    `verdict: ${report.verdict.toUpperCase()}`,
    `requirements: ${line('MUST')}; ${line('SHOULD')}; UNSPECIFIED ${c.UNSPECIFIED.observed} observed, ${c.UNSPECIFIED.skip} skip`,
    `requests: ${report.run.requests} (${report.run.retries} retries)`,
    `report: ${reportFile}`,
    `also: ${Object.keys(REPORT_FILES).filter((f) => f !== 'report.json').map((f) => join(dir, f)).join(', ')}`,
    '',
  ].join('\n');
}
