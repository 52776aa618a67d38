import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../index.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ConformanceReport } from '../reports/model.ts';

// "Judge every response": the checks and judges read what the target sent; the mask rewrites only what
// is written for a person. A management key that is also a word of every body (`data`, the name of
// the list member of 4.1 and 4.3) must change no verdict and no requirement's status: the reference
// takes the key it is given, the run reads it from the target file's ${VAR} as a user's run does, and
// the statuses compared are those of report.json as the run wrote it, through the mask. The run is
// the command's own engine, preflight and report writer in this process (runConformance); what the
// console shows of a key that is a word is test/safety.test.ts's (a weak key, through the command).

const RANDOM_KEY = `ref_mgmt_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

/** A run of the reference holding `management` as its key, and the report.json it wrote. */
async function runWithKey(management: string): Promise<ConformanceReport> {
  const server = await startReference({ keys: { management, restricted: 'ref_user_7d1c4b9e2a' } });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'word-key-'));
    const target = join(dir, 'target.yaml');
    writeFileSync(target, referenceTargetYaml(server));
    const reportDir = join(dir, 'report');
    await runConformance({ target, env: referenceKeyEnv(server), seed: 1234, reportDir });
    return JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport;
  } finally {
    await server.close();
  }
}

test('a management key equal to `data`: the same verdict and statuses in report.json as a random key', async () => {
  // A key the reference did not take would end the run at the preflight (rejected by every operation).
  const [word, random] = await Promise.all([runWithKey('data'), runWithKey(RANDOM_KEY)]);
  expect(random.verdict).toBe('conformant');
  expect(word.verdict).toBe(random.verdict);
  // By position: the requirement ids are the suite's own words (the report's mask must leave them, a
  // rule of core/text/mask.ts); here the statuses are what is compared.
  const statuses = (report: ConformanceReport) => report.requirements.map((r) => r.status);
  expect(statuses(word)).toEqual(statuses(random));
  expect(word.checks.map((c) => c.status)).toEqual(random.checks.map((c) => c.status));
});
