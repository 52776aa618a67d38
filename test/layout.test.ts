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

// ARCHITECTURE.md draws this house: its "Layers" go in the order MAY_IMPORT allows, its "Folders" name every
// folder of the layers and every sub-folder of core/, and its "Rules" are the ones the code cites by name.
const ARCHITECTURE = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

function part(heading: string): string {
  const start = ARCHITECTURE.indexOf(`\n## ${heading}\n`);
  expect(start, `ARCHITECTURE.md has "## ${heading}"`).toBeGreaterThanOrEqual(0);
  const next = ARCHITECTURE.indexOf('\n## ', start + 1);
  return ARCHITECTURE.slice(start, next < 0 ? undefined : next);
}

test('ARCHITECTURE.md: the layers in the order imports run, every folder and every sub-folder of core/ described', () => {
  const drawing = /```\n([\s\S]*?)```/.exec(part('Layers'))![1]!;
  const order = ['cli/', 'reports/', 'suites/', 'playwright/', 'core/', 'spec/', 'generators/', 'os/', 'reference/'];
  const at = order.map((f) => drawing.search(new RegExp(`(^|[^\\w/])${f}`, 'm')));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  // Each layer may import only what is drawn below it (os/ below all; reference/ apart).
  for (const [i, folder] of order.slice(0, 7).entries())
    for (const below of MAY_IMPORT[folder.slice(0, -1)]!)
      if (below !== 'reference' && below !== 'os')
        expect(order.indexOf(`${below}/`), `${folder} -> ${below}`).toBeGreaterThan(i);

  const folders = part('Folders');
  const subfolders = (dir: string) =>
    readdirSync(join(ROOT, dir)).filter((n) => statSync(join(ROOT, dir, n)).isDirectory() && n !== 'fixtures');
  const expected = [
    ...Object.keys(MAY_IMPORT).filter((f) => f !== 'core' && f !== 'generators'),
    ...subfolders('core').map((n) => `core/${n}`),
    ...subfolders('suites').map((n) => `suites/${n}`),
    ...subfolders('cli').map((n) => `cli/${n}`),
    ...subfolders('generators').map((n) => `generators/${n}`),
  ];
  expect(expected.filter((f) => !folders.includes(`| \`${f}/\` |`))).toEqual([]);
});

test('ARCHITECTURE.md: every rule the code cites by name is a rule of its "Rules", and every rule there is cited', () => {
  const rules = [...part('Rules').matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
  expect(rules).toEqual([
    'Verdicts in both directions',
    'Judge every response',
    'No green without evidence',
    'Hostile input',
    'Bad input exits 2',
  ]);
  const cited = new Set<string>();
  for (const folder of [...Object.keys(MAY_IMPORT), 'test', 'bench', 'scripts'])
    for (const file of sources(join(ROOT, folder)))
      for (const m of readFileSync(file, 'utf8').matchAll(/\b[Rr]ule "([^"]+)"/g)) cited.add(m[1]!);
  expect([...cited].filter((r) => !rules.includes(r))).toEqual([]);
  expect(rules.filter((r) => !cited.has(r))).toEqual([]);
  // No comment cites a rule by a number any more.
  const numbered = Object.keys(MAY_IMPORT)
    .flatMap((folder) => sources(join(ROOT, folder)))
    .filter((file) => /\bprinciple \d\b/i.test(readFileSync(file, 'utf8')))
    .map((f) => relative(ROOT, f));
  expect(numbered).toEqual([]);
});
