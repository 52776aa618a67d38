/**
 * `npm run build` (and `prepack`): the compiled package in dist/, which the `conformance` command runs
 * without tsx. Empties dist/ first, so a module deleted from the sources never ships from an older
 * build; compiles with tsconfig.build.json (tsc rewrites the `.ts` import specifiers to `.js` and emits
 * the JSON files the code imports); bundles the command's second stage (scripts/bundle-command.ts);
 * copies the data files the code reads at run time; then checks that every file a compiled module
 * names with `new URL('<relative path>', import.meta.url)` exists in dist/, so a new data file cannot
 * be forgotten here and found missing only by a user. It also records the
 * commit the package is built from (dist/build-info.json).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { BUILD_INFO } from '../cli/suite-files.ts';
import { bundleCommand } from './bundle-command.ts';
import { OWN_SCHEMA_FILES, standaloneValidators } from '../spec/schemas.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * `--root DIR`: build into DIR/dist with the package.json beside it, as the package lays them out
 * (npm test builds the command-line tests' copy there, test/global-setup.ts); else this tree's dist/.
 */
const rootArg = process.argv.indexOf('--root');
const PACKAGE_DIR = rootArg > 0 && process.argv[rootArg + 1] ? resolve(process.argv[rootArg + 1]!) : ROOT;
const DIST = join(PACKAGE_DIR, 'dist');

/** Read at run time, not imported: tsc does not emit them (spec/openapi.yaml, spec/requirements.yaml). */
const DATA_FILES = /\.(ya?ml)$/;
const DATA_DIRS = ['spec'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

rmSync(DIST, { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
try {
  execFileSync(
    process.execPath,
    [tsc, '-p', join(ROOT, 'tsconfig.build.json'), ...(PACKAGE_DIR === ROOT ? [] : ['--outDir', DIST])],
    { stdio: 'inherit' },
  );
} catch {
  // tsc has printed the errors: a tree that does not type-check is not packed.
  process.stderr.write('build: tsc reported errors (above); dist/ is incomplete\n');
  process.exit(1);
}

if (PACKAGE_DIR !== ROOT) cpSync(join(ROOT, 'package.json'), join(PACKAGE_DIR, 'package.json'));
for (const dir of DATA_DIRS) {
  for (const file of filesUnder(join(ROOT, dir)).filter((f) => DATA_FILES.test(f))) {
    cpSync(file, join(DIST, relative(ROOT, file)));
    // Parsed once here: the run reads the JSON (spec/data-file.ts), the YAML stays to be read.
    writeFileSync(
      join(DIST, relative(ROOT, file)).replace(DATA_FILES, '.json'),
      JSON.stringify(parse(readFileSync(file, 'utf8'))),
    );
  }
}

// The command's second stage as one module (scripts/bundle-command.ts): Node 20 compiles ES modules
// one by one at every run.
await bundleCommand(DIST);

// The validators a run uses, compiled now (spec/schemas.ts): the run then loads no Ajv and compiles
// nothing. The suite's own schemas are found by their $id (core/target/target.ts, cli/diff.ts).
const ownSchema = (file: string): object => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as object;
writeFileSync(join(DIST, 'spec', 'validators.cjs'), standaloneValidators(OWN_SCHEMA_FILES.map(ownSchema)));

// Installed, the package has no git checkout: the commit it was built from is recorded here
// (cli/suite-files.ts reads it). A tree with uncommitted changes says so.
function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}
const commit = git(['rev-parse', '--short', 'HEAD']);
const dirty = commit !== undefined && git(['status', '--porcelain', '--untracked-files=no']) !== '';
writeFileSync(
  join(DIST, BUILD_INFO),
  `${JSON.stringify({ commit: commit ? `${commit}${dirty ? '-dirty' : ''}` : 'unknown' })}\n`,
);

const missing: string[] = [];
for (const file of filesUnder(DIST).filter((f) => f.endsWith('.js'))) {
  for (const m of readFileSync(file, 'utf8').matchAll(/new URL\((['"])(\.{1,2}\/[^'"]*)\1, import\.meta\.url\)/g)) {
    const target = fileURLToPath(new URL(m[2]!, `file://${file}`));
    if (!existsSync(target)) missing.push(`${relative(ROOT, file)} reads ${m[2]} (${relative(ROOT, target)})`);
  }
}
if (missing.length) {
  process.stderr.write(`build: files read at run time are missing from dist/:\n  ${missing.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write(`build: ${relative(ROOT, DIST) || '.'} written (${filesUnder(DIST).length} files)\n`);
