import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { ROOT, runCli } from './support/harness.ts';

// The gate tells the truth (principle 3): causes named as causes within seconds, no stale green,
// partial runs said so, and Playwright's own output truthful without a worker per failure.
test.describe.configure({ mode: 'parallel' });

async function withReference(edit: (yaml: string) => string, env: (e: Record<string, string>) => Record<string, string>, fn: (file: string, env: Record<string, string>) => Promise<void>, faults: string[] = []): Promise<void> {
  const server = await startReference({ faults });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'gate-')), 'target.yaml');
    writeFileSync(file, edit(referenceTargetYaml(server)));
    await fn(file, env(referenceKeyEnv(server)));
  } finally {
    await server.close();
  }
}

const oneLine = (stderr: string) => stderr.trim().split('\n');

test('a key every operation rejects is named as the cause: exit 2 at the preflight, no report', async () => {
  await withReference((y) => y, (e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, `${v}-rotated`])), async (file, env) => {
    const run = await runCli(['--target', file], { env, timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([expect.stringMatching(/^conformance: apiKey \(from \$CONFORMANCE_REFERENCE_API_KEY\) was rejected by every operation \(401, 401, 401\): check the key, not the server$/)]);
    expect(run.report).toBeUndefined();
  });
});

test('a base URL without /v1 is named as the cause: exit 2 at the preflight, no report', async () => {
  await withReference((y) => y.replace(/\/v1"/, '"').replace(/\/v1\n/, '\n'), (e) => e, async (file, env) => {
    const run = await runCli(['--target', file], { env, timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(oneLine(run.stderr)).toEqual([expect.stringMatching(/^conformance: no operation found under baseUrl http:\/\/127\.0\.0\.1:\d+ \(404 on every documented path\): does it end with \/v1\?/)]);
    expect(run.report).toBeUndefined();
  });
});

test('a selection with no check ends with exit 2 in one line and leaves the previous report as it was (it says which run it is)', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'stale-'));
  const first = await runCli(['--grep', 'general.base-url-v1'], { reportDir, timeoutMs: 90_000 });
  expect(first.code, first.stderr).toBe(0);
  expect(first.report?.run.partial).toEqual({ checks: 1, of: first.report!.checks.length });
  expect(first.stdout).toMatch(/verdict: CONFORMANT — partial: 1 of \d+ checks/);
  expect(readFileSync(join(reportDir, 'badge.svg'), 'utf8')).toMatch(/conformant \(partial 1\/\d+\)/);
  const none = await runCli(['--grep', 'no-such-check-anywhere'], { reportDir, timeoutMs: 90_000 });
  expect(none.code).toBe(2);
  expect(none.stderr.trim().split('\n')).toEqual([expect.stringMatching(/nothing ran, and the previous report in .* is left as it was$/)]);
  // The previous run's report stays whole: its own seed and its own partial scope, never this run's.
  for (const f of ['report.json', 'summary.md', 'badge.svg', 'report.html', 'junit.xml']) expect(existsSync(join(reportDir, f)), f).toBe(true);
  expect(readFileSync(join(reportDir, 'badge.svg'), 'utf8')).toMatch(/conformant \(partial 1\/\d+\)/);
});

test('npx playwright test runs the suite as Playwright users know it: a failing check is failed in Playwright\'s own report, and costs no new worker', async () => {
  await withReference((y) => y, (e) => e, async (file, env) => {
    const out = join(mkdtempSync(join(tmpdir(), 'pw-json-')), 'results.json');
    const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
    const reporters = `${join(ROOT, 'cli/playwright/host-reporter.ts')},json`;
    const child = spawn(process.execPath, [cli, 'test', '-c', join(ROOT, 'playwright.config.ts'), `--reporter=${reporters}`, '--grep', '@files'], {
      cwd: ROOT,
      env: { ...process.env, ...env, CONFORMANCE_TARGET: file, CONFORMANCE_SEED: '5', PLAYWRIGHT_JSON_OUTPUT_NAME: out, CONFORMANCE_REPORT_DIR: join(dirname(out), 'report'), CONFORMANCE_RUN: '', FORCE_COLOR: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => {
      const t = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('exit', (c) => (clearTimeout(t), r(c)));
    });
    expect(code, stderr).toBe(1);
    const json = JSON.parse(readFileSync(out, 'utf8')) as { suites: unknown[] };
    const results: Array<{ title: string; status: string; workerIndex: number }> = [];
    const walk = (s: { specs?: Array<{ title: string; tests: Array<{ results: Array<{ status: string; workerIndex: number }> }> }>; suites?: unknown[] }) => {
      for (const spec of s.specs ?? []) for (const t of spec.tests) for (const r of t.results) results.push({ title: spec.title, status: r.status, workerIndex: r.workerIndex });
      for (const child of (s.suites ?? []) as Array<typeof s>) walk(child);
    };
    for (const s of json.suites as Array<Parameters<typeof walk>[0]>) walk(s);
    const failed = results.filter((r) => r.status === 'failed').map((r) => r.title);
    expect(failed).toContain('files.after.strictly-after');
    expect(new Set(results.map((r) => r.workerIndex))).toEqual(new Set([0]));
  }, ['files-after-inclusive']);
});
