/**
 * A target file's content is never echoed (core/target/unknown-field.ts), and a target file reached
 * through a symbolic link leading outside the directory the run was started from is refused unless
 * --target-outside (os/links.ts). Links here point from one temporary directory into another.
 */
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseTarget, TargetFileError } from '../core/target/target.ts';
import { runCli } from './support/harness.ts';
import { HOSTILE_KEYS, OK_JSON, stackLines, startHostile, stderrLines, writeTarget } from './support/hostile-server.ts';
import { MAX_URL_CHARS } from '../core/http/client.ts';
import { MAX_VALUE_CHARS } from '../core/target/field-values.ts';

test.describe.configure({ mode: 'parallel' });

const HASH = '$6$rounds=5000$Zq9saltsalt$Q2hhbmdlZEhhc2hWYWx1ZVRoYXRNdXN0TmV2ZXJCZVByaW50ZWQuLi4u';
const SHADOW = `root:${HASH}:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n`;

function tempFile(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'target-content-')), name);
  writeFileSync(file, content);
  return file;
}

/** No part of the hash longer than 8 characters appears in `text`. */
function holdsHash(text: string): boolean {
  const secret = HASH.slice(3);
  for (let i = 0; i + 8 <= secret.length; i += 4) if (text.includes(secret.slice(i, i + 8))) return true;
  return false;
}

test('a target file of other content (a password line): one line by position, the content in no output', async () => {
  const run = await runCli(['--target', tempFile('target.yaml', SHADOW)], { timeoutMs: 60_000 });
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  const lines = stderrLines(run);
  expect(lines).toEqual([
    expect.stringMatching(
      /^conformance: target file \S+: unknown field at the top level at line 1 \(a name of \d+ characters that is no field name, not shown: is this file a target file\?\)$/,
    ),
  ]);
  expect(holdsHash(run.stdout + run.stderr)).toBe(false);
  for (const name of ['junit.xml', 'summary.md']) {
    const text = readFileSync(join(run.reportDir, name), 'utf8');
    expect(text, name).toContain('unknown field at the top level at line 1');
    expect(holdsHash(text), name).toBe(false);
  }
});

test('unknown field names: a slip is shown with its hint, anything else by its object and line only, bounded and escaped', () => {
  const base =
    'baseUrl: http://127.0.0.1:1/v1\napiKey: ${K}\ncontainerFiles: { containerId: c }\nmodelEndpoints: { model: a/b }\n';
  const env = { K: 'k'.repeat(20) };
  const refusal = (yaml: string) => {
    try {
      parseTarget(yaml, 't.yaml', { env });
    } catch (e) {
      expect(e).toBeInstanceOf(TargetFileError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  expect(refusal(`${base}interns:\n  workspaceId: w\n  workspaceID2: x\n`)).toMatch(
    /unknown field interns\.workspaceID2 \(did you mean/,
  );
  const long = 'a'.repeat(33);
  expect(refusal(`${base}interns:\n  workspaceId: w\n  ${long}: x\n`)).toBe(
    't.yaml'.replace(/^/, 'target file ') +
      ': unknown field in interns at line 7 (a name of 33 characters that is no field name, not shown: is this file a target file?)',
  );
  const escaped = refusal(`${base}interns: { workspaceId: w }\n"\\e[2J\\u202e": 1\n`);
  expect(escaped).toMatch(/unknown field at the top level at line 6 \(a name of 5 characters/);
  expect(escaped).not.toMatch(/[\u0000-\u001f\u202e]/);
});

test('a target file that is a link leading outside the working directory: refused in one line unless --target-outside', async () => {
  const real = tempFile('shadow', SHADOW);
  const link = join(mkdtempSync(join(tmpdir(), 'target-link-')), 'target.yaml');
  symlinkSync(real, link);
  const refused = await runCli(['--target', link], { timeoutMs: 60_000 });
  expect(refused.code).toBe(2);
  expect(stderrLines(refused)).toEqual([
    `conformance: target file ${link}: ${link} is a symbolic link leading outside the directory the run was started from (to ${real}); pass --target-outside to read it`,
  ]);
  // Allowed, the file is read (and refused for what it holds, without showing it).
  const read = await runCli(['--target', link, '--target-outside'], { timeoutMs: 60_000 });
  expect(read.code).toBe(2);
  expect(stderrLines(read)).toEqual([expect.stringContaining(': unknown field at the top level at line 1 (')]);
  expect(holdsHash(read.stdout + read.stderr)).toBe(false);
  // A directory in the path that is such a link counts the same.
  const dirLink = join(mkdtempSync(join(tmpdir(), 'target-link-')), 'deploy');
  symlinkSync(join(real, '..'), dirLink);
  const viaDir = await runCli(['--target', join(dirLink, 'shadow')], { timeoutMs: 60_000 });
  expect(stderrLines(viaDir)).toEqual([expect.stringContaining(`${dirLink} is a symbolic link leading outside`)]);
});

// Values checked at load (core/target/field-values.ts): nothing is sent, and the run ends at once.
test('a 70 KB id or base URL, an escaped "\\0" or a zero-width space in an id: exit 2 at load naming the field, nothing sent', async () => {
  const server = await startHostile(OK_JSON);
  try {
    const cases: Array<[(y: string) => string, RegExp]> = [
      [
        (y) => y.replace('containerId: cntr_hostile', `containerId: cntr_${'x'.repeat(70_000)}`),
        /: containerFiles\.containerId is 70005 characters long, over the 4096 a field takes/,
      ],
      [
        (y) => y.replace(/^baseUrl: (.*)$/m, `baseUrl: $1/${'v'.repeat(70_000)}`),
        /: baseUrl is \d+ characters long, over the 4096 a field takes/,
      ],
      [
        (y) => y.replace('containerId: cntr_hostile', 'containerId: "cntr_\\0hostile"'),
        /: containerFiles\.containerId holds a control or invisible character \(\\x00 at character 6\)/,
      ],
      [
        (y) => y.replace('model: hostile/model', 'model: "hostile/mo\\u200bdel"'),
        /: modelEndpoints\.model holds a control or invisible character \(\\u200b at character 11\)/,
      ],
      [
        (y) => y.replace('limit: limit,', 'limit: "li\\tmit",'),
        /: interns\.params\.limit holds a control or invisible character \(\\t at character 3\)/,
      ],
    ];
    for (const [edit, says] of cases) {
      const file = writeTarget(server.baseUrl, { edit });
      expect(readFileSync(file, 'utf8')).not.toBe(readFileSync(writeTarget(server.baseUrl), 'utf8'));
      const run = await runCli(['--target', file], { env: { ...HOSTILE_KEYS }, timeoutMs: 60_000 });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      const lines = stderrLines(run);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^conformance: target file \\S+${says.source}`));
      expect(lines[0]!.length).toBeLessThan(400);
    }
    expect(server.received).toEqual([]);
  } finally {
    await server.close();
  }
});

test('the longest value a field takes keeps every URL of the run within what the client sends', () => {
  // A base URL, a path parameter and a cursor of that length, with the documented path and query names.
  expect(3 * MAX_VALUE_CHARS + 200).toBeLessThan(MAX_URL_CHARS);
});
