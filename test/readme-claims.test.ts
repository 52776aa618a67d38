import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { RECORDING_BOUNDS } from '../core/http/recorder.ts';
import { runConformance } from '../cli/api.ts';
import { USAGE } from '../cli/args.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { verdictLine } from '../reports/format.ts';
import { ROOT, runCli, runEngineAgainst } from './support/harness.ts';

// The README's words hold. Each example verdict line of "Running it against your
// deployment" is what a real run prints, numbers and the request path aside.
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The text of the README between two headings (the first one included). */
function section(from: string, to: string): string {
  const start = README.indexOf(from);
  const end = README.indexOf(to, start);
  expect(start, from).toBeGreaterThanOrEqual(0);
  expect(end, to).toBeGreaterThan(start);
  return README.slice(start, end);
}

// Each example verdict line of "Running it against your deployment" is what a real run prints,
// numbers and the request path aside.
const examples = [
  ...section('## Running it against your deployment', '### Trying it on the reference started by hand').matchAll(
    /^verdict: (.+?)(?:\s+#.*)?$/gm,
  ),
].map((m) => m[1]!.trim());

/** The line as a pattern: its numbers any number, the path after GET any path. */
const pattern = (line: string) =>
  new RegExp(
    `^${line
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\d+/g, '\\d+')
      .replace(/GET \\S+|GET \/\S+/, 'GET \\S+')}$`,
  );

test('the README shows the four example verdict lines', () => {
  expect(examples).toHaveLength(4);
});

test("each of the README's example verdict lines is what a real run says", async () => {
  test.setTimeout(120_000);
  const lines = [
    // --grep or one --shard: four checks of the whole.
    verdictLine(
      await runEngineAgainst(
        {},
        {
          select: (id) =>
            ['general.json-body', 'general.errors.shape', 'general.base-url-v1', 'general.json-media-type'].includes(
              id,
            ),
        },
      ),
    ),
    // An optional field left out.
    verdictLine(await runEngineAgainst({}, { editTarget: (t) => delete t.restrictedApiKey })),
    // A budget too small for the run.
    verdictLine(await runEngineAgainst({}, { settings: { maxRequests: 50 } })),
    // A server breaking a MUST and a SHOULD of one point.
    verdictLine(await runEngineAgainst({ faults: ['interns-malformed-workspace-accepted'] })),
  ];
  expect(examples).toHaveLength(lines.length);
  for (const [i, example] of examples.entries())
    expect(lines[i], `README line ${i + 1}: ${example}`).toMatch(pattern(example));
});

test('"See it fail": every line the README shows is a line the run it shows prints', async () => {
  test.setTimeout(120_000);
  const block = /### See it fail\n[\s\S]*?```sh\n([\s\S]*?)```[\s\S]*?```\n([\s\S]*?)```/.exec(README);
  expect(block, 'the section shows the commands and the lines').not.toBeNull();
  const fault = /--fault (\S+)/.exec(block![1]!)?.[1];
  const seed = /--target examples\/reference\.target\.yaml --seed (\d+)/.exec(block![1]!)?.[1];
  expect(fault && seed, block![1]).toBeTruthy();
  const shown = block![2]!.split('\n').filter((l) => l.trim() && l.trim() !== '…');
  expect(shown.length).toBeGreaterThanOrEqual(4);
  const server = await startReference({ faults: [fault!] });
  try {
    // The README's target file, for the ports this reference took.
    const file = join(mkdtempSync(join(tmpdir(), 'readme-fail-')), 'reference.target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const run = await runCli(['--target', file, '--seed', seed!], { env: referenceKeyEnv(server), timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(1);
    // The run's paths as the README's command names them.
    const printed = run.stdout
      .replaceAll(file, 'examples/reference.target.yaml')
      .replaceAll(run.reportDir, 'reports/latest')
      .split('\n');
    for (const line of shown) expect(printed, line).toContain(line);
  } finally {
    await server.close();
  }
});

test('Set-up gives exactly two commands, both npm scripts of package.json, and .ci/run runs the test command', () => {
  const block = /## Set-up\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1];
  const commands = (block ?? '')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.replace(/\s+#.*$/, '').trim());
  expect(commands).toEqual(['npm ci && npm run conformance', 'npm ci && npm test']);
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  expect(scripts['conformance']).toBeTruthy();
  // npm test is the type check, the lint and format gate, then the tests, as the README says.
  expect(scripts['test']).toMatch(/^tsc --noEmit -p \. && biome ci .* && playwright test /);
  // The CI entry point installs with npm ci and runs the README's test command.
  const ci = read('.ci/run');
  expect(ci).toMatch(/^if ! npm ci /m);
  expect(ci).toMatch(/^npm test 2>&1/m);
});

test('a --grep that matches no check: the line the README shows, exit 2, the previous report replaced by the error', async () => {
  test.setTimeout(120_000);
  const shown = /^(conformance: no check matches --grep "(.+?)": nothing ran)$/m.exec(
    section('## Running it against your deployment', '### Trying it on the reference started by hand'),
  );
  expect(shown, 'the README shows the line').not.toBeNull();
  const reportDir = mkdtempSync(join(tmpdir(), 'readme-grep-'));
  // A previous report in the directory, written in-process (the same files as the command writes).
  expect((await runConformance({ seed: 1, grep: 'files.limit.bounds', reportDir })).verdict).toBe('conformant');
  const run = await runCli(['--grep', shown![2]!], { reportDir });
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([shown![1]]);
  // "report.json, report.html and badge.svg are removed": junit.xml (one error) and summary.md (the reason) say it.
  for (const gone of ['report.json', 'report.html', 'badge.svg'])
    expect(existsSync(join(reportDir, gone)), gone).toBe(false);
  expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toMatch(/<testsuites [^>]*failures="0" errors="1"/);
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain('no check matches --grep');
});

test('every option the README names is an option of the command that takes it', () => {
  // The usage texts of the commands the README runs: the suite (--help, from cli/options.ts), the
  // reference, diff, merge, the bench.
  const usages = [USAGE, ...['reference/cli.ts', 'cli/diff.ts', 'cli/merge.ts', 'bench/bench.ts'].map(read)].join('\n');
  const npmOwn = new Set(['--save-dev']);
  const named = new Set([...README.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
  expect(named.size).toBeGreaterThan(20);
  const unknown = [...named].filter((o) => !npmOwn.has(o) && !new RegExp(`(?<![\\w-])${o}(?![\\w-])`).test(usages));
  expect(unknown).toEqual([]);
});

test('every file and folder of the repository the README names exists', () => {
  // Written by a run, not kept in the repository.
  const madeByRuns = new Set([
    'reports/latest',
    'reports/latest/',
    'reports/latest-replay',
    'reports/latest/blob/',
    'reports/latest/blob',
  ]);
  const paths = new Set(
    [
      ...README.matchAll(
        /(?<![\w./-])((?:\.ci|bench|cli|core|examples|generators|os|playwright|reference|reports|scripts|spec|suites|test)\/[\w./-]*)/g,
      ),
    ].map((m) => m[1]!.replace(/[.]$/, '')),
  );
  expect(paths.size).toBeGreaterThan(20);
  const missing = [...paths].filter((p) => !madeByRuns.has(p) && !existsSync(join(ROOT, p)));
  expect(missing).toEqual([]);
  for (const doc of ['ARCHITECTURE.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/RESULTS.md', 'spec/LEVELS.md'])
    expect(README, doc).toContain(`](${doc})`);
});

test('the README is a guide, not a notebook: no dates, no commit hashes, at most about 450 lines', () => {
  expect(README.split('\n').length).toBeLessThanOrEqual(451);
  expect(README.match(/\b20\d\d-\d\d(-\d\d)?\b/g) ?? []).toEqual([]);
  // A hash: seven or more hexadecimal digits with a letter among them (the template's 00000000-... is no hash).
  expect(README.match(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g) ?? []).toEqual([]);
});

test("the README's bounds of evidence.har are the recorder's", () => {
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
  expect(README).toContain(
    `bodies whole up to ${mib(RECORDING_BOUNDS.bodyBytes)} each and ${mib(RECORDING_BOUNDS.runBytes)} in all`,
  );
});
