import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { Target } from '../core/target/target.ts';
import { EXIT_CODE } from '../reports/format.ts';
import type { Har } from '../reports/har.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ROOT, runCli, runEngineAgainst, runScript, type CliRun } from './support/harness.ts';

// The gate tells the truth (rule "No green without evidence"): causes named as causes within seconds, no stale green,
// partial runs said so, and Playwright's own output truthful without a worker per failure.
test.describe.configure({ mode: 'parallel' });

async function withReference(
  edit: (yaml: string) => string,
  env: (e: Record<string, string>) => Record<string, string>,
  fn: (file: string, env: Record<string, string>) => Promise<void>,
  faults: string[] = [],
): Promise<void> {
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
  await withReference(
    (y) => y,
    (e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, `${v}-rotated`])),
    async (file, env) => {
      const run = await runCli(['--target', file], { env, timeoutMs: 60_000 });
      expect(run.code).toBe(2);
      expect(oneLine(run.stderr)).toEqual([
        expect.stringMatching(
          /^conformance: apiKey \(from \$CONFORMANCE_REFERENCE_API_KEY\) was rejected by every operation \(401, 401, 401\): check the key, not the server$/,
        ),
      ]);
      expect(run.report).toBeUndefined();
      // What refused the run is evidence too: the preflight's three exchanges, masked, and judged
      // again offline they end the same way.
      const harFile = join(run.reportDir, 'evidence.har');
      const harText = readFileSync(harFile, 'utf8');
      for (const key of Object.values(env)) expect(harText).not.toContain(key);
      const entries = (JSON.parse(harText) as Har).log.entries;
      expect(entries.map((e) => e.response.status)).toEqual([401, 401, 401]);
      const judged = await runScript('cli/judge.ts', [harFile], { timeoutMs: 60_000 });
      expect(judged.code, judged.stdout + judged.stderr).toBe(2);
      expect(judged.stderr).toMatch(/was rejected by every operation \(401, 401, 401\): check the key, not the server/);
    },
  );
});

test('a base URL without /v1 is named as the cause: exit 2 at the preflight, no report', async () => {
  await withReference(
    (y) => y.replace(/\/v1"/, '"').replace(/\/v1\n/, '\n'),
    (e) => e,
    async (file, env) => {
      const run = await runCli(['--target', file], { env, timeoutMs: 60_000 });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(oneLine(run.stderr)).toEqual([
        expect.stringMatching(
          /^conformance: no operation found under baseUrl http:\/\/127\.0\.0\.1:\d+ \(404 on every documented path\): does it end with \/v1\?/,
        ),
      ]);
      expect(run.report).toBeUndefined();
    },
  );
});

test('a selection with no check ends with exit 2 in one line and replaces the previous report with its error', async () => {
  const reportDir = mkdtempSync(join(tmpdir(), 'stale-'));
  const first = await runCli(['--grep', 'general.base-url-v1'], { reportDir, timeoutMs: 90_000 });
  expect(first.code, first.stderr).toBe(0);
  expect(first.report?.run.partial).toEqual({ checks: 1, of: first.report!.checks.length });
  expect(first.stdout).toMatch(/verdict: CONFORMANT — partial: 1 of \d+ checks/);
  expect(readFileSync(join(reportDir, 'badge.svg'), 'utf8')).toMatch(/conformant \(partial 1\/\d+\)/);
  const none = await runCli(['--grep', 'no-such-check-anywhere'], { reportDir, timeoutMs: 90_000 });
  expect(none.code).toBe(2);
  expect(none.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^conformance: no check matches --grep "no-such-check-anywhere": nothing ran$/),
  ]);
  // No file of the earlier run stays to read conformant: what is left says this run's error.
  for (const f of ['report.json', 'badge.svg', 'report.html']) expect(existsSync(join(reportDir, f)), f).toBe(false);
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('ERROR');
  expect(junitGate(readFileSync(join(reportDir, 'junit.xml'), 'utf8'))).toEqual({ failures: 0, errors: 1 });
});

/**
 * junit.xml read as a reporter action reads it (dorny/test-reporter, mikepenz/action-junit-report):
 * the <failure> and <error> elements of its test cases, which must agree with the root's counts.
 */
function junitGate(xml: string): { failures: number; errors: number } {
  const failures = (xml.match(/<failure[ >]/g) ?? []).length;
  const errors = (xml.match(/<error[ >]/g) ?? []).length;
  const root = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(xml);
  expect(root, 'the root element counts failures and errors').not.toBeNull();
  expect({ failures: Number(root![1]), errors: Number(root![2]) }).toEqual({ failures, errors });
  return { failures, errors };
}

test('one report directory, runs one after another: junit.xml, report.json, summary.md and the console all say what the exit code says', async () => {
  test.slow();
  const reportDir = mkdtempSync(join(tmpdir(), 'one-verdict-'));
  const verdictOf = (_run: CliRun): string | undefined =>
    existsSync(join(reportDir, 'report.json'))
      ? (JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport).verdict
      : undefined;
  const expectAgreement = (run: CliRun, code: number, verdict: string | undefined) => {
    expect(run.code, run.stderr).toBe(code);
    // A reporter action fails the job exactly when the exit code does.
    const gate = junitGate(readFileSync(join(reportDir, 'junit.xml'), 'utf8'));
    expect(gate.failures + gate.errors > 0, JSON.stringify(gate)).toBe(code !== 0);
    // A script reading report.json: this run's verdict, or none when the run could not be made.
    expect(verdictOf(run)).toBe(verdict);
    const summary = readFileSync(join(reportDir, 'summary.md'), 'utf8').split('\n')[0]!;
    expect(summary).toContain((verdict ?? 'error').toUpperCase());
    if (verdict) expect(run.stdout).toMatch(new RegExp(`^verdict: ${verdict.toUpperCase()}`, 'm'));
    // No FAIL line under a level that does not gate, no FAIL at all when the run is conformant.
    if (code === 0) expect(run.stdout).not.toMatch(/^\s+FAIL\s/m);
    // Each failing requirement said once (FAIL or WARN) under its own level; skips folded by reason.
    const said = [...run.stdout.matchAll(/^ {2}(?:FAIL|WARN) {2}(MUST|SHOULD) (\S+) — /gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(new Set(said).size, said.join('\n')).toBe(said.length);
    const failing = existsSync(join(reportDir, 'report.json'))
      ? (JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport).requirements.filter(
          (r) => r.status === 'fail',
        )
      : [];
    expect(said.sort()).toEqual(failing.map((r) => `${r.level} ${r.id}`).sort());
    const skipReasons = [...run.stdout.matchAll(/^ {2}skip {2}\S+(?: checks)? — (.*?)(?: \([^()]*\))?$/gm)].map(
      (m) => m[1],
    );
    expect(new Set(skipReasons).size, skipReasons.join('\n')).toBe(skipReasons.length);
  };
  const cases: Array<{ name: string; faults: string[]; args: string[]; code: number; verdict: string | undefined }> = [
    { name: 'conformant', faults: [], args: [], code: 0, verdict: 'conformant' },
    { name: 'SHOULD only', faults: ['auth-basic-scheme-accepted'], args: [], code: 0, verdict: 'conformant' },
    { name: 'MUST failing', faults: ['files-created-at-millis'], args: [], code: 1, verdict: 'non-conformant' },
    { name: 'one bad record', faults: ['interns-bad-uuid'], args: [], code: 1, verdict: 'non-conformant' },
    { name: 'INCOMPLETE', faults: [], args: ['--max-requests', '8'], code: 2, verdict: 'incomplete' },
    // After a failing run and an INCOMPLETE one, a conformant run's files say conformant again: what it
    // proves is that nothing of the earlier runs stays, which a run of a few checks shows as a whole run does.
    { name: 'conformant again', faults: [], args: ['--grep', 'files\\.limit'], code: 0, verdict: 'conformant' },
    {
      name: 'exit 2: a misspelt target file',
      faults: [],
      args: ['--target', 'no-such-target.yaml'],
      code: 2,
      verdict: undefined,
    },
    { name: 'conformant once more', faults: [], args: ['--grep', 'files\\.limit'], code: 0, verdict: 'conformant' },
    { name: 'exit 2: a bad --fail-on', faults: [], args: ['--fail-on', 'sometimes'], code: 2, verdict: undefined },
  ];
  for (const c of cases) {
    await test.step(c.name, async () => {
      await withReference(
        (y) => y,
        (e) => e,
        async (file, env) => {
          const run = await runCli(['--seed', '11', '--target', file, ...c.args], {
            env,
            reportDir,
            timeoutMs: 120_000,
          });
          expectAgreement(run, c.code, c.verdict);
          if (c.name === 'one bad record') {
            // One bad record is one FAIL line, under its requirement's level, naming the check that saw it.
            expect(run.stdout.match(/^ {2}FAIL /gm)).toHaveLength(1);
            expect(run.stdout).toMatch(/^ {2}FAIL {2}MUST interns\.intern\.uuid-fields — .*\(check [a-z.-]+\)$/m);
          }
          if (c.name === 'SHOULD only') {
            // The SHOULD failure is said once, as a warning under its own level, never as a FAIL.
            expect(run.stdout).toMatch(/^\s+WARN\s+SHOULD auth\.malformed-401\b/m);
            expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toMatch(
              /<property name="warning" value="SHOULD failed \(not gating/,
            );
          }
        },
        c.faults,
      );
    });
  }
});

test("npx playwright test runs the suite as Playwright users know it: a failing check is failed in Playwright's own report, and costs no new worker", async () => {
  await withReference(
    (y) => y,
    (e) => e,
    async (file, env) => {
      const out = join(mkdtempSync(join(tmpdir(), 'pw-json-')), 'results.json');
      const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
      const reporters = `${join(ROOT, 'cli/playwright/host-reporter.ts')},json`;
      const child = spawn(
        process.execPath,
        // Its own output directory, as direct-gate.test.ts's runs: another run may be clearing the configuration's.
        [
          cli,
          'test',
          '-c',
          join(ROOT, 'playwright.config.ts'),
          '--output',
          join(dirname(out), 'test-output'),
          `--reporter=${reporters}`,
          '--grep',
          '@files',
        ],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            ...env,
            CONFORMANCE_TARGET: file,
            CONFORMANCE_SEED: '5',
            PLAYWRIGHT_JSON_OUTPUT_NAME: out,
            CONFORMANCE_REPORT_DIR: join(dirname(out), 'report'),
            CONFORMANCE_RUN: '',
            FORCE_COLOR: '0',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((r) => {
        const t = setTimeout(() => child.kill('SIGKILL'), 120_000);
        child.on('exit', (c) => (clearTimeout(t), r(c)));
      });
      expect(code, stderr).toBe(1);
      const json = JSON.parse(readFileSync(out, 'utf8')) as { suites: unknown[] };
      const results: Array<{ title: string; status: string; workerIndex: number }> = [];
      const walk = (s: {
        specs?: Array<{ title: string; tests: Array<{ results: Array<{ status: string; workerIndex: number }> }> }>;
        suites?: unknown[];
      }) => {
        for (const spec of s.specs ?? [])
          for (const t of spec.tests)
            for (const r of t.results)
              results.push({ title: spec.title, status: r.status, workerIndex: r.workerIndex });
        for (const child of (s.suites ?? []) as Array<typeof s>) walk(child);
      };
      for (const s of json.suites as Array<Parameters<typeof walk>[0]>) walk(s);
      const failed = results.filter((r) => r.status === 'failed').map((r) => r.title);
      expect(failed).toContain('files.after.strictly-after');
      expect(new Set(results.map((r) => r.workerIndex))).toEqual(new Set([0]));
    },
    ['files-after-inclusive'],
  );
});

test('--require-all: any MUST not judged makes the verdict INCOMPLETE, whatever the reason (an absent target field, nothing to judge, a check not selected)', async () => {
  test.setTimeout(180_000);
  const models = (id: string) => id.startsWith('models.') || id.startsWith('auth.');
  // Without --require-all each of these is CONFORMANT, its MUST not judged counted in the verdict line.
  const absentField = (t: Target) => void delete t.restrictedApiKey;
  const nothingListed = (t: Target) => void (t.containerFiles.containerId = 'cntr_typo');
  for (const [what, more, reason] of [
    [
      'restrictedApiKey absent',
      { select: models, editTarget: absentField },
      /^\d+ MUST requirement\(s\) not judged \(--require-all\): restrictedApiKey absent; \d+ for other reasons, first \S+: its checks were not selected in this run$/,
    ],
    [
      'a main container that lists no file (the engine alone: no preflight)',
      { editTarget: nothingListed },
      /^\d+ MUST requirement\(s\) not judged \(--require-all\): \d+ for other reasons, first files\.\S+: /,
    ],
  ] as const) {
    const plain = await runEngineAgainst({}, { ...more, settings: { seed: 1 } });
    expect(plain.verdict, what).toBe('conformant');
    expect(plain.counts.MUST.skip + plain.counts.MUST.disabled, what).toBeGreaterThan(0);
    const all = await runEngineAgainst({}, { ...more, settings: { seed: 1, requireAll: true } });
    expect(all.verdict, what).toBe('incomplete');
    expect(EXIT_CODE[all.verdict]).toBe(2);
    expect(all.run.incomplete, what).toMatch(reason);
  }
  // Every MUST judged: --require-all changes nothing.
  expect((await runEngineAgainst({}, { settings: { seed: 1, requireAll: true } })).verdict).toBe('conformant');
});
