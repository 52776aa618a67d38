import type { CheckKind, CheckOutcome, NotJudgedCause, RunLimit } from '../core/check/check.ts';
import type { Level, Requirement } from '../core/document/catalogue.ts';
import type { Counterexample } from '../core/check/errors.ts';
import type { Exchange } from '../core/check/evidence.ts';
import type { RunCoverage } from '../core/run/coverage.ts';
import type { Operation } from '../core/document/operations.ts';
import type { TargetView } from '../core/target/target.ts';

export type RequirementStatus = 'pass' | 'fail' | 'skip' | 'disabled' | 'observed' | 'error';
/**
 * `incomplete`: a MUST requirement could not be judged because of the run's limits (budget, deadline,
 * a target that stopped answering, the retry budget), or, with --require-all, because an optional
 * target field is absent. The gate never says green without evidence (rule "No green without evidence").
 */
export type Verdict = 'conformant' | 'non-conformant' | 'error' | 'incomplete';

/** Order in which statuses are counted and listed in every output format. */
export const REQUIREMENT_STATUSES: readonly RequirementStatus[] = [
  'pass',
  'fail',
  'error',
  'skip',
  'disabled',
  'observed',
];

/** The evidence of one failure of a requirement: which check saw it, what was sent and what came back. */
export interface RequirementFailure {
  checkId: string;
  message: string;
  /** Request and response pairs, redacted, bodies truncated, volatile headers masked; the last one failed. */
  exchanges: Exchange[];
  /** Reproduces the last request; keys appear as the target file's variables ($API_KEY for a literal key), never as values. */
  curl?: string;
  counterexample?: Counterexample;
}

/** A requirement of the catalogue as the report gives it: its declaration and what the run found. */
/** A report's requirement row; a report read back (merge, diff) may name ids of another catalogue. */
export interface RequirementResult extends Omit<Requirement, 'observable' | 'id'> {
  id: string;
  status: RequirementStatus;
  /** Why it is skip, disabled or error; the first failure message when it is fail. */
  reason?: string;
  /** Ids of the checks behind the requirement (see `checks` of the report for their outcomes). */
  checks: string[];
  /** Values seen for the requirement (observations), in check order. */
  observed?: unknown[];
  /** Every failure of this requirement, with its evidence (status fail only). */
  failures?: RequirementFailure[];
  /** Why the requirement was not judged (skip, error or disabled), typed: see NotJudgedCause. */
  cause?: NotJudgedCause;
  /** With cause `run-limit`: which limit (budget, deadline, stopped). */
  limit?: RunLimit;
  /** With cause `target-field`: the absent target field. */
  field?: string;
}

/**
 * Responses the run received outside its checks (the command's preflight), judged by the same
 * response judges: their failures count for their requirements as a check's do.
 */
export type ReceivedResult = Pick<
  CheckOutcome,
  'checkId' | 'status' | 'reason' | 'failures' | 'observations' | 'requests'
>;

export interface CheckResult extends CheckOutcome {
  title: string;
  level: Level;
  operation: Operation;
  kind: CheckKind;
  requirements: string[];
}

/** report.json: the machine record of one run (schema: reports/report.schema.json). */
export interface ConformanceReport {
  reportVersion: 1;
  specVersion: string;
  /** Title of the service document the requirement ids come from. */
  specDocument: string;
  suite: { name: string; version: string; commit: string };
  target: { baseUrl: string; file: TargetView };
  run: {
    seed: number;
    startedAt: string;
    durationMs: number;
    requests: number;
    retries: number;
    /** Requests the run answered from its memory of what it already received instead of sending them again. */
    requestsSaved?: number;
    /** Milliseconds the run was held by the pauses 429/503 answers asked for (each pause once, as the client computed it). */
    rateLimitedWaitMs?: number;
    /** Checks the run kept in flight together at most (--concurrency). */
    concurrency?: number;
    numRuns: number;
    maxRequests: number;
    failOn: 'must' | 'should';
    /** Checks cut short because the request budget was spent. */
    budgetExhausted: string[];
    replay: string;
    /** The run's recording (evidence.har): its entries' count and the SHA-256 of its entries as serialised. */
    evidence?: { file: 'evidence.har'; entries: number; sha256: string; entryDigests: string[] };
    /**
     * The hosts (host[:port]) the run's keys went to: those of the target file's base URLs, each
     * loopback or allowed by the user (--allow-host, CONFORMANCE_ALLOW_HOSTS).
     */
    keysSentTo?: string[];
    /** The proxy (host:port, never its credentials) the run's requests went through (HTTPS_PROXY, HTTP_PROXY; core/http/proxy.ts). */
    proxy?: string;
    /** `I/N` when this report covers one shard only (its other checks are `disabled`). */
    shard?: string;
    /** Number of shard reports this report was merged from (`npm run conformance:merge`). */
    mergedShards?: number;
    /** A run of part of the suite (--grep, one --shard): how many of the declared checks it ran. */
    partial?: { checks: number; of: number };
    /** Why the verdict is incomplete (the MUST requirements it could not judge and the cause). */
    incomplete?: string;
    /** MUST requirements not judged because an optional target field is absent, with the fields. */
    mustNotJudged?: { count: number; fields: string[] };
    requireAll?: boolean;
    /**
     * How much of each listing the run judged: per container of the target file and for interns, the
     * pages and records seen and whether the end of the listing was reached, else why not.
     */
    coverage?: RunCoverage;
    /** What the run did that weakens what it shows (TLS certificates not verified), each said once. */
    warnings?: string[];
  };
  verdict: Verdict;
  counts: Record<Level, Record<RequirementStatus, number>>;
  requirements: RequirementResult[];
  checks: CheckResult[];
  /** What the run received outside its checks, judged ("Judge every response"): the preflight's responses. */
  received?: ReceivedResult[];
}
