import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from './model.ts';

/** Every file of the report directory is written from the one report model. */
export function writeReportFiles(report: ConformanceReport, dir: string): void {
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
}
