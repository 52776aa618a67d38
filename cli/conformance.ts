import './compile-cache.ts';
import './jit-tiering.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { engineSocketPath, ENGINE_SOCKET_ENV } from '../playwright/engine-socket.ts';
import { DEFAULTS, type RunSettings } from '../core/run/run-settings.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { MARKER as REPORT_MARKER } from '../reports/safe-files.ts';
import { looseReportDir, parseCli, USAGE, UsageError, type CliOptions } from './args.ts';
import { cjsCompileCacheNodeOptions } from './cjs-compile-cache.ts';
import { endRunner } from './end-runner.ts';
import { die, Fatal } from './fatal.ts';
import { ROOT, RUN_ENV, runnerEnvOf, settingsOf, suiteInfo } from './prepare-run.ts';
import { MODULE_EXT, suiteModule } from './suite-files.ts';
import { EXIT_OF_SIGNAL, onStop, watchParentNodeOptions } from './stop-signals.ts';

// This module loads only what starting Playwright's runner needs: the runner's start-up is most of a
// run's time, so it starts first, and the rest of the command (cli/run-command.ts: the target file's
// parser and schema, the reference, the checks) loads while it boots.

/**
 * The report directory an exit 2 before the first check replaces with the error (reports/error-report.ts),
 * so no earlier run's report stays to read better than the exit code. Undefined for a dry run or
 * --help (they write no report). `ifExists`: the options did not parse, so the directory is a best
 * reading of them; the error replaces a report of the suite found there (its marker), and creates nothing.
 */
let errorReportDir: { dir: string; force: boolean; outside?: boolean; ifExists: boolean } | undefined;

async function main(): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      const loose = looseReportDir(process.argv.slice(2));
      if (!loose.noReport)
        errorReportDir = { dir: resolve(loose.reportDir ?? DEFAULTS.reportDir), force: loose.force, ifExists: true };
      die(`${e.message} (see --help)`);
    }
    throw e;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (opts.version) {
    const { name, version, commit } = suiteInfo();
    const { specVersion } = (await import('../core/document/catalogue.ts')).catalogue();
    process.stdout.write(`${name} ${version}${commit ? ` (${commit})` : ''}, service document ${specVersion}\n`);
    return 0;
  }

  const started = performance.now();
  const runDir = mkdtempSync(join(tmpdir(), 'conformance-run-'));
  try {
    const settings = settingsOf(opts, runDir);
    if (opts.dryRun) return await (await import('./run-command.ts')).dryRun(opts, settings);
    errorReportDir = {
      dir: settings.reportDir,
      force: settings.force,
      outside: settings.reportDirOutside === true,
      ifExists: false,
    };

    const socketPath = engineSocketPath();
    const playwright = startPlaywright(settings, opts, socketPath);
    // Stopped before the engine starts (target, loading, preflight): nothing was judged, Playwright goes with it.
    let stopping = false;
    const offEarly = onStop((signal, why) => {
      // Once: a second Ctrl-C while the report directory is cleared must not cut that short.
      if (stopping) return;
      stopping = true;
      playwright.kill('SIGKILL');
      const reason = `${why} before the first check: nothing judged`;
      process.stderr.write(
        `conformance: ${reason} (the previous report in ${terminalSafe(settings.reportDir)} was replaced by this error)\n`,
      );
      const code = EXIT_OF_SIGNAL[signal];
      const exit = () => {
        rmSync(dirname(socketPath), { recursive: true, force: true });
        if (process.env['CONFORMANCE_KEEP_RUN_DIR'] !== '1') rmSync(runDir, { recursive: true, force: true });
        process.exit(code);
      };
      // No earlier run's report may stay to read better than the truth: it is replaced by the error
      // (a directory the suite may not write into is left alone).
      errorReportDir = undefined;
      import('../reports/error-report.ts')
        .then(({ replaceWithErrorReport }) =>
          replaceWithErrorReport(settings.reportDir, reason, code, {
            force: settings.force,
            outside: settings.reportDirOutside === true,
          }),
        )
        .then(exit, exit);
    });
    // False when a signal came first: its handler is clearing the report and will exit; the engine must not begin.
    const engineStarts = (): boolean => {
      offEarly();
      return !stopping;
    };
    let runCommand: typeof import('./run-command.ts').runCommand;
    try {
      ({ runCommand } = await import('./run-command.ts'));
    } catch (e) {
      engineStarts();
      await endRunner(playwright);
      rmSync(dirname(socketPath), { recursive: true, force: true });
      throw e;
    }
    return await runCommand({ opts, settings, playwright, socketPath, started, engineStarts });
  } finally {
    // CONFORMANCE_KEEP_RUN_DIR=1 keeps the request log and Playwright's output (for audits: test/safety.test.ts).
    if (process.env['CONFORMANCE_KEEP_RUN_DIR'] !== '1') rmSync(runDir, { recursive: true, force: true });
  }
}

/**
 * Starts Playwright's runner on the repository's configuration: the run's settings travel as one JSON
 * value (without --header's values: runnerEnvOf) and the engine's socket in the environment; the
 * reporters print, the command judges.
 */
function startPlaywright(settings: RunSettings, opts: CliOptions, socketPath: string): ChildProcess {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const reporters = [suiteModule('cli/playwright/host-reporter'), suiteModule('cli/playwright/console-reporter')];
  if (opts.shard) reporters.push('blob');
  const args = [cli, 'test', '-c', suiteModule('playwright.config'), `--reporter=${reporters.join(',')}`];
  if (opts.grep) args.push('--grep', opts.grep);
  if (opts.shard) args.push('--shard', opts.shard);
  // Node 20 reads the certificates NODE_EXTRA_CA_CERTS names at every start, whether or not the
  // process makes a TLS connection: for a system bundle, a start costs several times the CPU it does
  // without them. Playwright's runner and worker make none in a command
  // run (the engine and its client are in this process; they talk to it over a local socket), so they
  // start without it.
  const { NODE_EXTRA_CA_CERTS: _extraCaCerts, ...inherited } = process.env;
  return spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...inherited,
      [RUN_ENV]: runnerEnvOf(settings, opts.shard !== undefined),
      [ENGINE_SOCKET_ENV]: socketPath,
      ...(opts.shard
        ? {
            PLAYWRIGHT_BLOB_OUTPUT_DIR: join(settings.reportDir, 'blob'),
            PLAYWRIGHT_BLOB_OUTPUT_NAME: `report-${opts.shard.replace('/', '-of-')}.zip`,
          }
        : {}),
      FORCE_COLOR: '0',
      // The compiled package's modules are JavaScript: Playwright's module loader, which transforms
      // TypeScript test files through a hook thread, has nothing to do for them and costs CPU across
      // the runner and its worker. PW_DISABLE_TS_ESM is Playwright's switch for it.
      ...(MODULE_EXT === '.js' ? { PW_DISABLE_TS_ESM: '1' } : {}),
      // The runner and its workers end themselves if this process is killed (cli/stop-signals.ts), and
      // on Node 20 read their compiled Playwright from a cache (cli/cjs-compile-cache.ts).
      NODE_OPTIONS: [watchParentNodeOptions(process.env['NODE_OPTIONS']), cjsCompileCacheNodeOptions()]
        .filter(Boolean)
        .join(' '),
    },
  });
}

main().then(
  (code) => process.exit(code),
  async (e: unknown) => {
    const message = e instanceof Fatal ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`conformance: ${terminalSafe(message)}\n`);
    const at = errorReportDir;
    if (at && (!at.ifExists || existsSync(join(at.dir, REPORT_MARKER)))) {
      try {
        (await import('../reports/error-report.ts')).replaceWithErrorReport(at.dir, terminalSafe(message), 2, {
          force: at.force,
          outside: at.outside === true,
          ...(e instanceof Fatal && e.evidence !== undefined ? { evidence: e.evidence } : {}),
        });
      } catch {
        // The error's line above is what the run says; a report directory that cannot take it stays as it is.
      }
    }
    process.exit(2);
  },
);
