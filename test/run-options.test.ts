/**
 * Habits users bring from Playwright and Schemathesis: "did you mean" for a misspelt option,
 * --max-failures (-x) that ends a failing run early, --header for a deployment behind a gateway.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConformanceRunError, runConformance } from '../cli/api.ts';
import { parseCli, UsageError } from '../cli/args.ts';
import { replayCommand } from '../cli/prepare-run.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { envDumps } from './support/env-dump.ts';
import { startGateway } from './support/gateway.ts';
import { runCli } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

function usageError(argv: string[]): string {
  try {
    parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(argv)}`);
}

test('an unknown option names the nearest option of the table, one line, exit 2', async () => {
  expect(usageError(['--concurency', '4'])).toBe('unknown option --concurency (did you mean --concurrency?)');
  expect(usageError(['--max-failure=3'])).toBe('unknown option --max-failure (did you mean --max-failures?)');
  expect(usageError(['--dryrun'])).toBe('unknown option --dryrun (did you mean --dry-run?)');
  // Nothing near: no guess.
  expect(usageError(['--no-such-option'])).toBe('unknown option --no-such-option');
  expect(usageError(['-y'])).toBe('unknown option -y');
  const run = await runCli(['--concurency', '4'], { timeoutMs: 30_000 });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.split('\n').filter(Boolean)).toEqual([
    'conformance: unknown option --concurency (did you mean --concurrency?) (see --help)',
  ]);
});

test('a swap of two neighbouring letters is a typo too: --sede names --seed', () => {
  expect(usageError(['--sede', '7'])).toBe('unknown option --sede (did you mean --seed?)');
  expect(usageError(['--taregt', 'x.yaml'])).toBe('unknown option --taregt (did you mean --target?)');
});

test('a word where only options are taken says what it most likely meant: another command, or --target', async () => {
  // In a clone the other commands are npm scripts (cli/suite-files.ts commandLine).
  expect(usageError(['refrence'])).toBe('unexpected argument refrence (did you mean npm run reference?)');
  expect(usageError(['diff', 'a.json', 'b.json'])).toBe(
    'unexpected argument diff (did you mean npm run conformance:diff?)',
  );
  expect(usageError(['deploy/staging.yaml'])).toBe(
    'unexpected argument deploy/staging.yaml (did you mean --target deploy/staging.yaml?)',
  );
  expect(usageError(['--seed', '7', 'now'])).toBe('unexpected argument now: the command takes options only');
  expect(usageError(['\u001b[2J'])).toBe('unexpected argument \\x1b[2J: the command takes options only');
  const run = await runCli(['my-deployment.yml'], { timeoutMs: 30_000 });
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n').filter(Boolean)).toEqual([
    'conformance: unexpected argument my-deployment.yml (did you mean --target my-deployment.yml?) (see --help)',
  ]);
});

test('--max-failures N and -x parse, and the replay carries them', () => {
  expect(parseCli(['-x']).maxFailures).toBe(1);
  expect(parseCli(['--max-failures', '3']).maxFailures).toBe(3);
  expect(parseCli([]).maxFailures).toBeUndefined();
  expect(replayCommand(parseCli(['-x']), 1)).toContain(' --max-failures 1 ');
});

/** A reference whose faults break several MUST requirements, described by a target file. */
async function faultyTarget(): Promise<{ file: string; env: Record<string, string>; close: () => Promise<void> }> {
  const server = await startReference({
    faults: ['files-after-inclusive', 'auth-basic-scheme-accepted', 'files-created-at-millis'],
  });
  const file = join(mkdtempSync(join(tmpdir(), 'max-failures-')), 'target.yaml');
  writeFileSync(file, referenceTargetYaml(server));
  return { file, env: referenceKeyEnv(server), close: () => server.close() };
}

test('--max-failures ends a failing run NON-CONFORMANT whatever the seed and concurrency; the rest is not judged, never passed', async () => {
  test.slow();
  const t = await faultyTarget();
  try {
    const full = await runConformance({ target: t.file, env: t.env, seed: 1 });
    const failedInFull = new Set(full.requirements.filter((r) => r.status === 'fail').map((r) => r.id));
    const passedInFull = full.requirements.filter((r) => r.status === 'pass').length;
    expect(failedInFull.size).toBeGreaterThan(1);
    for (const [seed, concurrency] of [
      [1, 1],
      [1, 8],
      [2, 4],
    ] as const) {
      const report = await runConformance({ target: t.file, env: t.env, seed, concurrency, maxFailures: 1 });
      const at = `seed ${seed}, concurrency ${concurrency}`;
      expect(report.verdict, at).toBe('non-conformant');
      const failed = report.requirements.filter((r) => r.status === 'fail');
      expect(failed.length, at).toBeGreaterThanOrEqual(1);
      // What failed is failed: each is a failure of the whole run too.
      for (const r of failed) expect(failedInFull.has(r.id), `${at}: ${r.id}`).toBe(true);
      const stopped = report.requirements.filter((r) => r.cause === 'max-failures');
      expect(stopped.length, at).toBeGreaterThan(0);
      for (const r of stopped) {
        expect(r.status, `${at}: ${r.id}`).toBe('skip');
        expect(r.reason, `${at}: ${r.id}`).toBe('not judged: stopped after 1 failure (--max-failures)');
      }
      // The run ended early: fewer passed than in the whole run, none of the stopped counted.
      const passed = report.requirements.filter((r) => r.status === 'pass').length;
      expect(passed, at).toBeLessThan(passedInFull);
      expect(report.run.incomplete, at).toBeUndefined();
      expect(report.run.replay, at).toContain('--max-failures 1');
    }
  } finally {
    await t.close();
  }
});

test('-x on the command line: exit 1, the console and every report say what was not judged and why', async () => {
  test.slow();
  const t = await faultyTarget();
  try {
    const run = await runCli(['--target', t.file, '--seed', '3', '-x'], { env: t.env, timeoutMs: 150_000 });
    expect(run.code, run.stderr).toBe(1);
    const said = /requirement\\?\(s\\?\) not judged: stopped after 1 failure/;
    expect(run.stdout).toMatch(/^verdict: NON-CONFORMANT — .*requirement\(s\) not judged: stopped after 1 failure/m);
    expect(run.report?.verdict).toBe('non-conformant');
    expect(run.report?.run.replay).toContain('--max-failures 1');
    for (const f of ['summary.md', 'junit.xml', 'report.html'])
      expect(readFileSync(join(run.reportDir, f), 'utf8'), f).toMatch(said);
  } finally {
    await t.close();
  }
});

test("--header is sent on every request (--wait-for's included), read from ${VAR}, masked in the report, and replayed by its variable", async () => {
  test.slow();
  const reference = await startReference();
  const upstream = new URL(reference.baseUrl).origin;
  const secret = 'gw-secret-7b1f2e9c';
  const proxy = await startGateway(upstream, { 'x-gateway-token': secret, 'x-tenant': 'acme-tenant-42' });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'header-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(reference).replaceAll(upstream, proxy.url));
    const env = { ...referenceKeyEnv(reference), GW_TOKEN: secret };
    const reportDir = mkdtempSync(join(tmpdir(), 'header-report-'));
    const report = await runConformance({
      target: file,
      env,
      seed: 4,
      grep: '@files',
      headers: ['X-Gateway-Token:${GW_TOKEN}', 'X-Tenant:acme-tenant-42'],
      waitForS: 30,
      reportDir,
    });
    expect(report.verdict).toBe('conformant');
    expect(proxy.seen.length).toBeGreaterThan(5);
    // The first request is --wait-for's (no key, the interns list), before the preflight: a gateway that
    // refuses a request without its headers lets it through too.
    expect(proxy.paths[0]).toBe('/v1/interns');
    expect(proxy.seen[0]!['authorization']).toBeUndefined();
    for (const h of proxy.seen) {
      expect(h['x-gateway-token']).toBe(secret);
      expect(h['x-tenant']).toBe('acme-tenant-42');
    }
    // Masked like the keys: the values are in no file of the report.
    for (const f of ['report.json', 'summary.md', 'junit.xml', 'report.html']) {
      const text = readFileSync(join(reportDir, f), 'utf8');
      expect(text, f).not.toContain(secret);
      expect(text, f).not.toContain('acme-tenant-42');
    }
    // The replay names the variables, never the values.
    expect(report.run.replay).toContain(`--header 'X-Gateway-Token:\${GW_TOKEN}'`);
    expect(report.run.replay).toContain(`--header 'X-Tenant:\${HEADER_X_TENANT}'`);
    // A variable not set: one line, the run not made.
    await expect(
      runConformance({ target: file, env: referenceKeyEnv(reference), headers: ['X-Gateway-Token:${GW_TOKEN}'] }),
    ).rejects.toThrow(new ConformanceRunError('--header X-Gateway-Token: environment variable GW_TOKEN is not set'));
    // Set to nothing (a CI secret that is not defined): said as empty.
    await expect(
      runConformance({
        target: file,
        env: { ...referenceKeyEnv(reference), GW_TOKEN: '' },
        headers: ['X-Gateway-Token:${GW_TOKEN}'],
      }),
    ).rejects.toThrow(
      new ConformanceRunError('--header X-Gateway-Token: environment variable GW_TOKEN is set but empty'),
    );
  } finally {
    await proxy.close();
    await reference.close();
  }
});

// The runner and worker Playwright starts send no request: a value written literally reaches them over
// the engine's socket (to mask it), never in their environment, which their children and /proc read.
test('a --header value written literally is in the environment of no process of the run; the console masks it', async () => {
  test.slow();
  const literal = 'literal-tenant-5d81c2e7';
  const dumps = envDumps();
  const run = await runCli(['--seed', '3', '--grep', 'models\\.endpoint\\.uptime', '--header', `X-Tenant:${literal}`], {
    env: { NODE_OPTIONS: dumps.nodeOptions },
    timeoutMs: 150_000,
  });
  expect(run.code, run.stderr).toBe(0);
  const processes = dumps.read();
  // The command, Playwright's runner and its worker each started with the preload.
  const scripts = processes.map((p) => p.script);
  expect(
    scripts.some((s) => /cli\/conformance\.[jt]s$/.test(s)),
    scripts.join(' '),
  ).toBe(true);
  expect(
    scripts.some((s) => s.includes('workerProcessEntry')),
    scripts.join(' '),
  ).toBe(true);
  expect(processes.length).toBeGreaterThanOrEqual(3);
  for (const p of processes) expect(p.env, p.script).not.toContain(literal);
  expect(run.stdout + run.stderr).not.toContain(literal);
  expect(run.report?.run.replay).toContain(`--header 'X-Tenant:\${HEADER_X_TENANT}'`);
});

test('--header refuses the credentials, the suite own Accept and the framing headers, without quoting a value', () => {
  for (const name of [
    'Authorization',
    'authorization',
    'Host',
    'Content-Length',
    'Transfer-Encoding',
    'Connection',
    'Accept',
  ])
    expect(usageError(['--header', `${name}:secret-value`])).toMatch(new RegExp(`^--header ${name} is refused: `));
  expect(usageError(['--header', 'X-A:secret-value\r\nX-B: 1'])).not.toContain('secret-value');
  expect(usageError(['--header', 'X-A:1', '--header', 'x-a:2'])).toBe(
    '--header x-a is given twice; give each header once',
  );
  expect(parseCli(['--header', 'X-A: spaced value ']).headers).toEqual(['X-A:spaced value']);
});
