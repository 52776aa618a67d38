import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ROOT, runCli, spawned, type Spawned } from './support/harness.ts';

/** A printed command pasted as printed into a shell (bash -c, in the clone where it was printed), keys in the environment. */
function pasted(line: string, env: Record<string, string>, timeoutMs = 150_000): Promise<Spawned> {
  return spawned('bash', ['-c', line], { cwd: ROOT, env: { ...process.env, ...env, FORCE_COLOR: '0' }, timeoutMs });
}

function readReport(dir: string): ConformanceReport | undefined {
  const file = join(dir, 'report.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
}

/** The value of a word option of a printed command. */
function optionOf(line: string, name: string): string | undefined {
  const words = shellWords(line);
  const at = words.lastIndexOf(`--${name}`);
  return at >= 0 ? words[at + 1] : undefined;
}

// Rule "No green without evidence": every printed replay reproduces as printed. A run against a faulty reference prints,
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
      // Pasted as printed: its report goes where it says (beside the run's, never over it).
      const replayDir = optionOf(printed!, 'report-dir')!;
      expect(replayDir).toBe(`${run.reportDir}-replay`);
      const replay = await pasted(printed!, env);
      expect(replay.code, replay.stdout + replay.stderr).toBe(1);
      const replayed = readReport(replayDir)!;
      expect(replayed.run.partial?.checks, 'the --grep selects exactly the failing check').toBe(1);
      const again = replayed.checks.find((c) => c.checkId === check.checkId)!;
      expect(again.status).toBe('fail');
      expect(again.failures.map((f) => f.requirementId)).toContain(failure.requirementId);
      expect(again.failures.find((f) => f.counterexample)?.counterexample?.value).toEqual(
        failure.counterexample!.value,
      );
      // The run's own report is still the run's.
      expect(readReport(run.reportDir)!.run.seed).toBe(7);
    }
    expect(
      printedAll.some((p) => summary.includes(p)),
      'summary.md prints the replays as the console does',
    ).toBe(true);
  } finally {
    await server.close();
  }
});

test("the run's replay carries every option that shapes what is sent or judged, writes beside the run, and reproduces it; each curl runs as printed with the target file's own key variables", async () => {
  test.slow();
  const server = await startReference({ faults: ['files-created-at-millis', 'auth-basic-scheme-accepted'] });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'replay-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const env = referenceKeyEnv(server);
    const options = [
      '--max-rps',
      '200',
      '--max-requests',
      '1500',
      '--timeout',
      '8000',
      '--num-runs',
      '4',
      '--deadline',
      '300',
      '--retry-budget',
      '30',
      '--fail-on',
      'should',
      '--require-all',
      '--transport',
      'node',
      '--grep',
      '@files|@auth',
    ];
    const run = await runCli(['--target', file, '--seed', '4242', ...options], { env, timeoutMs: 150_000 });
    expect(run.code, run.stderr).toBe(1);
    const printed = run.report!.run.replay;
    // Every option given is in the replay, with its value, the selection last.
    for (let i = 0; i < options.length; i++) {
      if (!options[i]!.startsWith('--')) continue;
      const value = options[i + 1]?.startsWith('--') || i + 1 === options.length ? undefined : options[i + 1];
      if (value === undefined) expect(shellWords(printed), options[i]).toContain(options[i]);
      else expect(optionOf(printed, options[i]!.slice(2)), options[i]).toBe(value);
    }
    expect(printed).toMatch(/--grep '@files\|@auth'$/);
    expect(readFileSync(join(run.reportDir, 'summary.md'), 'utf8')).toContain(printed);

    const replay = await pasted(printed, env);
    expect(replay.code, replay.stdout + replay.stderr).toBe(1);
    const replayed = readReport(`${run.reportDir}-replay`)!;
    // The same run: seed, selection, settings and every requirement's status.
    expect(replayed.run.seed).toBe(4242);
    expect({
      failOn: replayed.run.failOn,
      numRuns: replayed.run.numRuns,
      maxRequests: replayed.run.maxRequests,
      requireAll: replayed.run.requireAll,
      partial: replayed.run.partial,
    }).toEqual({
      failOn: 'should',
      numRuns: 4,
      maxRequests: 1500,
      requireAll: true,
      partial: run.report!.run.partial,
    });
    expect(replayed.requirements.map((r) => [r.id, r.status])).toEqual(
      run.report!.requirements.map((r) => [r.id, r.status]),
    );
    // Its own replay is the run's, one directory further: nothing was dropped on the way.
    expect(replayed.run.replay).toBe(
      printed.replace(`--report-dir ${run.reportDir}-replay`, `--report-dir ${run.reportDir}-replay-replay`),
    );
    // The run's report was not overwritten.
    expect(readReport(run.reportDir)!.run.startedAt).toBe(run.report!.run.startedAt);

    // Each curl, pasted as printed with only the target file's variables set, gets the answer recorded.
    const curls = run
      .report!.requirements.flatMap((r) => r.failures ?? [])
      .filter((f) => f.curl)
      .slice(0, 3);
    expect(curls.length).toBeGreaterThan(0);
    for (const f of curls) {
      expect(f.curl).toContain('$CONFORMANCE_REFERENCE_API_KEY');
      expect(f.curl).not.toContain('$API_KEY');
      const got = await pasted(f.curl!, env, 20_000);
      expect(got.code, got.stderr).toBe(0);
      const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(got.stdout)?.[1]);
      expect(status, f.curl).toBe(f.exchanges[f.exchanges.length - 1]!.response!.status);
    }
  } finally {
    await server.close();
  }
});
