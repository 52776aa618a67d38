/**
 * Settings of one conformance run: decided once by the command line (or the Playwright
 * configuration when Playwright is started directly) and handed on as one value.
 */
export interface RunSettings {
  /** The target file the run was described by; empty for the embedded reference. */
  targetFile: string;
  seed: number;
  numRuns: number;
  maxRequests: number;
  /** 0 means no rate limit. */
  maxRps: number;
  /**
   * Checks in flight together at most (--concurrency); 1 runs them one after another, one request at a
   * time. Absent: DEFAULTS.concurrency. Whatever it is, the run shares one budget, pace and pause.
   */
  concurrency?: number;
  requestTimeoutMs: number;
  bodyCapBytes: number;
  maxRetries: number;
  retryCapMs: number;
  /** Time the whole run may spend waiting on 429/503 before retries; past it the run stops sending. */
  retryBudgetMs: number;
  /** Deadline of the whole run (--deadline), counted from startedAt: the preflight spends it too. */
  deadlineMs: number;
  /**
   * When the command started (ms since the epoch). The settings travel to Playwright's runner as JSON,
   * so the start is an instant both processes read alike, not a timer of one of them.
   */
  startedAt: number;
  /** Where the run may keep files (Playwright's output); the run's state itself lives in memory. */
  runDir: string;
  reportDir: string;
  transport: 'node' | 'playwright';
  failOn: 'must' | 'should';
  /** Any MUST requirement not judged, whatever the reason, makes the run incomplete. */
  requireAll: boolean;
  /** Write into a report directory that holds files the suite did not write. */
  force: boolean;
  allowLiteralKeys: boolean;
  allowInsecure: boolean;
  /**
   * --max-failures: the run ends once this many requirements have failed at a gating level, the rest
   * not judged (core/run/max-failures.ts). Absent: no limit.
   */
  maxFailures?: number;
  /**
   * --header as given (`NAME:VALUE`, VALUE a `${VAR}` or written literally): the run resolves the
   * values with the target (cli/run-target.ts), which holds them as secrets.
   */
  headers?: readonly string[];
  /**
   * Hosts the keys may go to besides loopback (--allow-host and CONFORMANCE_ALLOW_HOSTS, normalised:
   * core/target/allowed-hosts.ts); absent: loopback only.
   */
  allowHosts?: readonly string[];
  /** --target-outside: a target file reached through a link leading outside the working directory is read. */
  targetOutside?: boolean;
  /** --report-dir-outside: a report directory reached through a link leading outside the working directory is written. */
  reportDirOutside?: boolean;
  /** fast-check replay path of a counterexample (with --seed and --grep of one check). */
  replayPath?: string;
  /** The command that replays this run, as printed in every output. */
  replay: string;
  /** Requests the command line already sent (its preflight): they count against the budget. */
  requestsBefore: number;
}

/**
 * The run's --concurrency as every part of it reads it (the engine's places for checks, the client's
 * requests in flight, a property's runs judged together): DEFAULTS.concurrency when absent, a whole
 * number from 1.
 */
export function concurrencyOf(settings: Pick<RunSettings, 'concurrency'>): number {
  return Math.max(1, Math.floor(settings.concurrency ?? DEFAULTS.concurrency));
}

/** Milliseconds left of the run's deadline (0 once it passed): what the preflight and the checks may still spend. */
export function deadlineLeftMs(settings: Pick<RunSettings, 'startedAt' | 'deadlineMs'>, now = Date.now()): number {
  return Math.max(0, settings.startedAt + settings.deadlineMs - now);
}

/** Why the run stopped at its deadline, in the words every output uses (cli/playwright/run-host.ts, cli/api.ts). */
export function deadlineReason(settings: Pick<RunSettings, 'deadlineMs'>): string {
  return `the suite's deadline of ${settings.deadlineMs / 1000} s passed (counted from the start of the run, preflight included)`;
}

export const DEFAULTS = {
  numRuns: 20,
  maxRequests: 2_000,
  maxRps: 0,
  /**
   * Enough to hide a deployment's round trips (a run is mostly waiting on them) without holding more
   * than a handful of connections to it; --max-rps paces the run whatever the concurrency.
   */
  concurrency: 8,
  requestTimeoutMs: 10_000,
  bodyCapBytes: 8 * 1024 * 1024,
  maxRetries: 3,
  retryCapMs: 5_000,
  retryBudgetMs: 60_000,
  deadlineMs: 600_000,
  reportDir: 'reports/latest',
  transport: 'node',
  failOn: 'must',
} as const;
