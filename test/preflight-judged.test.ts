import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import { PREFLIGHT_ID } from '../cli/preflight.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import reportSchema from '../reports/report.schema.json' with { type: 'json' };
import { compileOwnSchema } from '../spec/schemas.ts';

// "Judge every response": the preflight's answers (the run's first request to each operation) go
// through the same response judges as every check's, whatever the selection, seed or concurrency.
test.describe.configure({ mode: 'parallel' });
const validReport = compileOwnSchema(reportSchema);
const FAULT = 'interns-first-answer-other-workspace';

/** One run of the programmatic API (the preflight, then the engine) against a reference of its own. */
async function runAgainst(
  options: Partial<ReferenceOptions>,
  run: { seed: number; concurrency: number; grep?: string },
) {
  const server = await startReference(options);
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'preflight-judged-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    return await runConformance({ target: file, env: referenceKeyEnv(server), ...run });
  } finally {
    await server.close();
  }
}

test(`a server that breaks 4.3 only on the preflight's request is non-conformant on it, on seeds 1 to 5 at concurrency 1 and 8, whatever the selection`, async () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    for (const concurrency of [1, 8]) {
      // @models: no selected check asks list interns, so only the preflight received the broken answer.
      const report = await runAgainst({ faults: [FAULT] }, { seed, concurrency, grep: '@models' });
      const at = `seed ${seed}, concurrency ${concurrency}`;
      expect(validReport(report), JSON.stringify(validReport.errors?.slice(0, 3))).toBe(true);
      expect(report.verdict, at).toBe('non-conformant');
      const failed = report.requirements.filter((r) => r.status === 'fail');
      expect(
        failed.map((r) => r.id),
        at,
      ).toEqual(['interns.intern.workspace-of-key']);
      expect(failed[0]!.failures?.[0]?.checkId, at).toBe(PREFLIGHT_ID);
      expect(failed[0]!.failures?.[0]?.message, at).toMatch(/is not the key's workspace/);
      expect(
        report.received?.map((r) => [r.checkId, r.status]),
        at,
      ).toEqual([[PREFLIGHT_ID, 'fail']]);
    }
  }
});

test('the whole run catches it too, and the plain reference gives the preflight nothing to fail', async () => {
  const faulty = await runAgainst({ faults: [FAULT] }, { seed: 1, concurrency: 8 });
  expect(faulty.verdict).toBe('non-conformant');
  expect(faulty.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([
    'interns.intern.workspace-of-key',
  ]);
  const plain = await runAgainst({}, { seed: 1, concurrency: 8, grep: '@models' });
  expect(plain.verdict).toBe('conformant');
  // One request per operation, and list interns again with the target file's parameter names
  // (cli/interns-params-preflight.ts: a mistyped name told apart).
  expect(plain.received?.map((r) => [r.checkId, r.status, r.failures.length, r.requests])).toEqual([
    [PREFLIGHT_ID, 'pass', 0, 4],
  ]);
});
