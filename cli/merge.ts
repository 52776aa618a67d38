/**
 * `npm run conformance:merge -- [--report-dir DIR] [--blob-dir DIR]`: joins the reports of a run
 * split with `--shard I/N` (each shard's `blob/conformance-shard-I-of-N.json`) into one conformance
 * report, and their recordings (`evidence-shard-I-of-N.har`) into its evidence.har (cli/merge-evidence.ts).
 * It sends no request and needs no key: a CI merge job runs without the secrets.
 * Exit codes as the main command: 0 conformant, 1 non-conformant, 2 the merge could not be made.
 */
import { join, resolve } from 'node:path';
import type { CheckOutcome } from '../core/check/check.ts';
import { Mask } from '../core/text/mask.ts';
import { DEFAULTS } from '../core/run/run-settings.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { buildReport } from '../reports/build-report.ts';
import { consoleSummary } from '../reports/console-summary.ts';
import { EXIT_CODE } from '../reports/format.ts';
import type { ReceivedResult } from '../reports/model.ts';
import { BLOB_SUBDIR, collectShards } from '../reports/shards.ts';
import { movedPointers, UnjoinableRecording } from '../reports/merged-evidence.ts';
import { EVIDENCE_FILE } from '../reports/evidence.ts';
import { type JoinedRecordings, joinShardRecordings, mergedEvidence } from './merge-evidence.ts';
import { wholeRunReplay } from './merge-replay.ts';
import { prepareReportDir, ReportDirError, writeReportFiles } from '../reports/write-report.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { commandArgs } from './args.ts';
import { commandLine } from './suite-files.ts';

const MERGE_USAGE = `usage: ${commandLine('merge')} [options]

Merges the reports of a run split with --shard I/N into one conformance report (report.json,
junit.xml, summary.md, report.html, badge.svg) and their recordings into its evidence.har. Collect
every shard's <report-dir>/blob/ into one directory first. Needs no key and sends nothing. Exit
code: 0 conformant, 1 non-conformant, 2 the merge could not be made.

  --report-dir DIR       where the merged report is written (default reports/latest)
  --blob-dir DIR         the collected shard files (default <report-dir>/blob)
  --fail-on must|should  which failed level fails the run (default: as the shards ran)
  --force                write into a report directory holding files the suite did not write
  --report-dir-outside   write through a symbolic link of --report-dir leading outside the working directory
  --help                 this text`;

class Fatal extends Error {}

function main(argv: string[]): number {
  const parsed = commandArgs(
    {
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'report-dir': { type: 'string' },
        'blob-dir': { type: 'string' },
        'fail-on': { type: 'string' },
        force: { type: 'boolean' },
        'report-dir-outside': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    MERGE_USAGE,
    Fatal,
  );
  if (!parsed) return 0;
  const { values } = parsed;
  const failOnArg = values['fail-on'];
  if (failOnArg !== undefined && failOnArg !== 'must' && failOnArg !== 'should')
    throw new Fatal(`--fail-on takes must or should, got ${JSON.stringify(failOnArg)}`);
  const reportDir = resolve(values['report-dir'] ?? DEFAULTS.reportDir);
  const blobDir = resolve(values['blob-dir'] ?? join(reportDir, BLOB_SUBDIR));
  const { reports, problems } = collectShards(blobDir);
  if (problems.length) throw new Fatal(`cannot merge: ${problems.join('; ')}`);
  const first = reports[0]!;
  let joined: JoinedRecordings | undefined;
  try {
    joined = joinShardRecordings(blobDir, reports);
  } catch (e) {
    if (e instanceof UnjoinableRecording) throw new Fatal(`cannot merge: ${e.message}`);
    throw e;
  }
  // A finding points at an entry of its shard's recording: the same entry, moved, in the merged one.
  const moved = <T extends ReceivedResult>(shard: number, x: T): T =>
    joined ? movedPointers(x, joined.shards[shard]!.offset, joined.shards[shard]!.entries) : x;

  // Each check ran in exactly one shard; the others list it as not selected.
  const outcomes = new Map<string, CheckOutcome>();
  for (const [i, r] of reports.entries()) {
    for (const c of r.checks) {
      if (c.cause === 'not-selected') continue;
      const { title: _t, level: _l, operation: _o, kind: _k, requirements: _r, ...outcome } = c;
      outcomes.set(c.checkId, moved(i, outcome));
    }
  }
  const report = buildReport({
    checks: ALL_CHECKS,
    outcomes,
    target: first.target,
    suite: first.suite,
    run: {
      seed: first.run.seed,
      startedAt: reports.map((r) => r.run.startedAt).sort()[0]!,
      durationMs: Math.max(...reports.map((r) => r.run.durationMs)),
      numRuns: first.run.numRuns,
      maxRequests: first.run.maxRequests,
      failOn: failOnArg ?? first.run.failOn,
      replay: wholeRunReplay(first.run.replay, values['report-dir'] ?? DEFAULTS.reportDir),
      ...(first.run.keysSentTo ? { keysSentTo: first.run.keysSentTo } : {}),
      mergedShards: reports.length,
    },
    requestLog: [],
    received: mergedReceived(reports.map((r, i) => (r.received ?? []).map((part) => moved(i, part)))),
    requestsBefore: reports.reduce((n, r) => n + r.run.requests, 0),
    // Shards run with --require-all are judged whole by it: every MUST of the merged run judged.
    requireAll: reports.some((r) => r.run.requireAll === true),
  });
  report.run.retries = reports.reduce((n, r) => n + r.run.retries, 0);
  const evidence = joined ? mergedEvidence(report, joined) : undefined;
  // The shard reports were masked when written; the merged one is rendered from them. The report
  // directory is prepared as a run's is (its blob/ kept: the shards' input, placed there by the user).
  try {
    const outside = values['report-dir-outside'] ?? false;
    prepareReportDir(reportDir, {
      force: values.force ?? false,
      outside,
      keepBlob: blobDir === join(reportDir, BLOB_SUBDIR),
    });
    writeReportFiles(report, reportDir, {
      mask: new Mask([]),
      force: values.force ?? false,
      outside,
      ...(evidence !== undefined ? { evidence } : {}),
    });
  } catch (e) {
    if (e instanceof ReportDirError) throw new Fatal(e.message);
    throw e;
  }
  process.stdout.write(
    `merged ${reports.length} shards (seed ${first.run.seed})\n` +
      (joined ? `evidence: ${join(reportDir, EVIDENCE_FILE)} (${joined.recording.length} entries)\n` : '') +
      consoleSummary(report, reportDir, report.run.durationMs)
        .split('\n')
        .map((l) => terminalSafe(l))
        .join('\n'),
  );
  return EXIT_CODE[report.verdict];
}

/**
 * Each shard made its own preflight: what each received outside its checks, one entry per part of the
 * run, its failures said once (a failure of one shard fails the merged run as it failed the shard).
 */
function mergedReceived(shards: readonly ReceivedResult[][]): ReceivedResult[] {
  const byId = new Map<string, ReceivedResult>();
  for (const received of shards) {
    for (const part of received) {
      const known = byId.get(part.checkId);
      if (!known) {
        byId.set(part.checkId, { ...part, failures: [...part.failures], observations: [...part.observations] });
        continue;
      }
      const messages = new Set(known.failures.map((f) => `${f.requirementId}\u0000${f.message}`));
      known.failures.push(...part.failures.filter((f) => !messages.has(`${f.requirementId}\u0000${f.message}`)));
      known.observations.push(...part.observations);
      known.requests += part.requests;
      if (known.failures.length) {
        known.status = 'fail';
        known.reason ??= part.reason;
      }
    }
  }
  return [...byId.values()];
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  const message = e instanceof Fatal ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
  process.stderr.write(`conformance merge: ${terminalSafe(message)}\n`);
  process.exitCode = 2;
}
