/** scripts/bundle-command.ts: the compiled command's second stage, one module that is still the same program. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { firstStage } from '../scripts/bundle-command.ts';
import { BUILD_ENV } from './support/build.ts';

test('the bundled second stage imports every module of the first stage instead of copying it, and each inlined module reads beside its own file', async () => {
  const built = process.env[BUILD_ENV];
  test.skip(!built, 'needs the build of npm test (test/global-setup.ts)');
  const dist = join(built!, 'dist');
  const bundle = join(dist, 'cli/run-command.js');
  const text = readFileSync(bundle, 'utf8');
  const shared = await firstStage(dist);
  // Relative imports, static or dynamic: each is a module of the first stage (one instance per process).
  const relative = [...text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)].map((m) =>
    resolve(dirname(bundle), m[1]!),
  );
  expect(relative.length).toBeGreaterThan(0);
  for (const file of relative) expect(shared.has(file), file).toBe(true);
  expect(shared.has(join(dist, 'cli/fatal.js'))).toBe(true);
  expect(text).not.toMatch(/class Fatal\b|Fatal = class/);
  // A module inlined keeps its URL: import.meta.url only as the base of its own file's URL, and that file is there.
  const uses = [...text.matchAll(/import\.meta\.url/g)].length;
  const own = [...text.matchAll(/new URL\("(\.{1,2}\/[^"]+)", import\.meta\.url\)\.href/g)];
  expect(own.length).toBe(uses);
  for (const m of own) expect(existsSync(fileURLToPath(new URL(m[1]!, `file://${bundle}`))), m[1]).toBe(true);
  // The engine's code is in it (not loaded module by module).
  for (const name of [
    'MultiSearch = class',
    'function decodeJsonBody(',
    'async function startReference(',
    'async function runEngine(',
  ])
    expect(text).toContain(name);
});
