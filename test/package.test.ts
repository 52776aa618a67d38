/**
 * The package as a user gets it: `npm pack` (which builds dist/ on prepack), the tarball installed into
 * an empty project from the npm registry's dependencies, and the `conformance` command run from there
 * with compiled JavaScript only (no tsx, no TypeScript in the project). One full run against the
 * embedded reference, one with --target against a reference started here (a deployment, as far as the
 * command can tell), and the diff of the two reports.
 *
 * Slow (a build, an install, two runs) and bounded: each command is killed at its time limit.
 */
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ROOT, spawned } from './support/harness.ts';

test.describe.configure({ mode: 'serial' });

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without the npm_* variables of an enclosing `npm test`, which would steer the nested npm. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
    FORCE_COLOR: '0',
    ...extra,
  };
}

function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<Ran> {
  return spawned(command, args, { cwd, env: cleanEnv(env), timeoutMs });
}

let project = '';
let tarballFiles: string[] = [];

/** `npx --no-install`: the installed command only, never a package of that name fetched from the registry. */
function conformance(args: string[], timeoutMs = 120_000, env: Record<string, string> = {}): Promise<Ran> {
  return run('npx', ['--no-install', 'conformance', ...args], project, timeoutMs, env);
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  const packDir = mkdtempSync(join(tmpdir(), 'pack-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', packDir], ROOT, 240_000);
  expect(packed.code, packed.stderr.slice(-2000)).toBe(0);
  // npm prints the prepack script's output before the JSON array.
  const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('\n[') + 1)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarballFiles = info[0]!.files.map((f) => f.path);

  project = mkdtempSync(join(tmpdir(), 'consumer-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2),
  );
  const installed = await run(
    'npm',
    ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', join(packDir, info[0]!.filename)],
    project,
    300_000,
  );
  expect(installed.code, installed.stderr.slice(-2000)).toBe(0);
});

test('the tarball holds the compiled command, its data files and schemas, and nothing a user does not need', () => {
  for (const f of [
    'package.json',
    'README.md',
    'dist/cli/main.js',
    'dist/build-info.json',
    'dist/spec/openapi.yaml',
    'dist/spec/requirements.yaml',
    'dist/core/target/target.schema.json',
    'dist/reports/report.schema.json',
  ]) {
    expect(tarballFiles, f).toContain(f);
  }
  const unneeded = tarballFiles.filter(
    (f) =>
      /^(test|bench|scripts|examples|\.ci)\//.test(f) ||
      (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) ||
      /^tsconfig/.test(f) ||
      /\.test\./.test(f),
  );
  expect(unneeded).toEqual([]);
});

test('installed: no TypeScript runtime comes with it, and the target file schema is where the README says', () => {
  expect(existsSync(join(project, 'node_modules/.bin/conformance'))).toBe(true);
  expect(existsSync(join(project, 'node_modules/tsx')), 'tsx is a development dependency only').toBe(false);
  expect(existsSync(join(project, 'node_modules/typescript'))).toBe(false);
  const schema = JSON.parse(
    readFileSync(join(project, 'node_modules/conformance-suite/dist/core/target/target.schema.json'), 'utf8'),
  ) as { $id: string };
  expect(schema.$id).toBe('conformance-target.json');
});

test('npx conformance --help and npx conformance reference --help', async () => {
  const help = await conformance(['--help']);
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/^usage: conformance \[options\]/);
  expect(help.stdout).toContain('conformance diff');
  expect(help.stdout).toContain('--target FILE');
  const ref = await conformance(['reference', '--help']);
  expect(ref.code, ref.stderr).toBe(0);
  expect(ref.stdout).toContain('--fault');
  expect(ref.stdout).toContain('--port');
  const diff = await conformance(['diff', '--help']);
  expect(diff.code, diff.stderr).toBe(0);
  expect(diff.stdout).toMatch(/^usage: npx conformance diff /);
  // The installed command, not a clone's npm script (which has no script in a project).
  const merge = await conformance(['merge', '--help']);
  expect(merge.code, merge.stderr).toBe(0);
  expect(merge.stdout).toMatch(/^usage: npx conformance merge \[options\]/);
  expect(help.stdout).toContain('130 interrupted');
  expect(help.stdout).toContain('--wait-for S');
});

test('installed: each command says a bad option as it was typed, in one line, exit 2', async () => {
  const run = await conformance(['--sede', '7']);
  const reference = await conformance(['reference', '--prot', '8080']);
  const merge = await conformance(['merge', '--forse']);
  expect([run, reference, merge].map((r) => [r.code, r.stderr])).toEqual([
    [2, 'conformance: unknown option --sede (did you mean --seed?) (see --help)\n'],
    [2, 'conformance reference: unknown option --prot (did you mean --port?) (see --help)\n'],
    [2, 'conformance merge: unknown option --forse (did you mean --force?) (see --help)\n'],
  ]);
});

test('npx conformance on the embedded reference, npx conformance --target on a deployment, and npx conformance diff on the two reports', async () => {
  test.slow();
  const embedded = await conformance(['--seed', '11', '--report-dir', 'embedded']);
  expect(embedded.code, `${embedded.stdout.slice(-1500)}\n${embedded.stderr.slice(-1500)}`).toBe(0);
  const a = JSON.parse(readFileSync(join(project, 'embedded/report.json'), 'utf8')) as ConformanceReport;
  expect(a.verdict).toBe('conformant');
  // Which suite ran is the package's, recorded at build time, not the git of wherever it is installed.
  expect(a.suite.version).toBe(
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
  expect(a.suite.commit).toBe(
    (
      JSON.parse(readFileSync(join(project, 'node_modules/conformance-suite/dist/build-info.json'), 'utf8')) as {
        commit: string;
      }
    ).commit,
  );

  const server = await startReference();
  try {
    writeFileSync(join(project, 't.yaml'), referenceTargetYaml(server));
    const deployed = await conformance(
      ['--target', 't.yaml', '--seed', '11', '--report-dir', 'deployed'],
      120_000,
      referenceKeyEnv(server),
    );
    expect(deployed.code, `${deployed.stdout.slice(-1500)}\n${deployed.stderr.slice(-1500)}`).toBe(0);
  } finally {
    await server.close();
  }
  const b = JSON.parse(readFileSync(join(project, 'deployed/report.json'), 'utf8')) as ConformanceReport;
  expect(b.verdict).toBe('conformant');
  expect(b.target.baseUrl).not.toBe(a.target.baseUrl);

  // One implementation, one seed: the comparison agrees.
  const diff = await conformance(['diff', 'embedded/report.json', 'deployed/report.json', '--html', 'diff.html']);
  expect(diff.code, diff.stdout + diff.stderr).toBe(0);
  expect(diff.stdout).toContain('The two reports agree');
  expect(readFileSync(join(project, 'diff.html'), 'utf8')).toContain('The two reports agree');
});

test('installed: import { runConformance } resolves to the typed report, and its types ship', async () => {
  test.slow();
  expect(existsSync(join(project, 'node_modules/conformance-suite/dist/index.d.ts'))).toBe(true);
  writeFileSync(
    join(project, 'api.mjs'),
    "import { runConformance } from 'conformance-suite';\n" +
      "const report = await runConformance({ seed: 3, grep: '^general\\\\.' });\n" +
      'console.log(JSON.stringify({ verdict: report.verdict, partial: report.run.partial, checks: report.checks.filter((c) => c.status === "pass").length }));\n',
  );
  const ran = await run(process.execPath, ['api.mjs'], project, 120_000);
  expect(ran.code, ran.stderr).toBe(0);
  const out = JSON.parse(ran.stdout.trim().split('\n').pop()!) as {
    verdict: string;
    partial: { checks: number };
    checks: number;
  };
  expect(out.verdict).toBe('conformant');
  expect(out.checks).toBeGreaterThan(0);
  expect(out.partial.checks).toBe(out.checks);
});

// Every command the suite prints runs where it is printed. From the installed package the
// reference's "paste these lines" block and the replay of a run say `npx conformance`, and pasted
// as printed in the project they run (a clone's `npm run conformance` has no script there).
test("installed: the reference's lines and the printed replay say npx conformance, and run as printed", async () => {
  test.slow();
  // The reference started from the package prints lines that set the keys, write a target file and run the suite.
  const reference = spawn('npx', ['--no-install', 'conformance', 'reference'], {
    cwd: project,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let printed = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the reference printed no run line in 60 s: ${printed}`)),
        60_000,
      );
      reference.stdout.on('data', (d: Buffer) => {
        printed += d.toString();
        if (/--target reference\.target\.yaml\n/.test(printed)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const lines = printed.split('\n').filter((l) => !l.startsWith('#'));
    expect(lines.join('\n')).toContain('npx conformance --target reference.target.yaml');
    const pasted = await run(
      'bash',
      [
        '-c',
        `${lines.join('\n').replace('--target reference.target.yaml', '--target reference.target.yaml --grep " general\\\\." --report-dir pasted')}`,
      ],
      project,
      120_000,
    );
    expect(pasted.code, pasted.stdout.slice(-1500) + pasted.stderr.slice(-1500)).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'pasted/report.json'), 'utf8')) as ConformanceReport;
    expect(report.run.replay).toMatch(/^npx conformance /);
    expect(readFileSync(join(project, 'pasted/summary.md'), 'utf8')).toContain(report.run.replay);
    // Pasted into the same shell (the keys the reference's lines set), the replay runs the same seed.
    const keys = lines.filter((l) => l.startsWith('export ')).join('\n');
    expect(keys).not.toBe('');
    const again = await run(
      'bash',
      ['-c', `${keys}\n${report.run.replay} --report-dir replayed-again`],
      project,
      120_000,
    );
    expect(again.code, again.stdout.slice(-1500) + again.stderr.slice(-1500)).toBe(0);
    expect(
      (JSON.parse(readFileSync(join(project, 'replayed-again/report.json'), 'utf8')) as ConformanceReport).run.seed,
    ).toBe(report.run.seed);
  } finally {
    reference.kill('SIGTERM');
  }
});

// The README's runConformance example runs as it stands in a project that installed the package.
test("installed: the README's runConformance example runs as written", async () => {
  test.slow();
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /<!-- api-example -->\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example, 'README.md holds the api-example block').toBeDefined();
  writeFileSync(join(project, 'readme-example.mjs'), example!);
  const ran = await run(process.execPath, ['readme-example.mjs'], project, 120_000);
  expect(ran.code, ran.stdout + ran.stderr).toBe(0);
  expect(ran.stdout).toMatch(/^conformant \{/m);
  expect(existsSync(join(project, 'conformance-report/report.json'))).toBe(true);
});
