import { Mask, secretsOf } from '../core/text/mask.ts';
import { withEvidence } from '../reports/evidence.ts';
import { type EvidenceText, harOf, harText, recordedRunOf } from '../reports/har.ts';
import type { ConformanceReport } from '../reports/model.ts';
import type { PreparedRun } from './prepare-run.ts';

/**
 * `runMask`: the run's own (the engine's client's), which also holds the forms checks derived from a key
 * (a Basic header's base64): the recording names each by its placeholder, and `judge` tells the requests apart by it.
 * The report pointing at the run's recording, and the recording as evidence.har's text (masked with
 * the run's keys), when the run kept one; otherwise the report as it is.
 */
export function reportWithEvidence(
  run: PreparedRun,
  report: ConformanceReport,
  runMask?: Mask,
): { report: ConformanceReport; evidence?: EvidenceText } {
  if (!run.evidence) return { report };
  const recorded = recordedRunOf(run.settings, run.target, run.suite);
  const linked = withEvidence(report, run.evidence, recorded, runMask ?? new Mask(secretsOf(run.target)));
  return { report: linked.report, evidence: linked.text };
}

/**
 * What a run the preflight refused had sent (its requests and answers) as evidence.har's text, masked
 * as a run's evidence is (reports/har.ts harOf); none when nothing was sent.
 */
export function preflightEvidence(run: PreparedRun, mask: Mask): EvidenceText | undefined {
  if (!run.evidence || run.evidence.entries.length === 0) return undefined;
  return harText(harOf(run.evidence, recordedRunOf(run.settings, run.target, run.suite), mask));
}
