import type { Mask } from '../core/text/mask.ts';
import { badgeSvg } from './badge.ts';
import { reportHtml } from './html.ts';
import { junitXml } from './junit.ts';
import type { ConformanceReport } from './model.ts';
import { prepareDir, writeFilesSafely, type OwnedEntries } from './safe-files.ts';
import { EVIDENCE_FILE } from './evidence.ts';
import type { EvidenceText } from './har.ts';
import { BLOB_SUBDIR } from './shards.ts';
import { summaryMarkdown } from './summary-md.ts';

export { ReportDirError } from './safe-files.ts';

/** The files of a report directory, each rendered from the one report model. */
export const REPORT_FILES = {
  'report.json': (r: ConformanceReport) => `${JSON.stringify(r, null, 2)}\n`,
  'junit.xml': junitXml,
  'summary.md': summaryMarkdown,
  'report.html': reportHtml,
  'badge.svg': badgeSvg,
} as const satisfies Record<string, (r: ConformanceReport) => string>;

export type ReportFileName = keyof typeof REPORT_FILES;

/** Everything the suite writes in a report directory: the report files and a shard's blob directory. */
export const REPORT_ENTRIES: OwnedEntries = {
  files: [...Object.keys(REPORT_FILES), EVIDENCE_FILE],
  dirs: [BLOB_SUBDIR],
};

export interface ReportDirOptions {
  /** Write into a directory that holds files the suite did not write (`--force`). */
  force?: boolean;
  /** Write through a link of the directory's path that leads outside the working directory (`--report-dir-outside`). */
  outside?: boolean;
}

/**
 * Called when a run starts, before anything is written: refuses a linked or foreign directory (one
 * line, ReportDirError) and removes the previous run's files, so a run that ends early leaves no
 * stale report behind. `keepBlob` keeps blob/ (a merge reads the shards' blobs from there).
 */
export function prepareReportDir(dir: string, options: ReportDirOptions & { keepBlob?: boolean } = {}): void {
  prepareDir(dir, REPORT_ENTRIES, {
    ...(options.force ? { force: true } : {}),
    ...(options.keepBlob ? { keep: [BLOB_SUBDIR] } : {}),
    ...(options.outside ? { outside: true } : {}),
  });
}

/**
 * Every file of the report directory, rendered from the one report model, then masked as a whole
 * (the last pass: a value parsed out of a body and serialised again is masked here too), then
 * written safely (reports/safe-files.ts). The run's recording comes masked string by string as it is
 * written (reports/har.ts asWritten), and is written with the files that point at it.
 */
export function writeReportFiles(
  report: ConformanceReport,
  dir: string,
  options: ReportDirOptions & { mask: Mask; evidence?: EvidenceText },
): void {
  const files = new Map<string, string>();
  for (const [name, render] of Object.entries(REPORT_FILES)) files.set(name, options.mask.text(render(report)));
  if (options.evidence !== undefined) files.set(EVIDENCE_FILE, options.evidence);
  // A shard run's blob/ (Playwright's blob reporter wrote it) is the suite's: listed with the files.
  writeFilesSafely(dir, files, REPORT_ENTRIES, {
    ...(options.force ? { force: true } : {}),
    ...(report.run.shard ? { alsoOwned: [BLOB_SUBDIR] } : {}),
    ...(options.outside ? { outside: true } : {}),
  });
}
