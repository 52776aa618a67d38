import { readRegularFile } from '../os/regular-file.ts';
import { entriesDigests } from '../reports/har.ts';
import type { ConformanceReport } from '../reports/model.ts';
import grounding from '../spec/grounding.json' with { type: 'json' };
import { judgeRecording, RecordingError, type Recording } from './offline-judge.ts';

/** A report.json is small beside its recording. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

export function loadReportFile(file: string): ConformanceReport {
  let report: unknown;
  try {
    report = JSON.parse(readRegularFile(file, MAX_REPORT_BYTES).toString('utf8'));
  } catch (e) {
    throw new RecordingError(`${file}: ${e instanceof SyntaxError ? 'not JSON' : (e as Error).message}`);
  }
  const r = report as Partial<ConformanceReport> | null;
  if (!r?.run || !Array.isArray(r.requirements) || typeof r.verdict !== 'string')
    throw new RecordingError(`${file}: not a conformance report`);
  if (!r.run.evidence) throw new RecordingError(`${file}: names no recording (run.evidence)`);
  return r as ConformanceReport;
}

/**
 * Whether a report and a recording belong together and say the same: the recording's entries are the
 * ones the report names (its SHA-256; a changed entry is named by index and URL), of the same run (start,
 * seed, replay command), suite version and service document; then the recording judged again offline
 * gives the report's verdict and every requirement's status. Each disagreement is one line.
 */
export async function disagreements(report: ConformanceReport, rec: Recording): Promise<string[]> {
  const out = belongingProblems(report, rec);
  if (out.length) return out;
  const again = await judgeRecording(rec);
  if (again.verdict !== report.verdict) out.push(`judged again: ${again.verdict}, the report says ${report.verdict}`);
  const was = new Map(report.requirements.map((r) => [r.id, r.status]));
  for (const r of again.requirements)
    if (was.get(r.id) !== r.status)
      out.push(`${r.id}: judged again ${r.status}, the report says ${was.get(r.id) ?? 'nothing'}`);
  return out;
}

/** Changed entries named one by one, at most: past them, how many more. */
const MAX_ENTRY_LINES = 20;

/**
 * Whether a report and a recording belong together, without judging again. The run first (the service
 * document, the suite's version, the seed, the start, the options): a recording of another run differs
 * in most of its entries, and saying so entry by entry would hide the one line that matters. Then,
 * for the same run, the entries the report names, a changed one by index and URL.
 */
export function belongingProblems(report: ConformanceReport, rec: Recording): string[] {
  const other = otherRunProblems(report, rec);
  if (other.length) return other;
  const out: string[] = [];
  const ev = report.run.evidence!;
  const entries = rec.log.entries;
  const { sha256, entryDigests: now } = entriesDigests(entries);
  if (sha256 !== ev.sha256) {
    if (now.length !== ev.entryDigests.length)
      out.push(`the recording holds ${now.length} entries, the report names ${ev.entryDigests.length}`);
    let changed = 0;
    for (let i = 0; i < Math.min(now.length, ev.entryDigests.length); i++)
      if (now[i] !== ev.entryDigests[i] && changed++ < MAX_ENTRY_LINES)
        out.push(`entry ${i} (GET ${entries[i]!.request.url}) is not the one the report names`);
    if (changed > MAX_ENTRY_LINES)
      out.push(`and ${changed - MAX_ENTRY_LINES} more entries are not the ones the report names`);
    if (out.length === 0) out.push("the recording's entries are not the ones the report names");
  }
  return out;
}

/** What says the recording is of another run than the report's: its document, suite, seed, start or options. */
function otherRunProblems(report: ConformanceReport, rec: Recording): string[] {
  const out: string[] = [];
  const run = rec.log._conformance;
  if (run.documentSha256 !== grounding.document.sha256)
    out.push(`the recording is of another service document (sha256 ${run.documentSha256})`);
  if (run.suite.version !== report.suite.version)
    out.push(`the recording is of suite ${run.suite.version}, the report of ${report.suite.version}`);
  if (run.seed !== report.run.seed) out.push(`the recording's seed is ${run.seed}, the report's ${report.run.seed}`);
  if (run.startedAt !== report.run.startedAt) out.push('the recording is of another run (its start differs)');
  if (run.replay !== report.run.replay)
    out.push("the recording's options are not the report's (the replay command differs)");
  return out;
}
