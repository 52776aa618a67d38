/**
 * The shards' recordings as `conformance merge` joins them (reports/merged-evidence.ts): a shard report
 * that names a recording (`run.evidence`) has it beside it in the blob directory
 * (`evidence-shard-I-of-N.har`, reports/shards.ts). Each is read in turn, checked to be the one its report
 * names (the SHA-256 of its entries, the run's seed and start: its report's pointers count its entries),
 * and joined, so that the merge holds one run's bodies at a time, not N shards' at once.
 */
import { join } from 'node:path';
import { evidenceNamed, selectionOf } from '../reports/evidence.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { entriesDigest, type EvidenceText, harText } from '../reports/har.ts';
import { MergedRecording, type ShardRecording, UnjoinableRecording } from '../reports/merged-evidence.ts';
import { readRecordingText, shardEvidenceName } from '../reports/shards.ts';

export interface JoinedRecordings {
  recording: MergedRecording;
  /** Per shard report (in the order given): where its entries start in the merged recording, and how many. */
  shards: Array<{ offset: number; entries: number }>;
  /** The first shard's recording's creator and run (`_conformance`), which every shard shares. */
  first: Pick<ShardRecording['log'], 'creator' | '_conformance'>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The shard's recording, parsed and checked as far as the merge reads it. */
function shardRecording(blobDir: string, report: ConformanceReport): ShardRecording {
  const name = shardEvidenceName(report.run.shard ?? '');
  let text: string;
  try {
    text = readRecordingText(join(blobDir, name));
  } catch (e) {
    throw new UnjoinableRecording(
      `shard ${report.run.shard} names a recording, but ${name} ${(e as Error).message} (copy the shard's whole blob/)`,
    );
  }
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch {
    throw new UnjoinableRecording(`${name} is not JSON`);
  }
  const log = isRecord(har) ? har['log'] : undefined;
  const run = isRecord(log) ? log['_conformance'] : undefined;
  if (!isRecord(log) || log['version'] !== '1.2' || !Array.isArray(log['entries']) || !isRecord(run))
    throw new UnjoinableRecording(
      `${name} is not a recording of the conformance suite (HAR 1.2 with log._conformance)`,
    );
  const rec = har as ShardRecording;
  const named = report.run.evidence!;
  if (rec.log._conformance.seed !== report.run.seed || rec.log._conformance.startedAt !== report.run.startedAt)
    throw new UnjoinableRecording(`${name} is the recording of another run than shard ${report.run.shard}'s report`);
  if (rec.log.entries.length !== named.entries || entriesDigest(rec.log.entries) !== named.sha256)
    throw new UnjoinableRecording(`${name} does not hold the entries shard ${report.run.shard}'s report names`);
  return rec;
}

/**
 * The shards' recordings joined, or undefined when no shard report names one. A shard that names none
 * beside shards that do leaves the merged run without a whole recording: refused, as a missing shard is.
 */
export function joinShardRecordings(
  blobDir: string,
  reports: readonly ConformanceReport[],
): JoinedRecordings | undefined {
  const naming = reports.filter((r) => r.run.evidence);
  if (naming.length === 0) return undefined;
  const without = reports.find((r) => !r.run.evidence);
  if (without)
    throw new UnjoinableRecording(`shard ${without.run.shard} names no recording (run.evidence), the others do`);
  const recording = new MergedRecording();
  const shards: JoinedRecordings['shards'] = [];
  let first: JoinedRecordings['first'] | undefined;
  for (const report of reports) {
    const rec = shardRecording(blobDir, report);
    first ??= { creator: rec.log.creator, _conformance: rec.log._conformance };
    shards.push({
      offset: recording.add(rec, shardEvidenceName(report.run.shard ?? '')),
      entries: rec.log.entries.length,
    });
  }
  return { recording, shards, first: first! };
}

/**
 * The merged report pointing at the merged recording (`run.evidence`), and the recording's text: its
 * `_conformance` the merged run's (its start, replay command, --fail-on and --require-all, the checks of
 * all shards), so that `conformance verify` judges it again as the whole run it is.
 */
export function mergedEvidence(report: ConformanceReport, joined: JoinedRecordings): EvidenceText {
  const { selected: _shardSelection, ...shared } = joined.first._conformance;
  const har = joined.recording.har(joined.first.creator, {
    ...shared,
    startedAt: report.run.startedAt,
    replay: report.run.replay,
    options: { ...shared.options, failOn: report.run.failOn, requireAll: report.run.requireAll === true },
    ...selectionOf(report),
  });
  report.run.evidence = evidenceNamed(har.log.entries);
  return harText(har);
}
