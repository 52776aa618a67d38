import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
  return () => rmSync(dir, { recursive: true, force: true });
}
