import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from './args.ts';
import { suiteInfo, settingsOf, type PreparedRun } from './prepare-run.ts';
import { runTarget } from './run-target.ts';
import { prepareReportDir } from '../reports/write-report.ts';

/**
 * A run prepared for `npx playwright test` started directly: the target file named by
 * CONFORMANCE_TARGET (keys from the environment, as with the command line), else the embedded
 * reference, with the command line's defaults; CONFORMANCE_SEED fixes the seed.
 */
export async function prepareDirectRun(): Promise<{ run: PreparedRun; stop?: () => Promise<void> }> {
  const file = process.env['CONFORMANCE_TARGET'];
  const opts = parseCli(file ? ['--target', file] : []);
  const seedText = process.env['CONFORMANCE_SEED'];
  const settings = settingsOf(opts, mkdtempSync(join(tmpdir(), 'conformance-run-')), seedText && /^\d+$/.test(seedText) ? Number(seedText) >>> 0 : undefined);
  prepareReportDir(settings.reportDir, { force: settings.force });
  const { target, stop } = await runTarget(settings);
  return { run: { settings, target, suite: suiteInfo(), embedded: !file }, ...(stop ? { stop } : {}) };
}
