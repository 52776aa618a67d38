import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConformanceRunError, runConformance } from '../index.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { compileOwnSchema } from '../spec/schemas.ts';
import reportSchema from '../reports/report.schema.json' with { type: 'json' };

// The programmatic API runs the suite in-process and resolves to the report model of report.json.
test.describe.configure({ mode: 'parallel' });
const validReport = compileOwnSchema(reportSchema);

test('runConformance on the embedded reference resolves to a valid, conformant report, and writes the files when asked', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'api-'));
  const report = await runConformance({ seed: 5, reportDir });
  expect(validReport(report), JSON.stringify(validReport.errors?.slice(0, 3))).toBe(true);
  expect(report.verdict).toBe('conformant');
  expect(report.run.partial).toBeUndefined();
  expect(JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')).verdict).toBe('conformant');
});

test("runConformance on a faulty deployment is non-conformant on the fault's requirement; bad options and a rejected key reject", async () => {
  const server = await startReference({ faults: ['files-after-inclusive'] });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'api-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const env = referenceKeyEnv(server);
    const report = await runConformance({ target: file, env, seed: 5, grep: '^files\\.after\\.' });
    expect(report.verdict).toBe('non-conformant');
    expect(report.requirements.find((r) => r.id === 'files.after.strictly-after')?.status).toBe('fail');
    // grep reads the tags as --grep does: @models selects the model-endpoint checks, and only them.
    const models = await runConformance({ target: file, env, seed: 5, grep: '@models' });
    const ran = models.checks.filter((c) => c.reason !== 'not selected in this run');
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.every((c) => c.operation === 'listModelEndpoints')).toBe(true);
    await expect(runConformance({ target: file, env, seed: -1 })).rejects.toThrow(ConformanceRunError);
    const rotated = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, `${v}x`]));
    await expect(runConformance({ target: file, env: rotated })).rejects.toThrow(/was rejected by every operation/);
  } finally {
    await server.close();
  }
});

test("runConformance refused at the preflight leaves, as the command does, its error report and the preflight's evidence.har, masked", async () => {
  const server = await startReference();
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'api-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const rotated = Object.fromEntries(Object.entries(referenceKeyEnv(server)).map(([k, v]) => [k, `${v}x`]));
    const reportDir = join(mkdtempSync(join(tmpdir(), 'api-')), 'report');
    const refused = await runConformance({ target: file, env: rotated, reportDir }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConformanceRunError);
    expect((refused as Error).message).toMatch(/was rejected by every operation \(401, 401, 401\)/);
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toMatch(/was rejected by every operation/);
    const har = readFileSync(join(reportDir, 'evidence.har'), 'utf8');
    for (const key of Object.values(rotated)) expect(har).not.toContain(key);
    const entries = (JSON.parse(har) as { log: { entries: Array<{ response: { status: number } }> } }).log.entries;
    expect(entries.map((e) => e.response.status)).toEqual([401, 401, 401]);
  } finally {
    await server.close();
  }
});
