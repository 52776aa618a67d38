import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckOutcome } from '../../core/check/check.ts';
import type { RequestLogEntry } from '../../core/http/request-log.ts';
import { Client } from '../../core/http/client.ts';
import { executeCheck } from '../../core/run/execute-check.ts';
import { DEFAULTS, type RunSettings } from '../../core/run/run-settings.ts';
import { parseTarget, viewOf, type Target } from '../../core/target/target.ts';
import { NodeTransport, type Transport } from '../../core/http/transport.ts';
import type { ReferenceOptions, ReferenceServer } from '../../reference/options.ts';
import { startReference } from '../../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../../reference/target-file.ts';
import type { ConformanceReport } from '../../reports/model.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../../suites/judges/index.ts';
import { Engine } from '../../core/run/engine.ts';
import { reportOfRun } from '../../cli/run-report.ts';
import { MemoryTransport } from './memory-transport.ts';
import { scriptCommand } from './build.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The target file a started reference is described by, parsed as the suite would parse it. */
export function referenceTarget(server: ReferenceServer, edit: (yaml: string) => string = (y) => y): Target {
  return parseTarget(edit(referenceTargetYaml(server)), 'reference-target.yaml', { env: referenceKeyEnv(server) });
}

export function testSettings(runDir: string, overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    targetFile: join(runDir, 'target.yaml'),
    runDir,
    seed: 42,
    numRuns: DEFAULTS.numRuns,
    maxRequests: DEFAULTS.maxRequests,
    maxRps: 0,
    concurrency: DEFAULTS.concurrency,
    requestTimeoutMs: 5_000,
    bodyCapBytes: DEFAULTS.bodyCapBytes,
    maxRetries: 1,
    retryCapMs: 200,
    reportDir: join(runDir, 'report'),
    transport: 'node',
    failOn: 'must',
    requireAll: false,
    force: false,
    allowLiteralKeys: false,
    allowInsecure: false,
    retryBudgetMs: 60_000,
    deadlineMs: 600_000,
    startedAt: Date.now(),
    replay: '',
    requestsBefore: 0,
    ...overrides,
  };
}

/**
 * The whole suite run in-process by the engine (as a run does, without Playwright and the command
 * line around it) against a reference started with the given options: the fast self-test. Requests
 * reach the reference without a connection (memory-transport.ts): what is judged is what it answers;
 * the command-line tests and test/hostile/ go through HTTP.
 * `select` picks checks by id (a --grep), else every check runs.
 */
export async function runEngineAgainst(
  options: Partial<ReferenceOptions> = {},
  more: {
    settings?: Partial<RunSettings>;
    select?: (id: string) => boolean;
    editTarget?: (target: Target) => void;
    engine?: (engine: Engine) => void;
  } = {},
): Promise<ConformanceReport> {
  const server = await startReference(options);
  const runDir = mkdtempSync(join(tmpdir(), 'engine-'));
  const settings = testSettings(runDir, {
    maxRetries: DEFAULTS.maxRetries,
    retryCapMs: DEFAULTS.retryCapMs,
    requestTimeoutMs: DEFAULTS.requestTimeoutMs,
    ...more.settings,
  });
  const target = referenceTarget(server);
  more.editTarget?.(target);
  const transport = new MemoryTransport(server);
  try {
    return await runEngineOn(target, transport, settings, more);
  } finally {
    await transport.close();
    await server.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** The engine's whole run, in-process, of `target` over `transport` (closed by the caller). */
export async function runEngineOn(
  target: Target,
  transport: Transport,
  settings: RunSettings,
  more: { select?: (id: string) => boolean; engine?: (engine: Engine) => void } = {},
): Promise<ConformanceReport> {
  const engine = new Engine({ settings, target, checks: ALL_CHECKS, judges: RESPONSE_JUDGES, transport });
  more.engine?.(engine);
  const startedAt = new Date();
  engine.plan(ALL_CHECKS.map((c) => c.id).filter(more.select ?? (() => true)));
  const outcomes = await engine.finished();
  return reportOfRun(
    {
      settings,
      target,
      suite: { name: 'conformance-suite', version: '0.0.0-test', commit: 'test' },
      embedded: false,
    },
    engine,
    outcomes,
    { startedAt },
  );
}

/**
 * Runs one declared check in-process against a reference started with the given options (a fault, a
 * conformant variant): the fast way to show that a check fails on the fault it is meant to catch. Its
 * requests reach the reference without a connection, as the self-test's do (memory-transport.ts): a
 * check judges what the reference answers, not how it came.
 */
export async function probeCheck(
  checkId: string,
  options: Partial<ReferenceOptions> = {},
  more: {
    settings?: Partial<RunSettings>;
    editTarget?: (yaml: string) => string;
    log?: RequestLogEntry[];
    /** Over HTTP: for a target file edited to point at a server of the test's own in front of the reference. */
    overHttp?: boolean;
  } = {},
): Promise<CheckOutcome> {
  const check = ALL_CHECKS.find((c) => c.id === checkId);
  if (!check) throw new Error(`no check ${checkId}`);
  const server = await startReference(options);
  const runDir = mkdtempSync(join(tmpdir(), 'probe-'));
  const settings = testSettings(runDir, more.settings);
  const target = referenceTarget(server, more.editTarget);
  const transport = more.overHttp
    ? new NodeTransport({ timeoutMs: settings.requestTimeoutMs, bodyCapBytes: settings.bodyCapBytes })
    : new MemoryTransport(server);
  try {
    const client = new Client(target, settings, transport);
    try {
      return await executeCheck(check, client, viewOf(target), settings, { judges: RESPONSE_JUDGES });
    } finally {
      more.log?.push(...client.log.entries);
    }
  } finally {
    await transport.close();
    await server.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  report?: ConformanceReport;
  reportDir: string;
  ms: number;
}

/** What a command run to its end (or killed at its time limit) wrote, and how it exited. */
export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command in a process of its own, killed at `timeoutMs` so a hang fails the test; its output collected. */
export function spawned(
  command: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Spawned> {
  const started = Date.now();
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * A script of this project in a process of its own (npm test's build of it, else the source with
 * tsx's loader: test/support/build.ts), killed at `timeoutMs` so a hang fails the test.
 */
export function runScript(
  script: string,
  args: string[],
  opts: { env?: Record<string, string>; timeoutMs?: number; wrapper?: readonly string[] } = {},
): Promise<Spawned> {
  // `wrapper`: a command the script runs under (GNU time measuring its memory, say).
  const command = [...(opts.wrapper ?? []), ...scriptCommand(ROOT, script), ...args];
  return spawned(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...opts.env, FORCE_COLOR: '0' },
    timeoutMs: opts.timeoutMs ?? 90_000,
  });
}

/** Runs `npm run conformance` as a user would, and reads the report it wrote. */
export async function runCli(
  args: string[],
  opts: { env?: Record<string, string>; timeoutMs?: number; reportDir?: string } = {},
): Promise<CliRun> {
  const reportDir = opts.reportDir ?? mkdtempSync(join(tmpdir(), 'report-'));
  const run = await runScript('cli/conformance.ts', ['--report-dir', reportDir, ...args], opts);
  const file = join(reportDir, 'report.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
  return { ...run, reportDir, ...(report ? { report } : {}) };
}
