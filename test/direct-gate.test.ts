import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import suitesConfig from '../playwright.config.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { envDumps } from './support/env-dump.ts';
import { startGateway } from './support/gateway.ts';
import { ROOT } from './support/harness.ts';

// One gate, every entry point: `npx playwright test` applies the command line's verdict rules.
// Each direct run writes a report directory of its own (CONFORMANCE_REPORT_DIR), so they can run at once.

interface DirectRun {
  code: number | null;
  stdout: string;
  stderr: string;
  results: Array<{ title: string; status: string; annotations: Array<{ type: string; description?: string }> }>;
  locations: Map<string, string>;
  /** The CONFORMANCE_REPORT_DIR the run was given. */
  reportDir: string;
}

/**
 * The results are read from Playwright's json reporter, after the host reporter (which gates), or after
 * `reporters: 'config'`, the configuration's own reporters (the host reporter, then Playwright's list):
 * what `npx playwright test` prints, and the results of that same run.
 */
async function playwrightTest(
  args: string[],
  env: Record<string, string>,
  reporters: 'json' | 'config' = 'json',
): Promise<DirectRun> {
  const dir = mkdtempSync(join(tmpdir(), 'direct-'));
  const out = join(dir, 'results.json');
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const before =
    reporters === 'json' ? [join(ROOT, 'cli/playwright/host-reporter.ts')] : configReporters().map((r) => r.name);
  const reporterArgs = [`--reporter=${[...before, 'json'].join(',')}`];
  const child = spawn(
    process.execPath,
    // Its own output directory: Playwright clears it at the start and writes .last-run.json into it at the
    // end, and two runs clearing and writing the configuration's one directory at once fail one of them.
    [
      cli,
      'test',
      '-c',
      join(ROOT, 'playwright.config.ts'),
      '--output',
      join(dir, 'test-output'),
      ...reporterArgs,
      ...args,
    ],
    {
      cwd: ROOT,
      // Each run its own report directory: tests run at once, and a report directory is locked while written.
      env: {
        ...process.env,
        CONFORMANCE_SEED: '5',
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        CONFORMANCE_REPORT_DIR: join(dir, 'report'),
        CONFORMANCE_RUN: '',
        CONFORMANCE_ENGINE_SOCKET: '',
        FORCE_COLOR: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (c) => (clearTimeout(t), r(c)));
  });
  const results: DirectRun['results'] = [];
  const locations = new Map<string, string>();
  try {
    type S = {
      specs?: Array<{
        title: string;
        file: string;
        line: number;
        tests: Array<{
          annotations: DirectRun['results'][number]['annotations'];
          results: Array<{ status: string; annotations?: DirectRun['results'][number]['annotations'] }>;
        }>;
      }>;
      suites?: S[];
    };
    const walk = (s: S) => {
      for (const spec of s.specs ?? []) locations.set(spec.title, `${spec.file}:${spec.line}`);
      for (const spec of s.specs ?? [])
        for (const t of spec.tests)
          for (const r of t.results)
            results.push({
              title: spec.title,
              status: r.status,
              annotations: [...t.annotations, ...(r.annotations ?? [])],
            });
      for (const c of s.suites ?? []) walk(c);
    };
    for (const s of (JSON.parse(readFileSync(out, 'utf8')) as { suites: S[] }).suites) walk(s);
  } catch {
    // No results file: Playwright ran no test.
  }
  return { code, stdout, stderr, results, locations, reportDir: join(dir, 'report') };
}

/** The suite's configured reporters, as the command line's --reporter names them (a path from the config's directory). */
function configReporters(): Array<{ name: string }> {
  const reporter = suitesConfig.reporter;
  if (!Array.isArray(reporter)) throw new Error(`playwright.config.ts reporter: ${JSON.stringify(reporter)}`);
  return reporter.map(([name]) => ({ name: name.startsWith('.') ? join(ROOT, name) : name }));
}

async function withReference(
  faults: string[],
  fn: (file: string, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  const server = await startReference({ faults });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'direct-target-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    await fn(file, referenceKeyEnv(server));
  } finally {
    await server.close();
  }
}

test('a SHOULD failure is shown as a warning and does not fail `npx playwright test`; CONFORMANCE_FAIL_ON=should makes it fail', async () => {
  await withReference(['files-limit-bounds-not-enforced'], async (file, env) => {
    const must = await playwrightTest(['--grep', 'files.limit'], { ...env, CONFORMANCE_TARGET: file }, 'config');
    expect(must.code, must.stderr).toBe(0);
    const shown = must.results.find((r) => r.title === 'files.limit.out-of-range-rejected');
    expect(shown?.status).toBe('passed');
    // Located at the check's declaration, also in a run (the runner's listing comes from the global set-up's).
    expect(must.locations.get('files.limit.out-of-range-rejected')).toMatch(/^checks\/container-files-limit\.ts:\d+$/);
    expect(shown?.annotations).toContainEqual({
      type: 'warning',
      description: expect.stringMatching(/^not gating \(fail-on must\): FAIL /),
    });

    // In the run's own output too (Playwright's list reporter prints a test's stderr): a warning line, the test passed.
    expect(must.stdout + must.stderr).toMatch(
      /WARN {2}files\.limit\.out-of-range-rejected: a SHOULD requirement failed \(not gating without CONFORMANCE_FAIL_ON=should\): /,
    );
    expect(must.stdout).toMatch(/✓ .*files\.limit\.out-of-range-rejected/);

    const should = await playwrightTest(['--grep', 'files.limit'], {
      ...env,
      CONFORMANCE_TARGET: file,
      CONFORMANCE_FAIL_ON: 'should',
    });
    expect(should.code).toBe(1);
    expect(should.results.find((r) => r.title === 'files.limit.out-of-range-rejected')?.status).toBe('failed');
    // CONFORMANCE_REPORT_DIR is --report-dir: the run's report is there, with its verdict.
    expect(
      (JSON.parse(readFileSync(join(should.reportDir, 'report.json'), 'utf8')) as { verdict: string }).verdict,
    ).toBe('non-conformant');
  });
});

test("a rejected key is the preflight's one line and exit 2 before any test", async () => {
  await withReference([], async (file, env) => {
    const rotated = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, `${v}-rotated`]));
    const run = await playwrightTest([], { ...rotated, CONFORMANCE_TARGET: file });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: apiKey \(from \$CONFORMANCE_REFERENCE_API_KEY\) was rejected by every operation/,
      ),
    ]);
    expect(run.results).toEqual([]);
  });
});

test("a careless target file (a main container that lists no file, a model answered 404, a misspelt interns.params name) is the preflight's one line and exit 2 before any test", async () => {
  await withReference([], async (file, env) => {
    // One file with the three mistakes: the preflight names each in its one line.
    let yaml = readFileSync(file, 'utf8');
    for (const [pattern, replacement] of [
      [/^ {2}containerId: .*$/m, '  containerId: "cntr_typo"'],
      [/^ {2}model: .*$/m, '  model: "openai/gpt-4o-typo"'],
      [/^( {2}params: \{ limit:) "?limit"?,/m, '$1 limt,'],
    ] as const) {
      expect(yaml.replace(pattern, replacement)).not.toBe(yaml);
      yaml = yaml.replace(pattern, replacement);
    }
    const edited = join(mkdtempSync(join(tmpdir(), 'direct-target-')), 'target.yaml');
    writeFileSync(edited, yaml);
    const run = await playwrightTest([], { ...env, CONFORMANCE_TARGET: edited });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^conformance: .*Check the target file$/)]);
    for (const said of [
      /containerFiles\.containerId "cntr_typo" lists no file /,
      /modelEndpoints\.model "openai\/gpt-4o-typo" was answered 404 /,
      /interns\.params\.limit "limt" seems unknown to the target: /,
    ])
      expect(lines[0]).toMatch(said);
    expect(run.results).toEqual([]);
  });
});

test('a bad target file or CONFORMANCE_FAIL_ON is one line and exit 2, no stack and no code frame', async () => {
  const missing = await playwrightTest([], { CONFORMANCE_TARGET: '/no/such/target.yaml' });
  expect(missing.code).toBe(2);
  expect(missing.stderr.trim().split('\n')).toEqual([
    'conformance: target file /no/such/target.yaml: cannot be read (ENOENT)',
  ]);
  // Its report directory says the error, as the command line's does (junit.xml errors="1", no report.json).
  expect(readFileSync(join(missing.reportDir, 'junit.xml'), 'utf8')).toMatch(
    /<testsuites [^>]*failures="0" errors="1"/,
  );
  expect(existsSync(join(missing.reportDir, 'report.json'))).toBe(false);
  const failOn = await playwrightTest([], { CONFORMANCE_FAIL_ON: 'sometimes' });
  expect(failOn.code).toBe(2);
  expect(failOn.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(/^conformance: --fail-on takes must or should/),
  ]);
});

test("every Playwright test is located at its check's declaration in suites/checks/ (its `id:` line), in a listing and in a run", async () => {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const listed = await new Promise<string>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        'test',
        '-c',
        join(ROOT, 'playwright.config.ts'),
        '--list',
        '--reporter=json',
        '--output',
        mkdtempSync(join(tmpdir(), 'direct-list-')),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          CONFORMANCE_RUN: '',
          CONFORMANCE_ENGINE_SOCKET: '',
          CONFORMANCE_CHECK_LIST: '',
          // The listing is read from stdout: a JSON reporter told to write a file elsewhere leaves it empty.
          PLAYWRIGHT_JSON_OUTPUT_NAME: '',
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', () => resolve(out));
  });
  type S = { specs?: Array<{ title: string; file: string; line: number; column: number }>; suites?: S[] };
  const specs: Array<{ title: string; file: string; line: number; column: number }> = [];
  const walk = (s: S) => {
    specs.push(...(s.specs ?? []));
    for (const c of s.suites ?? []) walk(c);
  };
  for (const s of (JSON.parse(listed) as { suites: S[] }).suites) walk(s);
  expect(specs.length).toBeGreaterThan(100);
  for (const spec of specs) {
    expect(spec.file, spec.title).toMatch(/^checks\/[a-z-]+\.ts$/);
    const text = readFileSync(join(ROOT, 'suites', spec.file), 'utf8').split('\n')[spec.line - 1] ?? '';
    const declared = /\bid: (?:'([^']+)'|`([^`]+)`)/.exec(text);
    expect(declared, `${spec.title} at ${spec.file}:${spec.line}`).not.toBeNull();
    expect(spec.column, spec.title).toBe(declared!.index + 1);
    const id = declared![1] ?? declared![2]!;
    if (declared![1]) expect(id).toBe(spec.title);
    else
      expect(spec.title).toMatch(
        new RegExp(
          `^${id
            .split(/\$\{[^}]*\}/)
            .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.+?')}$`,
        ),
      );
  }
});

// The options a direct run takes are the table's (cli/options.ts directEnv): --header and
// --max-failures too, each honoured as on the command line.
test('CONFORMANCE_HEADERS reaches every request of a direct run behind a gateway (masked; a literal value in no worker environment)', async () => {
  const reference = await startReference();
  const upstream = new URL(reference.baseUrl).origin;
  const secret = 'gw-secret-3c9e41d7';
  const literal = 'literal-tenant-a07b55';
  const gateway = await startGateway(upstream, { 'x-gateway-token': secret, 'x-tenant': literal });
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'direct-target-')), 'target.yaml');
    writeFileSync(file, referenceTargetYaml(reference).replaceAll(upstream, gateway.url));
    const dumps = envDumps();
    const run = await playwrightTest(['--grep', 'files.limit'], {
      ...referenceKeyEnv(reference),
      GW_TOKEN: secret,
      CONFORMANCE_TARGET: file,
      CONFORMANCE_HEADERS: `X-Gateway-Token:\${GW_TOKEN}\nX-Tenant:${literal}`,
      NODE_OPTIONS: dumps.nodeOptions,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(gateway.seen.length).toBeGreaterThan(3);
    for (const h of gateway.seen) expect([h['x-gateway-token'], h['x-tenant']]).toEqual([secret, literal]);
    for (const f of ['report.json', 'summary.md', 'junit.xml', 'report.html', 'evidence.har']) {
      const text = readFileSync(join(run.reportDir, f), 'utf8');
      expect(text, f).not.toContain(secret);
      expect(text, f).not.toContain(literal);
    }
    // The worker sends no request: the value is not handed on in its environment.
    const workers = dumps.read().filter((p) => p.script.includes('workerProcessEntry'));
    expect(
      workers.length,
      dumps
        .read()
        .map((p) => p.script)
        .join(' '),
    ).toBeGreaterThan(0);
    for (const w of workers) expect(w.env).not.toContain(literal);
  } finally {
    await gateway.close();
    await reference.close();
  }
});

test('CONFORMANCE_MAX_FAILURES=1 ends a failing direct run NON-CONFORMANT, the requirements left not judged', async () => {
  await withReference(['files-after-inclusive', 'files-created-at-millis'], async (file, env) => {
    const run = await playwrightTest(['--grep', '@files'], {
      ...env,
      CONFORMANCE_TARGET: file,
      CONFORMANCE_MAX_FAILURES: '1',
    });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(run.reportDir, 'report.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('non-conformant');
    expect(report.run.replay).toContain('--max-failures 1');
    const stopped = report.requirements.filter((r) => r.cause === 'max-failures');
    expect(stopped.length).toBeGreaterThan(0);
    for (const r of stopped) expect(r.reason).toBe('not judged: stopped after 1 failure (--max-failures)');
  });
});
