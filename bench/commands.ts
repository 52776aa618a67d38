/**
 * The ways a user starts the suite, as the bench spawns them: `npm run conformance` (npm, then tsx
 * compiling TypeScript on the fly), tsx alone (what npm runs, without npm's own start-up), and the
 * compiled package (`node dist/cli/main.js`, the `conformance` command of an installed package).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ROOT } from './root.ts';

export type SuiteCommand = 'npm' | 'tsx' | 'dist';

export const TSX_CLI = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
export const DIST_MAIN = join(ROOT, 'dist', 'cli', 'main.js');

/** The compiled command measured: the repository's dist/, or another build of it (--dist-main, e.g. an installed package). */
let distMain = DIST_MAIN;

export function useDistMain(path: string): void {
  distMain = path;
}

/** The Node.js that runs the suite's commands: the bench's own, or another one (--node, e.g. a newer release). */
let suiteNode: string | undefined;

export function useNode(path: string | undefined): void {
  suiteNode = path;
}

/** The node binary a suite command runs on. */
export function nodeOfSuite(): string {
  return suiteNode ?? process.execPath;
}

/** The package's programmatic entry (`runConformance`) of the compiled build measured: dist/index.js beside dist/cli/. */
export function distIndex(): string {
  return join(dirname(dirname(distMain)), 'index.js');
}

/** How a command is shown in the tables. */
export function commandLabel(command: SuiteCommand): string {
  if (command === 'npm') return '`npm run conformance`';
  if (command === 'tsx') return '`tsx cli/conformance.ts`';
  return `\`node ${distMain.startsWith(ROOT) ? distMain.slice(ROOT.length) : distMain}\``;
}

/** The program and its arguments that run the suite with `args` by `command`. */
export function suiteArgv(command: SuiteCommand, args: readonly string[]): string[] {
  switch (command) {
    case 'npm': {
      // --prefix: the bench runs its contenders in a scratch folder (what they write stays there).
      const npm = ['npm', '--prefix', ROOT, 'run', '--silent', 'conformance', '--', ...args];
      // npm and its script run the `node` found first on PATH.
      return suiteNode ? ['env', `PATH=${dirname(suiteNode)}${delimiter}${process.env['PATH'] ?? ''}`, ...npm] : npm;
    }
    case 'tsx':
      return [nodeOfSuite(), TSX_CLI, join(ROOT, 'cli', 'conformance.ts'), ...args];
    case 'dist':
      return [nodeOfSuite(), distMain, ...args];
  }
}

/** The commit dist/ was built from (dist/build-info.json), to tell a stale build. */
export function distBuildCommit(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'dist', 'build-info.json'), 'utf8')) as { commit: string }).commit;
  } catch {
    return undefined;
  }
}

/** When dist/ was last built (build-info.json's mtime), to tell a rebuild during the bench. */
export function distBuildTime(): number | undefined {
  try {
    return statSync(join(ROOT, 'dist', 'build-info.json')).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The folders the build compiles (tsconfig.build.json `include`) and the root's own modules. */
const SOURCE_DIRS = ['cli', 'core', 'generators', 'os', 'playwright', 'spec', 'reference', 'reports', 'suites'];

/** A source file changed after dist/ was built: the compiled command would run other code than the tree's. */
function distStale(): boolean {
  const built = distBuildTime();
  if (built === undefined) return true;
  const newer = (file: string) => /\.(ts|ya?ml|json)$/.test(file) && statSync(file).mtimeMs > built;
  if (readdirSync(ROOT).some((f) => f.endsWith('.ts') && newer(join(ROOT, f)))) return true;
  return SOURCE_DIRS.some((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }).some(
      (e) => e.isFile() && newer(join(e.parentPath, e.name)),
    ),
  );
}

/**
 * dist/ as the project builds it (`npm run build`): built here when missing, older than a source
 * file, or when asked, so the compiled command runs the tree under test. Returns a problem to report.
 */
export function ensureDist(rebuild: boolean, log: (s: string) => void): string | undefined {
  const why = rebuild
    ? '--build'
    : !existsSync(DIST_MAIN)
      ? 'dist/cli/main.js is missing'
      : distStale()
        ? 'a source file is newer than dist/'
        : undefined;
  if (!why) return undefined;
  log(`building dist/ with \`npm run build\` (${why})`);
  try {
    execFileSync('npm', ['run', '--silent', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    return undefined;
  } catch (e) {
    const err = e as { stderr?: Buffer; stdout?: Buffer; message: string };
    const text = `${err.stderr?.toString() ?? ''}${err.stdout?.toString() ?? ''}`
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('npm warn'))
      .slice(-2)
      .join(' / ');
    return `\`npm run build\` failed: ${text || err.message.split('\n')[0]}${existsSync(DIST_MAIN) ? ' (dist/ was written; the compiled command is measured as built)' : ''}`;
  }
}
