import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { preflight } from '../cli/preflight.ts';
import { parseTarget } from '../core/target/target.ts';
import { FORBIDDEN_MODEL_FIXTURE, WORKSPACE_A } from '../reference/data.ts';
import { ConformanceRunError, runConformance } from '../cli/api.ts';
import { keyWorkspaceViolation } from '../suites/judges/intern-pages.ts';
import { probeCheck, referenceTarget, runCli, runEngineAgainst, testSettings } from './support/harness.ts';
import { HOSTILE_KEYS, startHostile } from './support/hostile-server.ts';

// A careless target file is named as such, not blamed on the server: one line, exit 2.

function targetFile(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'careless-')), 'target.yaml');
  writeFileSync(file, yaml);
  return file;
}

test('path parameters that cannot name anything are refused when the file is read: one line naming the field, exit 2', async () => {
  const server = await startReference();
  try {
    for (const [pattern, replacement, field] of [
      [/^ {2}containerId: .*$/m, '  containerId: ".."', 'containerFiles.containerId'],
      [/^ {2}containerId: .*$/m, '  containerId: "a/b"', 'containerFiles.containerId'],
      [/^ {2}emptyContainerId: .*$/m, '  emptyContainerId: ""', 'containerFiles.emptyContainerId'],
      [/^ {2}model: .*$/m, '  model: "../gpt-4o"', 'modelEndpoints.model'],
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

test('the README template\'s "..." placeholders left in a target file: refused when it is read, every such field named in one line', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const template = /### The target file\n\n```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
  const env = { EXAMPLE_MANAGEMENT_KEY: 'k'.repeat(24), EXAMPLE_USER_KEY: 'u'.repeat(24) };
  expect(() => parseTarget(template, 'target.yaml', { env })).toThrow(
    /^target file target\.yaml: containerFiles\.containerId "cntr_\.\.\.", containerFiles\.emptyContainerId "sess_\.\.\.", containerFiles\.restartedContainerId "cntr_\.\.\.-r1a2b", interns\.workspaceId "00000000-\.\.\.", interns\.otherWorkspaceId "00000000-\.\.\." still hold the template's "\.\.\." placeholder/,
  );
  // The same file with the deployment's own values is read.
  const filled = template
    .replaceAll('cntr_...', 'cntr_abc')
    .replace('sess_...', 'sess_e')
    .replaceAll('00000000-...', '6f1d2a9c-4e7b-41f8-a3d5-e6c7b8a9f012');
  const allowHosts = ['api.example.com', 'eu.api.example.com'];
  expect(parseTarget(filled, 'target.yaml', { env, allowHosts }).containerFiles.containerId).toBe('cntr_abc');
});

test('a model the deployment does not serve (a typo in modelEndpoints.model): one line naming the field, exit 2, no report, even with --grep', async () => {
  test.setTimeout(120_000);
  const server = await startReference();
  try {
    const yaml = referenceTargetYaml(server).replace(/^ {2}model: .*$/m, '  model: openai/gpt-4o-typo');
    // Before: ERROR or NON-CONFORMANT blaming auth.bearer-accepted ("expected HTTP 200, got 404").
    for (const grep of [[], ['--grep', 'models\\.|auth\\.bearer']]) {
      const run = await runCli(['--target', targetFile(yaml), '--seed', '1', ...grep], {
        env: referenceKeyEnv(server),
        timeoutMs: 60_000,
      });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
      expect(lines).toEqual([
        `conformance: modelEndpoints.model "openai/gpt-4o-typo" was answered 404 while the other operations answered 200: is it a model the deployment serves (and one this key may read)? Check the target file`,
      ]);
      expect(run.report, 'no report for a run that never started').toBeUndefined();
    }
  } finally {
    await server.close();
  }
});

/** What the preflight says (its fatal line, its requests), against a reference started with `options`. */
async function preflightOf(options: Parameters<typeof startReference>[0], edit: (yaml: string) => string) {
  const { received: _judged, ...said } = await judgedPreflightOf(options, edit);
  return said;
}

/** The preflight alone, against a reference started with `options`, the target file edited by `edit`. */
async function judgedPreflightOf(options: Parameters<typeof startReference>[0], edit: (yaml: string) => string) {
  const server = await startReference(options);
  try {
    return await preflight(referenceTarget(server, edit), testSettings(mkdtempSync(join(tmpdir(), 'careless-'))));
  } finally {
    await server.close();
  }
}

const modelTypo = (y: string) => y.replace(/^ {2}model: .*$/m, '  model: openai/gpt-4o-typo');
const containerTypo = (y: string) => y.replace(/^ {2}containerId: .*$/m, '  containerId: "cntr_typo"');
const workspaceTypo = (y: string) => y.replace(/^ {2}workspaceId: .*$/m, `  workspaceId: "${TYPO_WORKSPACE}"`);
const TYPO_WORKSPACE = '00000000-0000-4000-8000-00000000beef';

test('containerFiles.containerId answered 404 or 403 while the other operations answer 200: the preflight names the field', async () => {
  // 4.1 lists no 404 and leaves an unknown container open: refused with 403 (a reading), or 404 (a fault
  // of the server, but the target file's container is the first suspect when the key works elsewhere).
  for (const [options, status] of [
    [{ readings: ['unknown-container-forbidden'] }, 403],
    [{ faults: ['errors-files-404-status'] }, 404],
  ] as const) {
    const pre = await preflightOf(options, containerTypo);
    expect(pre.fatal).toBe(
      `containerFiles.containerId "cntr_typo" was answered ${status} while the other operations answered 200: is it a container of the deployment (and one this key may read)? Check the target file`,
    );
    // Four: one per operation, and the interns parameters asked together (cli/interns-params-preflight.ts).
    expect(pre.requests).toBe(4);
  }
  // The same servers with the container the target file means: nothing to say.
  for (const options of [{ readings: ['unknown-container-forbidden'] }, { faults: ['errors-files-404-status'] }]) {
    expect(await preflightOf(options, (y) => y)).toEqual({ requests: 4 });
  }
});

test('a main container that lists no file, or a model answered 404, ends the run at the preflight naming the field', async () => {
  const empty = await preflightOf({}, containerTypo);
  expect(empty).toEqual({
    fatal:
      'containerFiles.containerId "cntr_typo" lists no file (200 with an empty data and has_more false): the listContainerFiles checks need a container that has files. Check the target file',
    requests: 4,
  });
  const model = await preflightOf({}, modelTypo);
  expect(model.fatal).toBe(
    'modelEndpoints.model "openai/gpt-4o-typo" was answered 404 while the other operations answered 200: is it a model the deployment serves (and one this key may read)? Check the target file',
  );
  // A model of another workspace answered 404 (reading forbidden-model-404) is the same mistake of the file.
  expect(
    (
      await preflightOf({ readings: ['forbidden-model-404'] }, (y) =>
        y.replace(/^ {2}model: .*$/m, `  model: ${FORBIDDEN_MODEL_FIXTURE}`),
      )
    ).fatal,
  ).toMatch(/^modelEndpoints\.model ".*" was answered 404 /);
  // A first page that is empty with has_more true (scan bound, 4.1 rule 3) may still lead to files: no fatal.
  expect(await preflightOf({ scanBound: 1 }, (y) => y)).toEqual({ requests: 4 });
});

test('a main container that lists no file, from the command (with --require-all or not) and runConformance (npx playwright test: test/direct-gate.test.ts)', async () => {
  test.setTimeout(120_000);
  const server = await startReference();
  try {
    const file = targetFile(containerTypo(referenceTargetYaml(server)));
    const env = referenceKeyEnv(server);
    const line =
      /^conformance: containerFiles\.containerId "cntr_typo" lists no file \(200 with an empty data and has_more false\): .*Check the target file$/;
    // Before: a console warning, then CONFORMANT with 5 MUST not judged, exit 0, also with --require-all.
    for (const more of [['--grep', 'models\\.response\\.schema'], ['--require-all']]) {
      const run = await runCli(['--target', file, '--seed', '1', ...more], { env, timeoutMs: 60_000 });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'))).toEqual([
        expect.stringMatching(line),
      ]);
      expect(run.report, 'no report for a run that never started').toBeUndefined();
    }
    // runConformance said nothing at all before.
    const error = await runConformance({ target: file, env, seed: 1, grep: 'models\\.response\\.schema' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConformanceRunError);
    expect((error as Error).message).toMatch(/^containerFiles\.containerId "cntr_typo" lists no file /);
  } finally {
    await server.close();
  }
});

test('a typo in containerFiles.containerId on the command line: one line naming the field, exit 2, no report', async () => {
  const server = await startReference({ readings: ['unknown-container-forbidden'] });
  try {
    const run = await runCli(['--target', targetFile(containerTypo(referenceTargetYaml(server)))], {
      env: referenceKeyEnv(server),
      timeoutMs: 60_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^conformance: containerFiles\.containerId "cntr_typo" was answered 403 while the other operations answered 200: .*Check the target file$/,
      ),
    ]);
    expect(run.report, 'no report for a run that never started').toBeUndefined();
  } finally {
    await server.close();
  }
});

test('containerFiles.emptyContainerId answered 403 or 404: files.empty-container.pages is ERROR naming the field, no failure', async () => {
  const emptyTypo = (y: string) => y.replace(/^ {2}emptyContainerId: .*$/m, '  emptyContainerId: "sess_typo"');
  for (const [options, status] of [
    [{ readings: ['unknown-container-forbidden'] }, 403],
    [{ faults: ['errors-files-404-status'] }, 404],
  ] as const) {
    const o = await probeCheck('files.empty-container.pages', options, { editTarget: emptyTypo });
    expect(o.status, o.reason).toBe('error');
    expect(o.reason).toContain(
      `containerFiles.emptyContainerId "sess_typo" was answered ${status}: is it a container of the deployment (and one this key may read)? Check the target file`,
    );
    expect(o.failures).toEqual([]);
  }
  // A known empty container on those servers is judged as usual.
  expect((await probeCheck('files.empty-container.pages', { readings: ['unknown-container-forbidden'] })).status).toBe(
    'pass',
  );
});

test('a typo in emptyContainerId end to end: ERROR, exit 2, the field named, no MUST failed', async () => {
  test.setTimeout(120_000);
  const server = await startReference({ readings: ['unknown-container-forbidden'] });
  try {
    const yaml = referenceTargetYaml(server).replace(/^ {2}emptyContainerId: .*$/m, '  emptyContainerId: sess_typo');
    const run = await runCli(['--target', targetFile(yaml), '--seed', '1', '--grep', 'files\\.empty-container'], {
      env: referenceKeyEnv(server),
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.report?.verdict).toBe('error');
    expect(run.stdout).toContain('containerFiles.emptyContainerId "sess_typo" was answered 403');
    expect(run.report!.requirements.filter((r) => r.status === 'fail' && r.level === 'MUST').map((r) => r.id)).toEqual(
      [],
    );
  } finally {
    await server.close();
  }
});

test("interns.workspaceId not the key's, and the workspace filter set to it refused or empty: the preflight names the field and the key's workspace", async () => {
  for (const [options, answer] of [
    [{}, 'was refused \\(403\\)'],
    [{ readings: ['workspace-mismatch-empty'] }, 'listed no intern'],
  ] as const) {
    const pre = await preflightOf(options, workspaceTypo);
    expect(pre.fatal).toMatch(
      new RegExp(
        `^interns\\.workspaceId "${TYPO_WORKSPACE}" is not the key's workspace: every intern the key lists is of workspace "${WORKSPACE_A}", and the workspace filter set to "${TYPO_WORKSPACE}" ${answer}\\. Check the target file$`,
      ),
    );
    // Two more requests: the filtered list, and the interns parameters asked together (cli/interns-params-preflight.ts).
    expect(pre.requests).toBe(5);
  }
});

test('several fields the deployment does not know: the preflight names them all in one line, its advice once', async () => {
  const modelTypo = (y: string) => y.replace(/^ {2}model: .*$/m, '  model: openai/gpt-4o-typo');
  const pre = await preflightOf({}, (y) => workspaceTypo(modelTypo(y)));
  expect(pre.fatal).toMatch(
    /^modelEndpoints\.model "openai\/gpt-4o-typo" was answered 404 .*\?; interns\.workspaceId "00000000-0000-4000-8000-00000000beef" is not the key's workspace: .* was refused \(403\)\. Check the target file$/,
  );
  expect(pre.fatal!.split('Check the target file')).toHaveLength(2);
});

test("interns of another single workspace while the filtered list holds the file's workspace: no fatal, the checks judge the server", async () => {
  // Fault interns-other-workspace-leak: unfiltered, another workspace's interns; filtered, the key's.
  const leak = await judgedPreflightOf({ faults: ['interns-other-workspace-leak'] }, (y) => y);
  expect(leak.fatal).toBeUndefined();
  expect(leak.requests).toBe(5);
  // What it received is judged as a check's answers are: the leaking page fails 4.3.
  expect(leak.received.failures.map((f) => f.requirementId)).toContain('interns.intern.workspace-of-key');
  // Fault interns-workspace-filter-refused on a right target file: the list is the file's workspace, nothing asked.
  expect(await preflightOf({ faults: ['interns-workspace-filter-refused'] }, (y) => y)).toEqual({ requests: 4 });
  // Without interns.params the filter cannot be asked: no fatal, no extra request.
  expect(await preflightOf({}, (y) => workspaceTypo(y).replace(/^ {2}params: .*\n/m, ''))).toEqual({ requests: 3 });
});

test('without interns.params, a typo in interns.workspaceId still fails workspace-of-key, with a hint at the target file', async () => {
  const noParams = (y: string) => workspaceTypo(y).replace(/^ {2}params: .*\n/m, '');
  const o = await probeCheck('interns.intern.workspace-of-key', {}, { editTarget: noParams });
  expect(o.status).toBe('fail');
  expect(o.failures[0]?.message).toContain(`is not the key's workspace ${TYPO_WORKSPACE} (4.3 `);
  expect(o.failures[0]?.message).toMatch(
    /; every intern listed is of that one workspace: if interns\.workspaceId is a typo, fix the target file$/,
  );
  // The response judge says the same on every page it fails.
  const judged = keyWorkspaceViolation(
    { data: [{ workspaceId: WORKSPACE_A }, { workspaceId: WORKSPACE_A }] },
    TYPO_WORKSPACE,
    true,
  );
  expect(judged?.message).toMatch(
    /; every intern listed is of that one workspace: if interns\.workspaceId is a typo, fix the target file$/,
  );
  // Interns of several workspaces, or a target file naming the filter: no hint (a typo cannot explain the first; the preflight asked in the second).
  expect(
    keyWorkspaceViolation(
      { data: [{ workspaceId: WORKSPACE_A }, { workspaceId: TYPO_WORKSPACE.replace('beef', 'cafe') }] },
      TYPO_WORKSPACE,
      true,
    )?.message,
  ).not.toContain('typo');
  expect(keyWorkspaceViolation({ data: [{ workspaceId: WORKSPACE_A }] }, TYPO_WORKSPACE, false)?.message).not.toContain(
    'typo',
  );
  const withParams = await probeCheck('interns.intern.workspace-of-key', {}, { editTarget: workspaceTypo });
  expect(withParams.status).toBe('fail');
  expect(withParams.failures[0]?.message).not.toContain('typo');
});

test('a typo in interns.workspaceId on the command line: one line naming the field, exit 2, no report', async () => {
  const server = await startReference();
  try {
    const run = await runCli(['--target', targetFile(workspaceTypo(referenceTargetYaml(server)))], {
      env: referenceKeyEnv(server),
      timeoutMs: 60_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^conformance: interns\.workspaceId "00000000-0000-4000-8000-00000000beef" is not the key's workspace: .*Check the target file$/,
      ),
    ]);
    expect(run.report).toBeUndefined();
  } finally {
    await server.close();
  }
});

test('where no preflight ran (the engine alone), a model answered 404 is ERROR naming modelEndpoints.model in the report, never auth.bearer-accepted failed', async () => {
  const report = await runEngineAgainst(
    {},
    {
      settings: { seed: 1 },
      select: (id) => id.startsWith('models.') || id.startsWith('auth.bearer'),
      editTarget: (t) => void (t.modelEndpoints.model = 'openai/gpt-4o-typo'),
    },
  );
  expect(report.verdict).toBe('error');
  expect(report.requirements.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  const bearer = report.checks.find((c) => c.checkId === 'auth.bearer.models');
  expect(bearer?.status).toBe('error');
  expect(bearer?.reason).toContain('modelEndpoints.model "openai/gpt-4o-typo" was answered 404');
});

// 4.3 "Names of these three query parameters: not shown": a misspelt name in interns.params is the
// target file's mistake, told apart from a parameter the server honours badly (cli/interns-params-preflight.ts).
const limitTypo = (y: string) => y.replace(/^( {2}params: \{ limit:) "?limit"?,/m, '$1 limt,');
const statusTypo = (y: string) => y.replace(/^( {2}params: .*status:) "?status"?,/m, '$1 statsu,');
const LIMIT_IGNORED =
  'interns.params.limit "limt" seems unknown to the target: limt=1 listed 50 interns and limt=0 was answered as if it were not there (4.3: the names are "not shown"; the target file names them).';
const STATUS_IGNORED =
  /interns\.params\.status "statsu" seems unknown to the target: statsu=\w+ listed an intern of status "\w+" and statsu=not_a_section_3_status was answered as if it were not there \(4\.3: the names are "not shown"; the target file names them\)\./;

test('a misspelt interns.params name: the preflight names the field, from the command, in one line, exit 2, no report (not NON-CONFORMANT)', async () => {
  test.setTimeout(180_000);
  // Each name alone: the preflight's line says that one field (the command prints it after "conformance: ").
  expect((await preflightOf({}, limitTypo)).fatal).toBe(`${LIMIT_IGNORED} Check the target file`);
  expect((await preflightOf({}, statusTypo)).fatal).toMatch(
    new RegExp(`^${STATUS_IGNORED.source} Check the target file$`),
  );
  // Both, from the command: one line naming both fields, its advice once.
  const server = await startReference();
  try {
    const yaml = referenceTargetYaml(server);
    expect(limitTypo(yaml)).toContain('limit: limt,');
    expect(statusTypo(yaml)).toContain('status: statsu,');
    const run = await runCli(
      ['--target', targetFile(statusTypo(limitTypo(yaml))), '--seed', '1', '--grep', 'interns\\.'],
      {
        env: referenceKeyEnv(server),
        timeoutMs: 60_000,
      },
    );
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^conformance: ${escapeRe(LIMIT_IGNORED.slice(0, -1))}; ${STATUS_IGNORED.source} Check the target file$`,
      ),
    );
    expect(lines[0]!.split('Check the target file')).toHaveLength(2);
    expect(run.report, 'no report for a run that never started').toBeUndefined();
  } finally {
    await server.close();
  }
});

test('a misspelt interns.params name from runConformance: ConformanceRunError naming the field', async () => {
  const server = await startReference();
  try {
    const file = targetFile(limitTypo(referenceTargetYaml(server)));
    await expect(runConformance({ target: file, grep: 'interns\\.', env: referenceKeyEnv(server) })).rejects.toThrow(
      new RegExp(`^${escapeRe(LIMIT_IGNORED)} Check the target file$`),
    );
  } finally {
    await server.close();
  }
});

test('a faithful server is never suspected: every interns fault and every conformant variant with its own names, no interns.params line', async () => {
  test.setTimeout(180_000);
  const { FAULTS } = await import('../reference/faults/index.ts');
  const { CONFORMANT_VARIANTS } = await import('../reference/variants.ts');
  const options = [
    ...FAULTS.filter((f) => f.operation === 'listInterns').map((f) => ({ faults: [f.name] })),
    ...CONFORMANT_VARIANTS.map((v) => v.options),
  ];
  expect(options.length).toBeGreaterThan(20);
  for (const o of options) {
    const pre = await preflightOf(o, (y) => y);
    expect(pre.fatal ?? '', JSON.stringify(o)).not.toContain('interns.params');
  }
  // The check can fail: the same preflight on a misspelt name says it.
  expect((await preflightOf({}, limitTypo)).fatal).toBe(`${LIMIT_IGNORED} Check the target file`);
});

test('a key that sees no intern cannot tell: the preflight says nothing of interns.params', async () => {
  const empty = await startHostile((req) =>
    req.url.startsWith('/v1/interns')
      ? { kind: 'json', body: { data: [], has_more: false } }
      : { kind: 'json', body: { object: 'list', data: [], first_id: null, last_id: null, has_more: false } },
  );
  try {
    const target = parseTarget(limitTypo(statusTypo(referenceTargetYamlFor(empty.baseUrl))), 'target.yaml', {
      env: { ...HOSTILE_KEYS },
    });
    const pre = await preflight(target, testSettings(mkdtempSync(join(tmpdir(), 'careless-'))));
    expect(pre.fatal ?? '').not.toContain('interns.params');
    expect(empty.received.filter((r) => r.url.startsWith('/v1/interns'))).toHaveLength(1);
  } finally {
    await empty.close();
  }
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A target file of the hostile servers' shape, with the reference's params line. */
function referenceTargetYamlFor(baseUrl: string): string {
  return [
    `baseUrl: ${baseUrl}`,
    'apiKey: ${HOSTILE_API_KEY}',
    'containerFiles: { containerId: cntr_x }',
    'modelEndpoints: { model: a/b }',
    'interns:',
    '  workspaceId: 00000000-0000-4000-8000-000000000001',
    '  params: { limit: limit, status: status, workspace: workspace_id }',
    '',
  ].join('\n');
}
