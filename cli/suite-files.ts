/**
 * Where the suite's own files are, and which suite this is, whether it runs from the sources (a clone:
 * tsx, Playwright's loader) or compiled (dist/ of the installed package, `npx conformance`).
 *
 * The build (scripts/build-dist.ts) keeps the repository's layout under dist/: every module and data
 * file is at its repository path below CODE_ROOT, with `.js` for `.ts`. Two things differ once
 * installed: package.json is above dist/, and there is no git checkout, so the build writes the commit
 * it was made from into dist/build-info.json.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** `.ts` from the sources, `.js` compiled: the extension of every module of this tree. */
export const MODULE_EXT = extname(here);

/** Root of the module tree: the clone, or dist/ of the package. */
export const CODE_ROOT = dirname(dirname(here));

/** The directory of package.json: the clone, or the installed package (the parent of dist/). */
export const PACKAGE_ROOT = MODULE_EXT === '.js' ? dirname(CODE_ROOT) : CODE_ROOT;

/**
 * True when the suite runs from a package installed in a project (under node_modules), not from a
 * clone; or when its caller says the user's commands are the installed ones (CONFORMANCE_INSTALLED_COMMANDS=1:
 * the Action, which may build the suite from its own checkout, runs in the user's repository, where
 * a clone's `npm run conformance` has no script).
 */
export const INSTALLED =
  PACKAGE_ROOT.split(/[\\/]/).includes('node_modules') || process.env['CONFORMANCE_INSTALLED_COMMANDS'] === '1';

/**
 * A command of the suite as the user can type it where they are (every printed command runs where
 * it is printed): `npx conformance …` in a project that installed the package, the npm scripts
 * in a clone. `sub` is the command's subcommand.
 */
export function commandLine(sub: 'run' | 'reference' | 'diff' | 'merge' | 'judge' | 'verify' = 'run'): string {
  if (INSTALLED) return sub === 'run' ? 'npx conformance' : `npx conformance ${sub}`;
  return {
    run: 'npm run conformance --',
    reference: 'npm run reference --',
    diff: 'npm run conformance:diff --',
    merge: 'npm run conformance:merge --',
    judge: 'npm run conformance:judge --',
    verify: 'npm run conformance:verify --',
  }[sub];
}

/** Name of the file the build writes into dist/ (see scripts/build-dist.ts). */
export const BUILD_INFO = 'build-info.json';

/** A module of the suite by its repository path without extension: `suiteModule('playwright.config')`. */
export function suiteModule(path: string): string {
  return join(CODE_ROOT, path + MODULE_EXT);
}

export function suiteVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The commit of the suite: recorded by the build when compiled (an installed package may sit inside
 * the user's own repository, whose HEAD says nothing about the suite), else asked of git.
 */
export function suiteCommit(): string {
  if (MODULE_EXT === '.js') {
    try {
      return (JSON.parse(readFileSync(join(CODE_ROOT, BUILD_INFO), 'utf8')) as { commit: string }).commit;
    } catch {
      return 'unknown';
    }
  }
  try {
    return (
      execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}
