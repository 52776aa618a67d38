/**
 * The independent server of the bench (bench/independent/server.ts: written from the service document
 * apart from the reference, with choices of its own where the document is open: UTF-8 byte order,
 * unpadded ids, a scan bound of 50, intern pages of 20 by default, 403 for a workspace mismatch, ...)
 * is judged CONFORMANT on five seeds: rule "Verdicts in both directions" measured on an implementation the suite was not
 * written against. Its target file names no restricted key and no regional host (the server tells a
 * regional host by its name, which loopback cannot give): those two MUSTs are not judged, and say so.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startIndependent, type IndependentServer } from '../bench/independent/start.ts';
import { runConformance } from '../cli/api.ts';

let server: IndependentServer;
let file: string;

test.beforeAll(async () => {
  server = await startIndependent();
  file = join(mkdtempSync(join(tmpdir(), 'independent-')), 'target.yaml');
  writeFileSync(file, server.yaml);
});

test.afterAll(async () => {
  await server?.close();
});

test('the independent server is judged conformant on seeds 1 to 5, every MUST judged but those of the restricted key, the regional host and a forbidden model', async () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const report = await runConformance({ target: file, seed, env: { ...process.env, ...server.env } });
    const must = report.requirements.filter((r) => r.level === 'MUST');
    expect(
      must
        .filter((r) => r.status === 'fail' || r.status === 'error')
        .map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`),
      `seed ${seed}`,
    ).toEqual([]);
    expect(report.verdict, `seed ${seed}`).toBe('conformant');
    // What was not judged is what the target file does not name.
    expect(
      must
        .filter((r) => r.status === 'skip')
        .map((r) => r.id)
        .sort(),
      `seed ${seed}`,
    ).toEqual(['auth.restricted-403', 'interns.regional-host-refused', 'models.forbidden-model-error']);
    expect(must.filter((r) => r.status === 'pass').length).toBeGreaterThan(60);
  }
});
