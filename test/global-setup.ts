import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_ENV } from './support/build.ts';
import { ROOT } from './support/harness.ts';

/**
 * npm test builds the sources once, as `npm run build` does (type-checked first by `tsc --noEmit`),
 * into a directory of its own, and the tests that start the command line run that build
 * (test/support/harness.ts runScript): tsx's loader costs CPU at every start, and these tests start
 * the command many times. The tests of what tsx changes (`npm run conformance`
 * with its launcher, the signals it relays) still go through tsx (test/run-stops.test.ts).
 */
export default function globalSetup(): () => void {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache', 'test-build-'));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-dist.ts'), '--root', dir], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  process.env[BUILD_ENV] = dir;
  const tmp = ownTemporaryDirectory();
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  };
}

/**
 * Every temporary file of the tests (their run directories, target files, report directories, and those
 * of every process they start) goes into one directory of this run, removed when it ends: a test run
 * leaves nothing behind in the machine's temporary directory however many runs and megabytes of
 * evidence it wrote. The compilers' caches stay where they were, shared between runs.
 */
function ownTemporaryDirectory(): string {
  const machine = tmpdir();
  process.env['PLAYWRIGHT_TRANSFORM_CACHE_DIR'] ??= join(machine, `playwright-transform-cache-${process.geteuid?.()}`);
  process.env['NODE_COMPILE_CACHE'] ??= join(machine, 'node-compile-cache');
  const tmp = mkdtempSync(join(machine, 'conformance-tests-'));
  // Other users may pass through it but not list it: a test runs the command as an unprivileged user in a
  // directory of its own in here (report-dir-links.test.ts). What each test makes in it is its own (0700).
  chmodSync(tmp, 0o711);
  process.env['TMPDIR'] = tmp;
  return tmp;
}
