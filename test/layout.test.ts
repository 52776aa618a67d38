import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from './support/harness.ts';

// The layout shows the architecture (ARCHITECTURE.md, "Layers"): imports run one way,
// cli -> reports -> suites -> playwright -> core -> spec and generators; os/ (process and file
// primitives) is below them all, and reference/ stands apart from the suite (only the command line
// starts it), using os/ alone.
// generators/ holds fast-check arbitraries only; no file of checks grows past 400 lines.

/** What each folder may import, besides itself and node_modules. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  cli: ['reports', 'suites', 'playwright', 'core', 'spec', 'generators', 'reference', 'os'],
  reports: ['core', 'spec', 'os'],
  suites: ['playwright', 'core', 'spec', 'generators', 'os'],
  playwright: ['core', 'spec', 'os'],
  core: ['spec', 'os'],
  spec: ['os'],
  generators: [],
  reference: ['os'],
  os: [],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    relative(ROOT, resolve(dirname(file), m[1]!)),
  );
}

test('imports run one way: cli -> reports -> suites -> playwright -> core -> spec and generators, os/ below all; reference/ imports os/ alone', () => {
  const wrong: string[] = [];
  for (const folder of Object.keys(MAY_IMPORT)) {
    for (const file of sources(join(ROOT, folder))) {
      for (const target of importsOf(file)) {
        const top = target.split('/')[0]!;
        if (top === folder || !(top in MAY_IMPORT)) continue;
        if (!MAY_IMPORT[folder]!.includes(top)) wrong.push(`${relative(ROOT, file)} imports ${target}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});

test('generators/ holds fast-check arbitraries only, and no file of checks is over 400 lines', () => {
  const notArbitraries = sources(join(ROOT, 'generators')).filter(
    (f) => !relative(join(ROOT, 'generators'), f).startsWith('arbitraries/'),
  );
  expect(notArbitraries.map((f) => relative(ROOT, f))).toEqual([]);
  const long = sources(join(ROOT, 'suites/checks'))
    .map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const)
    .filter(([, n]) => n > 400);
  expect(long).toEqual([]);
});
