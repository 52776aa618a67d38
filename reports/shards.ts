/**
 * A run split with `--shard I/N` leaves, in `<report-dir>/blob/`, Playwright's blob report, its own
 * conformance report (`conformance-shard-I-of-N.json`: every outcome with its evidence and the shard's
 * request count) and its recording (`evidence-shard-I-of-N.har`, the shard's evidence.har).
 * `conformance merge` joins the N reports of the shards into one, and their recordings into its
 * evidence.har, without the keys and without sending a request.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Mask } from '../core/text/mask.ts';
import { readRegularFile } from '../os/regular-file.ts';
import { EVIDENCE_FILE } from './evidence.ts';
import type { ConformanceReport } from './model.ts';
import { writeFilesSafely } from './safe-files.ts';

export const BLOB_SUBDIR = 'blob';
const SHARD_FILE = /^conformance-shard-(\d+)-of-(\d+)\.json$/;

/**
 * The largest recording read back: a run's bodies are bounded to 16 MiB (core/http/recorder.ts), and
 * their JSON escaping (`\u0000` is six characters for one byte) and base64 can grow them several times.
 */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;

export function shardFileName(shard: string): string {
  const [current, total] = shard.split('/');
  return `conformance-shard-${current}-of-${total}.json`;
}

/** The shard's recording in blob/, beside its report. */
export function shardEvidenceName(shard: string): string {
  const [current, total] = shard.split('/');
  return `evidence-shard-${current}-of-${total}.har`;
}

/**
 * A recording's text, read with the memory its size needs (never more than MAX_RECORDING_BYTES): a
 * merge reads one per shard. Throws FileReadError (os/regular-file.ts) when it cannot be read.
 */
export function readRecordingText(file: string): string {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // Not there, or not readable: readRegularFile says which, in its words.
  }
  return readRegularFile(file, Math.min(MAX_RECORDING_BYTES, size)).toString('utf8');
}

export function writeShardReport(
  report: ConformanceReport,
  reportDir: string,
  shard: string,
  mask: Mask,
  outside = false,
): void {
  const dir = join(reportDir, BLOB_SUBDIR);
  mkdirSync(dir, { recursive: true });
  const name = shardFileName(shard);
  const files = new Map([[name, mask.text(`${JSON.stringify(report)}\n`)]]);
  // The recording the report names, as the run wrote it beside the report (masked there, with the
  // run's keys): the merge joins the shards' recordings into its own evidence.har.
  if (report.run.evidence) files.set(shardEvidenceName(shard), readRecordingText(join(reportDir, EVIDENCE_FILE)));
  writeFilesSafely(dir, files, { files: [...files.keys()], dirs: [] }, { force: true, outside });
}

export interface CollectedShards {
  reports: ConformanceReport[];
  problems: string[];
}

/** The shard reports of one run found in a directory: all N of them, of one seed, target and suite. */
export function collectShards(blobDir: string): CollectedShards {
  if (!existsSync(blobDir)) return { reports: [], problems: [`${blobDir} does not exist`] };
  const found = new Map<number, ConformanceReport>();
  const totals = new Set<number>();
  const problems: string[] = [];
  for (const name of readdirSync(blobDir)) {
    const m = SHARD_FILE.exec(name);
    if (!m) continue;
    totals.add(Number(m[2]));
    try {
      found.set(Number(m[1]), JSON.parse(readFileSync(join(blobDir, name), 'utf8')) as ConformanceReport);
    } catch (e) {
      problems.push(`${name} is not a report (${(e as Error).message})`);
    }
  }
  if (totals.size === 0)
    return { reports: [], problems: [`no shard report (conformance-shard-I-of-N.json) in ${blobDir}`] };
  if (totals.size > 1)
    return {
      reports: [],
      problems: [`shard reports of different splits (${[...totals].join(', ')} shards) in ${blobDir}`],
    };
  const total = [...totals][0]!;
  for (let i = 1; i <= total; i++) if (!found.has(i)) problems.push(`shard ${i}/${total} missing`);
  const reports = [...found.entries()].sort(([a], [b]) => a - b).map(([, r]) => r);
  const first = reports[0];
  for (const r of reports) {
    if (
      first &&
      (r.run.seed !== first.run.seed ||
        r.target.baseUrl !== first.target.baseUrl ||
        r.suite.version !== first.suite.version ||
        r.specVersion !== first.specVersion)
    ) {
      problems.push(`shard ${r.run.shard} ran with another seed, target or suite than shard ${first.run.shard}`);
    }
  }
  return { reports, problems };
}
