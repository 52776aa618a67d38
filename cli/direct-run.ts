import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTarget, parseTarget } from '../core/target.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { parseCli } from './args.ts';
import { suiteInfo, settingsOf, type PreparedRun } from './prepare-run.ts';
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
  const seed = seedText && /^\d+$/.test(seedText) ? Number(seedText) >>> 0 : (Math.random() * 0x100000000) >>> 0;
  const settings = settingsOf(opts, mkdtempSync(join(tmpdir(), 'conformance-run-')), seed);
  prepareReportDir(settings.reportDir, { force: settings.force });
  if (file) return { run: { settings, target: loadTarget(file, settings), suite: suiteInfo(), embedded: false } };
  const server = await startReference();
  const target = parseTarget(referenceTargetYaml(server), 'embedded reference', { env: referenceKeyEnv(server) });
  return { run: { settings, target, suite: suiteInfo(), embedded: true }, stop: () => server.close() };
}
