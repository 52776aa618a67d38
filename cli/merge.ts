/**
 * `npm run conformance:merge -- --target FILE [--report-dir DIR]`: joins the blob reports of a run
 * split with `--shard I/N` into one conformance report. It runs `playwright merge-reports` with the
 * conformance reporter over the collected blob files; the reporter reads the run's settings from the
 * CONFORMANCE_* environment, which this command rebuilds from the shards' states (reports/shards.ts),
 * and counts the requests of every shard from their request logs. Exit codes as the main command:
 * 0 conformant, 1 non-conformant, 2 the merge could not be made.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { DEFAULTS, settingsToEnv, type RunSettings } from '../core/run-settings.ts';
import { loadTarget, TargetFileError } from '../core/target.ts';
import { consoleSummary } from '../reports/console-summary.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { BLOB_SUBDIR, collectShards, mergeRequestLogs } from '../reports/shards.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXIT = { conformant: 0, 'non-conformant': 1, error: 2 } as const;

const MERGE_USAGE = `usage: npm run conformance:merge -- --target FILE [options]

Merges the blob reports of a run split with --shard I/N into one conformance report (report.json,
junit.xml, summary.md, report.html, badge.svg). Collect every shard's <report-dir>/blob/ into one
directory first. Exit code: 0 conformant, 1 non-conformant, 2 the merge could not be made.

  --target FILE          the target file the shards ran against (keys are not needed to merge)
  --report-dir DIR       where the merged report is written (default reports/latest)
  --blob-dir DIR         the collected blob reports (default <report-dir>/blob)
  --fail-on must|should  which failed level fails the run (default: as the shards ran)
  --allow-literal-keys   accept keys written literally in the target file
  --allow-insecure       accept plain http:// to a host other than loopback
  --help                 this text`;

class Fatal extends Error {}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: 'string' },
        'report-dir': { type: 'string' },
        'blob-dir': { type: 'string' },
        'fail-on': { type: 'string' },
        'allow-literal-keys': { type: 'boolean' },
        'allow-insecure': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    throw new Fatal(`${(e as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) {
    process.stdout.write(MERGE_USAGE + '\n');
    return 0;
  }
  if (!values.target) throw new Fatal('--target FILE is required: the target file the shards ran against (see --help)');
  const failOnArg = values['fail-on'];
  if (failOnArg !== undefined && failOnArg !== 'must' && failOnArg !== 'should') throw new Fatal(`--fail-on takes must or should, got ${JSON.stringify(failOnArg)}`);

  const reportDir = resolve(values['report-dir'] ?? DEFAULTS.reportDir);
  const blobDir = resolve(values['blob-dir'] ?? join(reportDir, BLOB_SUBDIR));
  const targetFile = resolve(values.target);
  const { states, problems } = collectShards(blobDir);
  if (problems.length) throw new Fatal(`cannot merge: ${problems.join('; ')}`);
  const first = states[0]!;

  // The merge sends no request: the keys are not needed, so a merge job may run without the secrets.
  const env: Record<string, string> = { ...keyPlaceholders(targetFile) };
  const loadOptions = { env: { ...process.env, ...env }, allowLiteralKeys: values['allow-literal-keys'] ?? false, allowInsecure: values['allow-insecure'] ?? false };
  try {
    const target = loadTarget(targetFile, loadOptions);
    if (target.baseUrl !== first.baseUrl) throw new Fatal(`the shards ran against ${first.baseUrl}, ${values.target} describes ${target.baseUrl}`);
  } catch (e) {
    if (e instanceof TargetFileError) throw new Fatal(e.message);
    throw e;
  }

  const runDir = mkdtempSync(join(tmpdir(), 'conformance-merge-'));
  const collected = new Set(readdirSync(blobDir));
  try {
    mergeRequestLogs(blobDir, states, runDir);
    const settings: RunSettings = {
      targetFile,
      runDir,
      seed: first.seed,
      numRuns: first.numRuns,
      maxRequests: first.maxRequests,
      maxRps: DEFAULTS.maxRps,
      requestTimeoutMs: DEFAULTS.requestTimeoutMs,
      bodyCapBytes: DEFAULTS.bodyCapBytes,
      maxRetries: DEFAULTS.maxRetries,
      retryCapMs: DEFAULTS.retryCapMs,
      reportDir,
      transport: first.transport,
      failOn: failOnArg ?? first.failOn,
      allowLiteralKeys: loadOptions.allowLiteralKeys,
      allowInsecure: loadOptions.allowInsecure,
    };
    const code = await mergeReports(blobDir, {
      ...env,
      ...settingsToEnv(settings),
      CONFORMANCE_REPORTERS: 'conformance',
      CONFORMANCE_MERGED_SHARDS: String(first.total),
      CONFORMANCE_SUITE_VERSION: first.suiteVersion,
      CONFORMANCE_SUITE_COMMIT: first.suiteCommit,
      CONFORMANCE_REPLAY_COMMAND: first.replay,
    });
    const reportFile = join(reportDir, 'report.json');
    if (!existsSync(join(runDir, 'verdict')) || !existsSync(reportFile)) throw new Fatal(`playwright merge-reports ended (code ${code}) without writing the report`);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;
    process.stdout.write(`merged ${first.total} shards (seed ${first.seed})\n` + consoleSummary(report, reportFile));
    return EXIT[report.verdict];
  } finally {
    rmSync(runDir, { recursive: true, force: true });
    // merge-reports unpacks the blobs next to them; leave the collected directory as it was.
    for (const f of readdirSync(blobDir)) if (!collected.has(f)) rmSync(join(blobDir, f), { recursive: true, force: true });
  }
}

/** `${VAR}` of apiKey / restrictedApiKey that the environment does not set, set to a placeholder. */
function keyPlaceholders(file: string): Record<string, string> {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch {
    return {}; // loadTarget says what is wrong with the file
  }
  const out: Record<string, string> = {};
  for (const field of ['apiKey', 'restrictedApiKey']) {
    const value = (raw as Record<string, unknown> | null)?.[field];
    const name = typeof value === 'string' ? /^\s*\$\{([A-Za-z_][A-Za-z0-9_]*)\}\s*$/.exec(value)?.[1] : undefined;
    if (name && !process.env[name]) out[name] = 'not-needed-to-merge';
  }
  return out;
}

function mergeReports(blobDir: string, env: Record<string, string>): Promise<number | null> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, 'merge-reports', '-c', join(ROOT, 'suites', 'playwright.config.ts'), blobDir], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
  });
  return new Promise((resolvePromise) => child.on('exit', (code) => resolvePromise(code)));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const message = e instanceof Fatal ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`conformance:merge: ${message}\n`);
    process.exit(2);
  },
);
