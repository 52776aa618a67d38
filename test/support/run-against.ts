import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReferenceOptions } from '../../reference/options.ts';
import { startReference } from '../../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../../reference/target-file.ts';
import { runCli, type CliRun } from './harness.ts';

/**
 * Starts the reference with the given options (a fault, a conformant variant), describes it in a
 * target file as a user would, and runs the real CLI against it.
 */
export async function runSuiteAgainst(
  options: Partial<ReferenceOptions>,
  args: string[] = [],
  timeoutMs = 120_000,
): Promise<CliRun> {
  const server = await startReference(options);
  const dir = mkdtempSync(join(tmpdir(), 'variant-'));
  const targetFile = join(dir, 'target.yaml');
  writeFileSync(targetFile, referenceTargetYaml(server));
  try {
    return await runCli(['--target', targetFile, '--seed', '1234', ...args], {
      env: referenceKeyEnv(server),
      timeoutMs,
    });
  } finally {
    await server.close();
  }
}
