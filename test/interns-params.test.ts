import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { runCli, runEngineAgainst } from './support/harness.ts';

// 4.3 "Names of these three query parameters: not shown": the target file names them. A server that
// ignores unknown parameters answers a wrongly named page size and status filter as if they were not
// there; the suite must say so plainly (exit 2 at the preflight, naming the target file's fields)
// rather than fail the MUST requirements the server may well meet. Where no preflight ran (the engine
// alone), the checks that send a parameter end as ERROR with the hint (suites/support/interns-query.ts).

const SERVER_NAMES = { limit: 'page_size', status: 'statuses', workspace: 'workspace' };

test('a target file whose interns parameter names the server does not know: exit 2 at the preflight naming both fields, no report, no failure', async () => {
  test.setTimeout(120_000);
  const server = await startReference({ internsParams: SERVER_NAMES });
  const dir = mkdtempSync(join(tmpdir(), 'interns-params-'));
  const targetFile = join(dir, 'target.yaml');
  // The reference's own target file, but naming the parameters as the default reference does.
  const yaml = referenceTargetYaml(server).replace(
    /^ {2}params: .*$/m,
    '  params: { limit: "limit", status: "status", workspace: "workspace_id" }',
  );
  expect(yaml).toContain('limit: "limit"');
  writeFileSync(targetFile, yaml);
  try {
    const run = await runCli(['--target', targetFile, '--seed', '1', '--grep', 'interns'], {
      env: referenceKeyEnv(server),
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.report).toBeUndefined();
    expect(run.stderr).toMatch(
      /^conformance: interns\.params\.limit "limit" seems unknown to the target: .*\); interns\.params\.status "status" seems unknown to the target: .*\)\. Check the target file$/m,
    );
  } finally {
    await server.close();
  }
});

test('where no preflight ran (the engine alone): the checks that send a parameter are ERROR with the hint, no failure', async () => {
  const report = await runEngineAgainst(
    { internsParams: SERVER_NAMES },
    {
      select: (id) => id.startsWith('interns.'),
      editTarget: (t) => {
        t.interns.params = { limit: 'limit', status: 'status', workspace: 'workspace_id' };
      },
    },
  );
  const rows = report.requirements;
  expect(rows.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  expect(rows.find((r) => r.id === 'interns.status.filter')?.status).toBe('error');
  expect(rows.find((r) => r.id === 'interns.limit.respected')?.reason).toContain(
    'are interns.params.limit/status right?',
  );
  expect(rows.find((r) => r.id === 'interns.intern.uuid-fields')?.status).toBe('pass');
});

// The verdict only (the exit code and the console of an ERROR run are the test above's): in-process.
test('the same server with the right names in the target file: conformant', async () => {
  test.setTimeout(120_000);
  const server = await startReference({ internsParams: SERVER_NAMES });
  const dir = mkdtempSync(join(tmpdir(), 'interns-params-'));
  const targetFile = join(dir, 'target.yaml');
  writeFileSync(targetFile, referenceTargetYaml(server));
  try {
    const report = await runConformance({ target: targetFile, seed: 1, grep: 'interns', env: referenceKeyEnv(server) });
    expect(
      report.requirements.filter((r) => r.status === 'error' || r.status === 'fail').map((r) => `${r.id}: ${r.reason}`),
    ).toEqual([]);
    expect(report.verdict).toBe('conformant');
  } finally {
    await server.close();
  }
});
