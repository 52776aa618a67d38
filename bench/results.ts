/** The bench's results (bench/out/results.json) and the derived verdicts the tables show. */
import type { PeerRun } from './peers/peer.ts';
import type { SideBySide } from './side-by-side.ts';
import type { SuiteOutcome } from './suite-run.ts';

export type TargetKind = 'reference' | 'conformant' | 'fault';

export interface TargetResult {
  name: string;
  kind: TargetKind;
  description: string;
  /** Faults only: the requirement ids the fault breaks. */
  breaks?: string[];
  suite: SuiteOutcome[];
  /** Peer name to its runs on this target (absent when the peer is unavailable or skipped). */
  peers: Record<string, PeerRun[]>;
}

export interface PeerInfo {
  name: string;
  available: boolean;
  version?: string;
  reason?: string;
  configuration: string;
}

export interface BenchResults {
  date: string;
  command: string;
  mode: 'full' | 'quick';
  /** Verdict runs per conformant variant (faults: 1). */
  runs: number;
  seed: number;
  machine: { nproc: number; cpu: string; memoryGb: number; os: string; loadavgStart: number[]; loadavgEnd: number[] };
  versions: Record<string, string>;
  peers: PeerInfo[];
  /** The loopback row, timed by hyperfine (bench/side-by-side.ts). */
  sideBySide?: SideBySide;
  /** The latency row: the independent server behind the delaying proxy, timed by hyperfine. */
  latency?: SideBySide;
  targets: TargetResult[];
  /** Errors of the bench itself (a target it could not measure), said plainly. */
  problems: string[];
  elapsedMs: number;
  /** True while the bench is still running (or was interrupted): written after every target. */
  partial: boolean;
}

/** Did the suite catch this fault: a requirement failed (any level), and was it one the fault breaks. */
export function suiteCaught(t: TargetResult): { caught: boolean; onTarget: boolean; exitNonZero: boolean } {
  const run = t.suite[0];
  if (!run) return { caught: false, onTarget: false, exitNonZero: false };
  const failed = run.failedRequirements;
  return {
    caught: failed.length > 0,
    onTarget: failed.some((r) => t.breaks?.includes(r)),
    exitNonZero: run.exitCode !== 0,
  };
}

/** False failures of the suite on a conformant target: failed requirements or errored checks. */
export function suiteFalse(t: TargetResult): string[] {
  const out = new Set<string>();
  for (const r of t.suite) {
    // Results written before failedMust was recorded name no level.
    for (const f of r.failedRequirements)
      out.add(`fail ${f}${r.failedMust ? (r.failedMust.includes(f) ? ' (MUST)' : ' (SHOULD)') : ''}`);
    for (const e of r.erroredChecks) out.add(`error ${e}`);
    if (r.verdict !== 'conformant') out.add(`verdict ${r.verdict}`);
  }
  return [...out];
}

/** A peer's failure signatures on the plain reference: its own false failures, the baseline. */
export function peerBaseline(
  targets: readonly TargetResult[],
  peer: string,
  filter: (sig: string) => boolean = () => true,
): Set<string> {
  const out = new Set<string>();
  for (const t of targets)
    if (t.kind === 'reference')
      for (const r of t.peers[peer] ?? []) for (const f of r.failures) if (filter(f)) out.add(f);
  return out;
}

/**
 * Did the peer catch the fault: it reported a failure the plain reference does not also give it (so a
 * peer that fails on the reference is not credited for failing the same way on a fault).
 */
export function peerCaught(
  t: TargetResult,
  peer: string,
  baseline: Set<string>,
  filter: (sig: string) => boolean = () => true,
): { ran: boolean; caught: boolean; exitNonZero: boolean; newFailures: string[] } {
  const run = t.peers[peer]?.[0];
  if (!run || run.problem)
    return {
      ran: !!run && !run.problem,
      caught: false,
      exitNonZero: run ? run.exitCode !== 0 : false,
      newFailures: [],
    };
  const newFailures = run.failures.filter(filter).filter((f) => !baseline.has(f));
  return { ran: true, caught: newFailures.length > 0, exitNonZero: run.exitCode !== 0, newFailures };
}
