import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { catalogue } from '../core/catalogue.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv } from '../reference/target-file.ts';
import { ROOT, runCli } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

test('with no target the suite runs against the embedded reference, finds it conformant and writes report.json', async () => {
  const run = await runCli([]);
  expect(run.stderr).toBe('');
  expect(run.stdout).toMatch(/^seed: \d+$/m);
  expect(run.stdout).toContain('verdict: CONFORMANT');
  expect(run.code).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
  expect(run.report?.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  // Every requirement of the catalogue has a row, and on the embedded reference (every optional target
  // field set, every check selected) its status is exact: each MUST and SHOULD passes, each observable
  // "not shown" point is observed, and only the points no read operation can reveal are skipped.
  // Nothing is disabled or skipped for another reason: that would be a check that did not run.
  const expected = catalogue().requirements.map((r) => ({
    id: r.id,
    status: r.level !== 'UNSPECIFIED' ? 'pass' : r.observable === false ? 'skip' : 'observed',
  }));
  expect(run.report?.requirements.map((r) => ({ id: r.id, status: r.status }))).toEqual(expected);
  for (const r of run.report?.requirements.filter((x) => x.status === 'skip') ?? []) expect(r.reason, r.id).toBe('not observable through the three read operations');
});

test('a hand-written target file describing the reference started by hand gives the same verdict', async () => {
  const server = await startReference();
  try {
    const port = new URL(server.baseUrl).port;
    const dir = mkdtempSync(join(tmpdir(), 'hand-written-'));
    const file = join(dir, 'target.yaml');
    const regionalPort = new URL(server.regionalBaseUrl).port;
    writeFileSync(file, readFileSync(join(ROOT, 'examples/reference.target.yaml'), 'utf8').replace('127.0.0.1:8080', `127.0.0.1:${port}`).replace('127.0.0.1:8081', `127.0.0.1:${regionalPort}`));
    const run = await runCli(['--target', file], { env: referenceKeyEnv(server) });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.report?.verdict).toBe('conformant');
    expect(server.received.length).toBeGreaterThan(5);
    // The example names the regional host, so 4.3's refusal there is judged, not skipped.
    expect(run.report?.requirements.find((r) => r.id === 'interns.regional-host-refused')?.status).toBe('pass');
  } finally {
    await server.close();
  }
});
