import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import { catalogue } from '../core/document/catalogue.ts';
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
  // On the embedded reference every optional target field is set and every check is selected, so every
  // check runs and passes: none is skipped, disabled or in error.
  expect(
    run.report?.checks.filter((c) => c.status !== 'pass').map((c) => `${c.checkId}: ${c.status} ${c.reason ?? ''}`),
  ).toEqual([]);
  // Every requirement of the catalogue has a row and its status is exact: each MUST and SHOULD passes;
  // a "not shown" point is observed, or skipped only when no read operation can reveal it or when its
  // observation ran and found nothing to show (an observation that looks for something that may not occur).
  const rows = new Map(run.report?.requirements.map((r) => [r.id, r]));
  for (const r of catalogue().requirements) {
    const row = rows.get(r.id);
    if (r.level !== 'UNSPECIFIED') expect(row?.status, r.id).toBe('pass');
    else if (r.observable === false)
      expect([row?.status, row?.reason], r.id).toEqual(['skip', 'not observable through the three read operations']);
    else
      expect(
        row?.status === 'observed' || (row?.status === 'skip' && row.reason === 'nothing observed'),
        `${r.id}: ${row?.status} ${row?.reason ?? ''}`,
      ).toBe(true);
  }
  expect(rows.size).toBe(catalogue().requirements.length);
});

// The example target file is what is tested: read and run in-process (runConformance parses it as the
// command does); the command's own exit and console on a target file are tested with the test above's.
test('a hand-written target file describing the reference started by hand gives the same verdict', async () => {
  const server = await startReference();
  try {
    const port = new URL(server.baseUrl).port;
    const dir = mkdtempSync(join(tmpdir(), 'hand-written-'));
    const file = join(dir, 'target.yaml');
    const regionalPort = new URL(server.regionalBaseUrl).port;
    writeFileSync(
      file,
      readFileSync(join(ROOT, 'examples/reference.target.yaml'), 'utf8')
        .replace('127.0.0.1:8080', `127.0.0.1:${port}`)
        .replace('127.0.0.1:8081', `127.0.0.1:${regionalPort}`),
    );
    const report = await runConformance({ target: file, env: referenceKeyEnv(server) });
    expect(report.verdict).toBe('conformant');
    expect(server.received.length).toBeGreaterThan(5);
    // The example names the regional host, so 4.3's refusal there is judged, not skipped.
    expect(report.requirements.find((r) => r.id === 'interns.regional-host-refused')?.status).toBe('pass');
  } finally {
    await server.close();
  }
});

// cli/conformance.ts: Node reads NODE_EXTRA_CA_CERTS at every process start (a cost for a system
// bundle); Playwright's runner and worker make no TLS connection in a command run, so only the
// command reads it. A file that does not exist makes each process that reads it say so once.
test("NODE_EXTRA_CA_CERTS is read by the command, which makes the run's connections, and not by Playwright's runner and worker", async () => {
  const missing = join(mkdtempSync(join(tmpdir(), 'extra-ca-')), 'no-such-ca.pem');
  const run = await runCli(['--grep', 'files.response.schema'], { env: { NODE_EXTRA_CA_CERTS: missing } });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('verdict: CONFORMANT');
  expect(run.stderr.split(`Ignoring extra certs from \`${missing}\``).length - 1).toBe(1);
});
