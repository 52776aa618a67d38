import type { Exchange } from '../core/check/evidence.ts';
import type { Recorder } from '../core/http/recorder.ts';
import type { Mask } from '../core/text/mask.ts';
import { entriesDigest, entryDigests, harOf, type Har, type RecordedRun } from './har.ts';
import { NOT_SELECTED } from './build-report.ts';
import type { ConformanceReport } from './model.ts';

export const EVIDENCE_FILE = 'evidence.har';

/**
 * The run's recording as evidence.har, and the report pointing at it: `run.evidence` names the
 * recording (its entries' SHA-256), and each exchange of a finding its entry (`harEntry`), found by its
 * masked URL and status, the first such entry (an answer the run received once and gave every check
 * that asked: core/http/answer-memory.ts).
 */
export function withEvidence(
  report: ConformanceReport,
  recorder: Recorder,
  run: RecordedRun,
  mask: Mask,
): { report: ConformanceReport; har: Har; text: string } {
  const har = harOf(recorder, { ...run, startedAt: report.run.startedAt, ...selectionOf(report) }, mask);
  const index = new Map<string, number>();
  har.log.entries.forEach((e, i) => {
    const key = `${e.request.url}\u0000${e.response.status}`;
    if (!index.has(key)) index.set(key, i);
  });
  const link = (x: Exchange): Exchange => {
    const at = index.get(`${x.request.url}\u0000${x.response?.status ?? 0}`);
    return at === undefined ? x : { ...x, harEntry: at };
  };
  const linked: ConformanceReport = {
    ...report,
    run: {
      ...report.run,
      evidence: evidenceNamed(har.log.entries),
    },
    checks: report.checks.map((c) => ({
      ...c,
      failures: c.failures.map((f) => ({ ...f, exchanges: f.exchanges.map(link) })),
    })),
  };
  return { report: linked, har, text: `${JSON.stringify(har, null, 1)}\n` };
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
    sha256: entriesDigest(entries),
    entryDigests: entryDigests(entries),
  };
}
