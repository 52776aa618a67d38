import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { badgeSvg } from './badge.ts';
import { reportHtml } from './html.ts';
import { junitXml } from './junit.ts';
import type { ConformanceReport } from './model.ts';
import { summaryMarkdown } from './summary-md.ts';

/** The files of a report directory, each rendered from the one report model. */
export const REPORT_FILES = {
  'report.json': (r: ConformanceReport) => JSON.stringify(r, null, 2) + '\n',
  'junit.xml': junitXml,
  'summary.md': summaryMarkdown,
  'report.html': reportHtml,
  'badge.svg': badgeSvg,
} as const satisfies Record<string, (r: ConformanceReport) => string>;

export type ReportFileName = keyof typeof REPORT_FILES;

/** Every file of the report directory is written from the one report model. */
export function writeReportFiles(report: ConformanceReport, dir: string): void {
  for (const [name, render] of Object.entries(REPORT_FILES)) writeFileSync(join(dir, name), render(report));
}
