/**
 * A run refused at load ends Playwright's runner, started early (cli/conformance.ts), and waits for it
 * (cli/end-runner.ts): when the command exits, no child of it is left, defunct or running. A module
 * loaded into the command (NODE_OPTIONS --import) lists its children from /proc as it exits.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { runCli } from './support/harness.ts';
import { stderrLines, writeTargetYaml } from './support/hostile-server.ts';

const HOOK = `import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
if (/conformance\\.(ts|js)$/.test(process.argv[1] ?? '')) process.on('exit', () => {
  const children = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid) children.push(pid + ' ' + fields[0]);
    } catch {}
  }
  writeFileSync(process.env.CHILDREN_AT_EXIT, JSON.stringify(children));
});
`;

test('a target file refused at load (a ${VAR} outside the keys): the command leaves no child behind, defunct or not', async () => {
  test.skip(!existsSync('/proc/self/stat'), 'reads /proc (Linux)');
  const server = await startReference();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'runner-end-'));
    const hook = join(dir, 'children-at-exit.mjs');
    writeFileSync(hook, HOOK);
    const out = join(dir, 'children.json');
    const file = writeTargetYaml(
      referenceTargetYaml(server).replace(/^( {2}containerId:) .*$/m, '$1 "${SOME_SECRET}"'),
    );
    const run = await runCli(['--target', file], {
      env: {
        ...referenceKeyEnv(server),
        SOME_SECRET: 'x',
        CHILDREN_AT_EXIT: out,
        NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${hook}`.trim(),
      },
      timeoutMs: 60_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(stderrLines(run)).toEqual([expect.stringContaining('names the environment variable SOME_SECRET')]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([]);
  } finally {
    await server.close();
  }
});
