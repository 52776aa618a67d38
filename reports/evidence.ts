import type { Recorder } from '../core/http/recorder.ts';
import type { Mask } from '../core/text/mask.ts';
import { entriesDigests, type EvidenceText, harOf, harText, type Har, type RecordedRun } from './har.ts';
import { NOT_SELECTED } from './build-report.ts';
import type { ConformanceReport } from './model.ts';

export const EVIDENCE_FILE = 'evidence.har';

/**
 * The run's recording as evidence.har, and the report pointing at it: `run.evidence` names the
 * recording (its entries' SHA-256). Each exchange of a finding already names its own entry
 * (`harEntry`, set as the request was recorded: core/http/recorder.ts), and the recording keeps its
 * entries in the order recorded, so the pointer holds in the file written here.
 */
export function withEvidence(
  report: ConformanceReport,
  recorder: Recorder,
  run: RecordedRun,
  mask: Mask,
): { report: ConformanceReport; har: Har; text: EvidenceText } {
  const har = harOf(recorder, { ...run, startedAt: report.run.startedAt, ...selectionOf(report) }, mask);
  const linked: ConformanceReport = {
    ...report,
    run: {
      ...report.run,
      evidence: evidenceNamed(har.log.entries),
    },
  };
  return { report: linked, har, text: harText(har) };
}

/** `selected` of a recording (reports/har.ts RecordedRun): the checks the report ran, when not all of them. */
export function selectionOf(report: ConformanceReport): { selected?: string[] } {
  const selected = report.checks.filter((c) => c.reason !== NOT_SELECTED).map((c) => c.checkId);
  return selected.length < report.checks.length ? { selected } : {};
}

/** report.json's `run.evidence`: the recording named by its entries (their count and digests). */
export function evidenceNamed(entries: readonly unknown[]): NonNullable<ConformanceReport['run']['evidence']> {
  return {
    file: EVIDENCE_FILE,
    entries: entries.length,
    ...entriesDigests(entries),
  };
}
