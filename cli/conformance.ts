import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCli, USAGE, UsageError, type CliOptions } from './args.ts';
import { preflight } from './preflight.ts';
import { stoppedReason } from '../core/client.ts';
import { DEFAULTS, settingsToEnv, type RunSettings } from '../core/run-settings.ts';
import { loadTarget, TargetFileError, type Target } from '../core/target.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { saveShardState } from '../reports/shards.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXIT = { conformant: 0, 'non-conformant': 1, error: 2 } as const;

/** A run that could not be made: one line on stderr and exit 2, never a stack trace (principle 5). */
class Fatal extends Error {}

function die(message: string): never {
  throw new Fatal(message);
}

async function main(): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) die(`${e.message} (see --help)`);
    throw e;
  }
  if (opts.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }

  const runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  const env: Record<string, string> = {};
  let stopReference: (() => Promise<void>) | undefined;
  let targetFile = opts.target ? resolve(opts.target) : '';
  try {
    if (!opts.target) {
      // No target: the embedded reference, described by a target file like any deployment's.
      const server = await startReference();
      stopReference = () => server.close();
      targetFile = join(runDir, 'reference-target.yaml');
      writeFileSync(targetFile, referenceTargetYaml(server));
      Object.assign(env, referenceKeyEnv(server));
      Object.assign(process.env, env);
      process.stdout.write(`target: embedded reference at ${server.baseUrl}\n`);
    }

    const settings: RunSettings = {
      targetFile,
      runDir,
      seed: opts.seed ?? (Math.random() * 0x100000000) >>> 0,
      numRuns: opts.numRuns ?? DEFAULTS.numRuns,
      maxRequests: opts.maxRequests ?? DEFAULTS.maxRequests,
      maxRps: opts.maxRps ?? DEFAULTS.maxRps,
      requestTimeoutMs: opts.timeoutMs ?? DEFAULTS.requestTimeoutMs,
      bodyCapBytes: DEFAULTS.bodyCapBytes,
      maxRetries: DEFAULTS.maxRetries,
      retryCapMs: DEFAULTS.retryCapMs,
      reportDir: resolve(opts.reportDir ?? DEFAULTS.reportDir),
      transport: opts.transport,
      failOn: opts.failOn,
      allowLiteralKeys: opts.allowLiteralKeys,
      allowInsecure: opts.allowInsecure,
      ...(opts.replayPath ? { replayPath: opts.replayPath } : {}),
    };

    let target: Target;
    try {
      target = loadTarget(targetFile, settings);
    } catch (e) {
      if (e instanceof TargetFileError) die(e.message);
      throw e;
    }
    if (opts.target) process.stdout.write(`target: ${target.baseUrl}\n`);
    process.stdout.write(`seed: ${settings.seed}\n`);

    if (opts.dryRun) {
      // Loaded only here: the plan needs every check declaration, which a real run loads in Playwright.
      const { printPlan } = await import('./plan.ts');
      printPlan(target, settings, opts.grep);
      return 0;
    }

    const unreachable = await preflight(target, settings);
    if (unreachable) die(`target ${target.baseUrl} is unreachable: ${unreachable}`);

    mkdirSync(settings.reportDir, { recursive: true });
    const code = await runPlaywright(settings, opts, { ...env, ...replayEnv(opts, settings) });
    // A shard keeps its request log and settings next to its blob report, for npm run conformance:merge.
    if (opts.shard) saveShardState(settings, opts.shard, { baseUrl: target.baseUrl, replay: replayEnv(opts, settings)['CONFORMANCE_REPLAY_COMMAND']!, suiteVersion: suiteVersion(), suiteCommit: suiteCommit() });
    return finish(settings, code);
  } finally {
    await stopReference?.();
    // CONFORMANCE_KEEP_RUN_DIR=1 keeps the request log and Playwright's output (for audits: test/safety).
    if (process.env['CONFORMANCE_KEEP_RUN_DIR'] !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

/** The command that replays this run, printed in the report (keys stay in the environment). */
function replayEnv(opts: CliOptions, s: RunSettings): Record<string, string> {
  const parts = ['npm run conformance --'];
  if (opts.target) parts.push(`--target ${opts.target}`);
  parts.push(`--seed ${s.seed}`);
  if (opts.numRuns) parts.push(`--num-runs ${opts.numRuns}`);
  if (opts.maxRequests) parts.push(`--max-requests ${opts.maxRequests}`);
  return { CONFORMANCE_REPLAY_COMMAND: parts.join(' ') };
}

function suiteCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

function suiteVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function runPlaywright(settings: RunSettings, opts: CliOptions, extraEnv: Record<string, string>): Promise<number | null> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const args = [cli, 'test', '-c', join(ROOT, 'suites', 'playwright.config.ts')];
  if (opts.grep) args.push('--grep', opts.grep);
  if (opts.shard) args.push('--shard', opts.shard);
  const deadlineMs = (opts.deadlineS ?? 600) * 1000;
  const version = suiteVersion();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      ...extraEnv,
      ...settingsToEnv(settings),
      CONFORMANCE_DEADLINE_MS: String(deadlineMs),
      CONFORMANCE_SUITE_VERSION: version,
      CONFORMANCE_SUITE_COMMIT: suiteCommit(),
      // A shard writes its own partial report (its exit code) and the blob that conformance:merge joins.
      CONFORMANCE_REPORTERS: opts.shard ? 'console,conformance,blob' : 'console,conformance',
      FORCE_COLOR: '0',
    },
  });
  return new Promise((resolvePromise) => {
    // Playwright's own globalTimeout ends the run; this is the backstop if it does not.
    const killer = setTimeout(() => child.kill('SIGKILL'), deadlineMs + 30_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolvePromise(code);
    });
  });
}

function finish(settings: RunSettings, playwrightCode: number | null): number {
  const reportFile = join(settings.reportDir, 'report.json');
  if (!existsSync(join(settings.runDir, 'verdict')) || !existsSync(reportFile)) {
    if (process.env['CONFORMANCE_REPORTERS']?.includes('blob')) return playwrightCode === 0 ? 0 : 1;
    die(`the suite ended (code ${playwrightCode}) without writing its report`);
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;
  // Nothing judged is no verdict: a selection (--grep, --shard) with no check must not read as CONFORMANT.
  if (report.checks.every((c) => c.reason === 'not selected in this run')) die('no check ran: the selection (--grep, --shard) holds none of the declared checks');
  const c = report.counts;
  const line = (l: keyof typeof c) => `${l} ${c[l].pass} pass, ${c[l].fail} fail, ${c[l].error} error, ${c[l].skip} skip${c[l].observed ? `, ${c[l].observed} observed` : ''}`;
  process.stdout.write(
    [
      '',
      `verdict: ${report.verdict.toUpperCase()}`,
      `requirements: ${line('MUST')}; ${line('SHOULD')}; UNSPECIFIED ${c.UNSPECIFIED.observed} observed, ${c.UNSPECIFIED.skip} skip`,
      `requests: ${report.run.requests} (${report.run.retries} retries)`,
      ...(stoppedReason(settings.runDir) ? [`stopped early: ${stoppedReason(settings.runDir)}`] : []),
      ...(report.run.budgetExhausted.length ? [`request budget of ${settings.maxRequests} spent: ${report.run.budgetExhausted.length} checks cut short (${report.run.budgetExhausted.join(', ')})`] : []),
      `report: ${reportFile}`,
      '',
    ].join('\n'),
  );
  return EXIT[report.verdict];
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Fatal ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`conformance: ${message}\n`);
    process.exit(2);
  },
);
