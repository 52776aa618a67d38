/**
 * action.yml, the composite GitHub Action: it parses, declares the inputs the README shows, and its
 * `run:` steps work when run here in bash as the runner runs them: each step's `env:` expressions
 * evaluated from the inputs and the outputs of earlier steps, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as
 * files, a step without `if:` skipped after a failure and `if: always()` run anyway. The upload step
 * (`uses:` actions/upload-artifact) cannot run here: its inputs are checked instead.
 *
 * The suite is "installed" in the workspace as node_modules/.bin/conformance, a shim running npm test's
 * build of this clone (dist/cli/main.js, as the installed package's bin; the sources through tsx when
 * there is no build: test/support/build.ts); the other branch of the install step (npm ci and a build
 * in the action's own checkout) is left to the package test, which builds and installs the package for
 * real.
 */
import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { ReferenceOptions } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { declOf, OPTION_NAMES } from '../cli/options.ts';
import { escapeData, escapeProperty } from '../reports/github-annotations.ts';
import { scriptCommand } from './support/build.ts';
import { ROOT } from './support/harness.ts';

interface Step {
  name?: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

test('action.yml: a composite action with the inputs target, seed, fail-on and report-dir, the summary and the upload even on failure', () => {
  expect(action.runs.using).toBe('composite');
  for (const input of ['target', 'seed', 'fail-on', 'report-dir'])
    expect(action.inputs[input]?.description, input).toBeTruthy();
  expect(action.inputs['fail-on']!.default).toBe('must');

  const steps = action.runs.steps;
  for (const s of steps.filter((x) => x.run)) {
    // A composite step must name its shell; inputs reach scripts through env only (no `${{` in a script).
    expect(s.shell, s.name).toBe('bash');
    expect(s.run, s.name).not.toContain('${{');
  }
  const summary = steps.find((s) => s.run?.includes('GITHUB_STEP_SUMMARY'));
  expect(summary?.if).toBe('always()');
  expect(summary?.run).toContain('summary.md');
  const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  expect(upload?.if).toBe('always()');
  expect(upload?.with?.['path']).toBe('${{ inputs.report-dir }}');
  expect(steps.some((s) => s.run?.includes('"$CONFORMANCE_BIN"'))).toBe(true);
  for (const o of Object.values(action.outputs)) expect(o.value).toMatch(/^\$\{\{ steps\.run\.outputs\.[a-z-]+ \}\}$/);
});

/** `${{ inputs.x }}`, `${{ steps.id.outputs.k }}` and `${{ github.action_path }}`, as the runner evaluates them. */
function evaluate(
  text: string,
  ctx: { inputs: Record<string, string>; outputs: Record<string, Record<string, string>> },
): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) return ctx.inputs[input[1]!] ?? action.inputs[input[1]!]?.default ?? '';
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output) return ctx.outputs[output[1]!]?.[output[2]!] ?? '';
    if (expr === 'github.action_path') return ROOT;
    throw new Error(`expression not evaluated by this test: ${expr}`);
  });
}

/** As the runner runs a `shell: bash` step: the script in a file, `bash --noprofile --norc -eo pipefail FILE`. */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'action-step-')), 'step.sh');
  writeFileSync(file, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
    cwd,
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface ActionRun {
  codes: Record<string, number | null | 'skipped'>;
  /** What each step wrote to stdout (where the runner reads workflow commands such as ::error). */
  stdout: Record<string, string>;
  outputs: Record<string, Record<string, string>>;
  summary: string;
  workspace: string;
  uploadPath: string;
}

/** Runs the action's steps in a fresh workspace, as the runner would. */
async function runAction(
  inputs: Record<string, string>,
  env: Record<string, string>,
  files: Record<string, string> = {},
  workspace = mkdtempSync(join(tmpdir(), 'action-workspace-')),
): Promise<ActionRun> {
  const bin = join(workspace, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'conformance'),
    `#!/bin/sh\nexec ${scriptCommand(ROOT, 'cli/main.ts')
      .map((word) => `"${word}"`)
      .join(' ')} "$@"\n`,
  );
  chmodSync(join(bin, 'conformance'), 0o755);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(workspace, name), content);
  const summaryFile = join(workspace, '..', `${workspace.split('/').pop()}-summary.md`);
  writeFileSync(summaryFile, '');

  const ctx = { inputs, outputs: {} as Record<string, Record<string, string>> };
  const codes: ActionRun['codes'] = {};
  const stdout: ActionRun['stdout'] = {};
  let failed = false;
  let uploadPath = '';
  for (const [i, step] of action.runs.steps.entries()) {
    const key = step.id ?? step.name ?? String(i);
    // No `if:` means success(): skipped once a step failed; always() runs anyway.
    if (failed && step.if !== 'always()') {
      codes[key] = 'skipped';
      continue;
    }
    if (step.uses) {
      uploadPath = evaluate(step.with?.['path'] ?? '', ctx);
      continue;
    }
    const outputFile = join(workspace, '..', `${workspace.split('/').pop()}-output-${i}`);
    writeFileSync(outputFile, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, ctx)]));
    const ran = await bash(step.run!, workspace, {
      ...env,
      ...stepEnv,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    const code = ran.code;
    codes[key] = code;
    stdout[key] = ran.stdout;
    if (code !== 0) failed = true;
    if (step.id) {
      ctx.outputs[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    }
  }
  return { codes, stdout, outputs: ctx.outputs, summary: readFileSync(summaryFile, 'utf8'), workspace, uploadPath };
}

function reportOf(r: ActionRun, dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(r.workspace, dir, 'report.json'), 'utf8')) as ConformanceReport;
}

async function withReference<T>(
  options: Partial<ReferenceOptions>,
  body: (target: string, env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const server = await startReference(options);
  try {
    return await body(referenceTargetYaml(server), referenceKeyEnv(server));
  } finally {
    await server.close();
  }
}

test('the steps on a conformant target: exit 0, verdict output, summary.md in the job summary, the report where the upload looks', async () => {
  test.slow();
  const r = await withReference({}, (target, env) =>
    runAction({ target: 'staging.yaml', seed: '7', 'report-dir': 'out/conformance' }, env, { 'staging.yaml': target }),
  );
  expect(r.codes).toEqual({ install: 0, run: 0, 'Job summary': 0 });
  expect(r.outputs['run']).toEqual({ 'exit-code': '0', verdict: 'conformant', reason: '' });
  const report = reportOf(r, 'out/conformance');
  // The inputs reached the run: its seed and the default fail-on are in the report.
  expect(report.run.seed).toBe(7);
  expect(report.run.failOn).toBe('must');
  expect(r.summary).toBe(readFileSync(join(r.workspace, 'out/conformance/summary.md'), 'utf8'));
  expect(r.summary.length).toBeGreaterThan(0);
  expect(r.uploadPath).toBe('out/conformance');
  for (const f of ['report.json', 'report.html', 'junit.xml', 'badge.svg'])
    expect(existsSync(join(r.workspace, r.uploadPath, f)), f).toBe(true);
});

test('the steps on a non-conformant target with fail-on should: the run step fails, the summary is still written', async () => {
  test.slow();
  const r = await withReference({ faults: ['interns-has-more-string'] }, (target, env) =>
    runAction({ target: 't.yaml', 'fail-on': 'should' }, env, { 't.yaml': target }),
  );
  expect(r.codes).toEqual({ install: 0, run: 1, 'Job summary': 0 });
  expect(r.outputs['run']).toEqual({ 'exit-code': '1', verdict: 'non-conformant', reason: '' });
  // Printed replays are the installed commands, pasted in the user's repository.
  expect(reportOf(r, 'conformance-report').run.replay).toMatch(/^npx conformance --target t\.yaml /);
  expect(reportOf(r, 'conformance-report').run.failOn).toBe('should');
  expect(r.summary).toBe(readFileSync(join(r.workspace, 'conformance-report/summary.md'), 'utf8'));
  expect(r.summary).toContain('interns.list.schema');
  expect(r.uploadPath).toBe('conformance-report');
});

test('the steps when the run cannot be made (no such target file): exit 2, no verdict, the reason in the job summary and a ::error annotation', async () => {
  const r = await runAction({ target: 'missing.yaml' }, {});
  expect(r.codes).toEqual({ install: 0, run: 2, 'Job summary': 0 });
  expect(r.outputs['run']).toEqual({ 'exit-code': '2', verdict: '', reason: expect.stringContaining('missing.yaml') });
  expect(r.summary).toMatch(/^## ⚠️ Conformance: ERROR — the run could not be made \(exit 2\)/);
  expect(r.summary).toContain('missing.yaml');
  expect(r.stdout['run']).toMatch(
    /^::error title=Conformance%3A the run could not be made \(exit 2\)::.*missing\.yaml/m,
  );
  // A JUnit reporter action reading the uploaded directory sees the error.
  expect(readFileSync(join(r.workspace, 'conformance-report/junit.xml'), 'utf8')).toMatch(
    /<testsuites [^>]*failures="0" errors="1"/,
  );
});

// An exit 2 after a conformant run into the same report directory: no stale green.
test('a conformant run, then one with a misspelt target file into the same directory: the outputs, job summary and upload say the error, not the earlier verdict', async () => {
  test.slow();
  const workspace = mkdtempSync(join(tmpdir(), 'action-workspace-'));
  await withReference({}, async (target, env) => {
    const first = await runAction({ target: 'staging.yaml', seed: '3' }, env, { 'staging.yaml': target }, workspace);
    expect(first.outputs['run']).toMatchObject({ 'exit-code': '0', verdict: 'conformant', reason: '' });
    expect(first.stdout['run']).not.toContain('::error');
    const second = await runAction({ target: 'stagng.yaml', seed: '3' }, env, {}, workspace);
    expect(second.codes).toEqual({ install: 0, run: 2, 'Job summary': 0 });
    expect(second.outputs['run']).toEqual({
      'exit-code': '2',
      verdict: '',
      reason: expect.stringContaining('stagng.yaml'),
    });
    expect(second.summary).toContain('ERROR');
    expect(second.summary).not.toContain('Conformant');
    expect(second.stdout['run']).toMatch(
      /^::error title=Conformance%3A the run could not be made \(exit 2\)::.*stagng\.yaml/m,
    );
    // What the upload takes holds no file of the earlier run that reads conformant.
    expect(existsSync(join(workspace, second.uploadPath, 'report.json'))).toBe(false);
    expect(existsSync(join(workspace, second.uploadPath, 'badge.svg'))).toBe(false);
    expect(readFileSync(join(workspace, second.uploadPath, 'junit.xml'), 'utf8')).toMatch(/errors="1"/);
  });
});

test('action.yml takes every option of the run command as an input of its name, and hands each to the command', () => {
  const run = action.runs.steps.find((s) => s.id === 'run')!;
  const script = run.run!;
  const list = (name: string) => new RegExp(`^\\s*${name}=\\(([^)]*)\\)`, 'm').exec(script)?.[1]?.split(/\s+/) ?? [];
  const values = list('value_options');
  const flags = list('flag_options');
  const taken = new Set<string>();
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    if (d.action !== true) {
      expect(d.action.not.length, `--${name}: why the Action has no input for it`).toBeGreaterThan(0);
      expect(action.inputs[name], name).toBeUndefined();
      continue;
    }
    taken.add(name);
    expect(action.inputs[name]?.description, `input ${name}`).toBeTruthy();
    const env = `INPUT_${name.toUpperCase().replaceAll('-', '_')}`;
    expect(run.env?.[env], env).toBe(`\${{ inputs.${name} }}`);
    if (d.kind === 'flag') expect(flags, name).toContain(name);
    else if (d.multiple) expect(script, name).toContain(`args+=(--${name} "$line")`);
    else expect(values, name).toContain(name);
  }
  // Every input is an option of the command, but the artifact's name and the words for the rest.
  expect(Object.keys(action.inputs).filter((i) => !taken.has(i))).toEqual(['args', 'artifact-name']);
  expect(run.env?.['INPUT_ARGS']).toBe('${{ inputs.args }}');
  // No list names an option the table does not have (a renamed option would be given under its old name).
  for (const name of [...values, ...flags]) expect(OPTION_NAMES as readonly string[], name).toContain(name);
});

test('annotations escape as GitHub reads workflow commands back: % CR LF in the text, and : , in a property', () => {
  expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
  expect(escapeProperty('MUST a.b (section 4.1: rule 3, 4)\n')).toBe('MUST a.b (section 4.1%3A rule 3%2C 4)%0A');
});

test('the inputs reach the run (options, headers, args); one annotation per failing requirement with its level, title and the document words', async () => {
  test.slow();
  const faults = ['files-after-inclusive', 'auth-basic-scheme-accepted', 'files-created-at-millis'];
  const r = await withReference({ faults }, (target, env) =>
    runAction(
      {
        target: 't.yaml',
        seed: '5',
        concurrency: '2',
        'max-rps': '500',
        'require-all': 'true',
        header: 'X-Gateway:${GATEWAY_TOKEN}\nX-Tenant:${TENANT}\n',
        args: '--num-runs 3 --timeout 9000',
      },
      { ...env, GITHUB_ACTIONS: 'true', GATEWAY_TOKEN: 'gw-token-31415', TENANT: 'tenant-92653' },
      { 't.yaml': target },
    ),
  );
  expect(r.codes).toEqual({ install: 0, run: 1, 'Job summary': 0 });
  const report = reportOf(r, 'conformance-report');
  const replay = report.run.replay;
  for (const part of [
    '--concurrency 2',
    '--max-rps 500',
    '--require-all',
    "--header 'X-Gateway:${GATEWAY_TOKEN}'",
    "--header 'X-Tenant:${TENANT}'",
    '--num-runs 3',
    '--timeout 9000',
  ])
    expect(replay, part).toContain(part);
  expect(JSON.stringify(report)).not.toContain('gw-token-31415');
  const failing = report.requirements.filter((q) => q.status === 'fail' && q.level === 'MUST');
  expect(failing.length).toBeGreaterThan(0);
  const annotations = r.stdout['run']!.split('\n').filter((l) => l.startsWith('::error title=MUST '));
  expect(annotations).toHaveLength(failing.length);
  for (const q of failing) {
    const line = annotations.find((l) => l.startsWith(`::error title=MUST ${q.id} (section `))!;
    expect(line, q.id).toBeDefined();
    const [, title, text] = /^::error title=([^:]*)::(.*)$/.exec(line)!;
    // The title is one property: no `:` or `,` left unescaped in it; the text is one line.
    expect(title, q.id).not.toMatch(/[:,]/);
    expect(text, q.id).toContain(q.statement.split(':')[0]!.replaceAll('%', '%25'));
    expect(text, q.id).toContain('%0AThe document, ');
  }
  expect(r.outputs['run']).toEqual({ 'exit-code': '1', verdict: 'non-conformant', reason: '' });
});

test('an INCOMPLETE run: its reason output and annotation are the verdict own reason from report.json', async () => {
  test.slow();
  const r = await withReference({}, (target, env) =>
    runAction({ target: 't.yaml', seed: '2', 'max-requests': '12' }, env, { 't.yaml': target }),
  );
  expect(r.codes).toEqual({ install: 0, run: 2, 'Job summary': 0 });
  const report = reportOf(r, 'conformance-report');
  expect(report.verdict).toBe('incomplete');
  expect(report.run.incomplete).toBeTruthy();
  expect(r.outputs['run']).toEqual({ 'exit-code': '2', verdict: 'incomplete', reason: report.run.incomplete });
  expect(r.stdout['run']).toContain(
    `::error title=Conformance%3A INCOMPLETE (exit 2)::${report.run.incomplete!.replaceAll('%', '%25')}`,
  );
  expect(r.stdout['run']).not.toContain('see the step');
});
