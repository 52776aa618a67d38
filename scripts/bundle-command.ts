/**
 * The compiled command's second stage as one module (scripts/build-dist.ts calls it after tsc).
 *
 * `conformance` loads in two stages (cli/conformance.ts): what starting Playwright's runner needs,
 * then cli/run-command.js, which brings the target's reading, the reference, the engine, every check
 * and judge and the reports: about 150 ES modules. Node 20 has no compile cache for ES modules, and
 * resolving, linking and compiling them one by one takes the command's CPU while Playwright's runner
 * and worker start beside it, on a machine whose cores are all busy then. So dist/cli/run-command.js
 * is replaced by a bundle of that graph (esbuild), with two rules that keep it the same program:
 *
 * - A module of the first stage (cli/main.js's graph without its dynamic imports: the stop-signal
 *   handlers, the Fatal class a caller tests with instanceof) is imported, never copied: one
 *   instance of each module per process, as unbundled.
 * - Each inlined module keeps its own URL: its `import.meta.url` is written as its original file's URL,
 *   computed from the bundle's, so what it reads beside itself (spec/validators.cjs, the catalogue,
 *   the check sources) and what it resolves (createRequire) is found where it is unbundled.
 *
 * Packages (node_modules) stay imports, and the unbundled modules stay in dist/: Playwright's runner
 * and worker and the programmatic API load them.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const IMPORT_META_URL = /\bimport\.meta\.url\b/g;

/** `target` as a relative import specifier from a module in `fromDir`. */
function specifier(fromDir: string, target: string): string {
  const rel = relative(fromDir, target).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * The first stage: what cli/main.js and the run's program it imports (cli/conformance.js) load
 * without a dynamic import.
 */
export async function firstStage(dist: string): Promise<Set<string>> {
  const dynamicOnly: Plugin = {
    name: 'dynamic-imports-external',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (a) =>
        a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined,
      );
    },
  };
  const r = await build({
    entryPoints: [resolve(dist, 'cli/main.js'), resolve(dist, 'cli/conformance.js')],
    outdir: dist,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
    plugins: [dynamicOnly],
  });
  return new Set(Object.keys(r.metafile.inputs).map((f) => resolve(f)));
}

export async function bundleCommand(dist: string): Promise<void> {
  const entry = resolve(dist, 'cli/run-command.js');
  const bundleDir = dirname(entry);
  const shared = await firstStage(dist);
  for (const must of ['cli/fatal.js', 'cli/stop-signals.js']) {
    if (!shared.has(resolve(dist, must)))
      throw new Error(`bundle: the command's first stage no longer loads ${must}: review scripts/bundle-command.ts`);
  }
  const plugin: Plugin = {
    name: 'one-program',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (a) => {
        const target = resolve(a.resolveDir, a.path);
        return shared.has(target) ? { path: specifier(bundleDir, target), external: true } : undefined;
      });
      b.onLoad({ filter: /\.js$/ }, (a) => {
        const source = readFileSync(a.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const own = `new URL(${JSON.stringify(specifier(bundleDir, a.path))}, import.meta.url).href`;
        return { contents: source.replace(IMPORT_META_URL, own), loader: 'js' };
      });
    },
  };
  await build({
    entryPoints: [entry],
    outfile: entry,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [plugin],
  });
}
