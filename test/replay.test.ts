import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { runCli } from './support/harness.ts';

// Principle 3: every printed replay reproduces as printed. A run against a faulty reference prints,
// with each failing property, the command that replays its counterexample alone; pasted as printed
// (its target, seed and options, a --grep that selects that one check, the fast-check path), it
// fails the same requirement with the same counterexample.

/** The words of a POSIX shell command line as printed (bare words and single-quoted ones). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : m[2]!);
  return words;
}

test('each replay printed for a failing property, pasted as printed, fails the same requirement with the same counterexample', async () => {
  test.slow();
  const server = await startReference({ faults: ['files-after-inclusive'] });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'replay-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const env = referenceKeyEnv(server);
    const run = await runCli(['--target', file, '--seed', '7'], { env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(1);
    const summary = readFileSync(join(run.reportDir, 'summary.md'), 'utf8');
    const properties = run.report!.checks.filter((c) => c.kind === 'property' && c.status === 'fail');
    expect(properties.length).toBeGreaterThan(0);
    const printedAll: string[] = [];
    for (const check of properties) {
      const failure = check.failures.find((f) => f.counterexample)!;
      const printed = /replay: (npm run conformance -- .*)\)$/.exec(failure.message)?.[1];
      expect(printed, failure.message).toBeDefined();
      // The console prints the same command (summary.md details the first failures of a requirement).
      expect(run.stdout).toContain(printed!);
      printedAll.push(printed!);
      const words = shellWords(printed!);
      expect(words.slice(0, 3)).toEqual(['npm', 'run', 'conformance']);
      expect(words).toContain('--target');
      const replay = await runCli(words.slice(4), { env, timeoutMs: 120_000 });
      expect(replay.code, replay.stdout + replay.stderr).toBe(1);
      expect(replay.report!.run.partial?.checks, 'the --grep selects exactly the failing check').toBe(1);
      const again = replay.report!.checks.find((c) => c.checkId === check.checkId)!;
      expect(again.status).toBe('fail');
      expect(again.failures.map((f) => f.requirementId)).toContain(failure.requirementId);
      expect(again.failures.find((f) => f.counterexample)?.counterexample?.value).toEqual(failure.counterexample!.value);
    }
    expect(printedAll.some((p) => summary.includes(p)), 'summary.md prints the replays as the console does').toBe(true);
  } finally {
    await server.close();
  }
});
