import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { runCli } from './support/harness.ts';

// Issue 20: a careless target file is named as such, not blamed on the server (principle 6).

function targetFile(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'careless-')), 'target.yaml');
  writeFileSync(file, yaml);
  return file;
}

test('path parameters that cannot name anything are refused when the file is read: one line naming the field, exit 2', async () => {
  const server = await startReference();
  try {
    for (const [pattern, replacement, field] of [
      [/^  containerId: .*$/m, '  containerId: ".."', 'containerFiles.containerId'],
      [/^  containerId: .*$/m, '  containerId: "a/b"', 'containerFiles.containerId'],
      [/^  emptyContainerId: .*$/m, '  emptyContainerId: ""', 'containerFiles.emptyContainerId'],
      [/^  model: .*$/m, '  model: "../gpt-4o"', 'modelEndpoints.model'],
    ] as const) {
      const yaml = referenceTargetYaml(server).replace(pattern, replacement);
      expect(yaml, field).toContain(replacement);
      const run = await runCli(['--target', targetFile(yaml)], { env: referenceKeyEnv(server), timeoutMs: 60_000 });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
      expect(lines, replacement).toHaveLength(1);
      expect(lines[0]).toContain(field);
      expect(run.report, 'no report for a run that never started').toBeUndefined();
    }
  } finally {
    await server.close();
  }
});

test('a model the deployment does not serve (a typo in modelEndpoints.model): ERROR, exit 2, the field named, no MUST failed', async () => {
  test.setTimeout(120_000);
  const server = await startReference();
  try {
    const yaml = referenceTargetYaml(server).replace(/^  model: .*$/m, '  model: openai/gpt-4o-typo');
    const run = await runCli(['--target', targetFile(yaml), '--seed', '1', '--grep', 'models\\.'], { env: referenceKeyEnv(server) });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.report?.verdict).toBe('error');
    expect(run.stdout).toContain('modelEndpoints.model "openai/gpt-4o-typo" was answered 404');
    expect(run.report!.requirements.filter((r) => r.status === 'fail' && r.level === 'MUST').map((r) => r.id)).toEqual([]);
  } finally {
    await server.close();
  }
});
