import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSourceOption } from './node-options.ts';

/**
 * A compile cache for Playwright's runner and worker on Node 20, which has none of its own
 * (module.enableCompileCache is Node 22.1's). Both processes load megabytes of Playwright's CommonJS
 * bundles and compile them again at every run, on the critical path of a run (the runner loads, then
 * starts its worker, which loads). Each
 * CommonJS module is compiled as a vm.Script with V8's code cache, written after the module first
 * ran (so it holds the functions its loading compiled too) and read at the next run.
 *
 * Node 20's V8 keeps, in code read back from a cache, the host-defined options of the process that
 * wrote it, so an `import()` in such code fails (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). A module
 * whose text holds `import(` anywhere (an eval'd string included) is therefore compiled by Node as
 * usual, unless its exact text is one of AUDITED_BUNDLES: files read one by one, whose `import(` are
 * in strings and comments or on paths that a run's runner and worker never take.
 */

/**
 * Playwright 1.65.1's bundles that hold `import(` and are cached anyway, by the SHA-256 of their text
 * (another version's text is another hash: compiled as usual until read again, and
 * test/compile-cache.test.ts says so). Why each `import(` never runs in a run's runner or worker
 * (which use no browser, no request context and no snapshot of Playwright's; the engine runs in the
 * command's process, which does not load this hook):
 */
export const AUDITED_BUNDLES: readonly { file: string; sha256: string; why: string }[] = [
  {
    file: 'playwright-core/lib/coreBundle.js',
    sha256: '874451b4e7acf90cda4330be42db2259c9e5036c22150f18016f04768434234c',
    why: '`new Function(\'return import("vite")\')`: component testing only',
  },
  {
    file: 'playwright-core/lib/utilsBundle.js',
    sha256: '897440163be29ea4c73c6203ce2fc244aebb2916839d37b8591a94b72d929a0a',
    why: '`import("kerberos")`: an HTTP proxy asking for Negotiate authentication of a request context; `import("node:crypto")`: only where globalThis.crypto is missing (Node 20 has it); one in a comment',
  },
  {
    file: 'playwright/lib/transform/babelBundle.js',
    sha256: '116fba88c95abd3c21cafbe67ef0e7b34e106d4a47eaa5ce7709bff82a125867',
    why: "in parser messages, a code builder's `import()` method and `_import` names; the one `import(filepath)` is babel's loader of .mjs config files and named plugins, and Playwright's transform passes `configFile: false`, `babelrc: false` and its plugins as modules",
  },
  {
    file: 'playwright/lib/matchers/expect.js',
    sha256: '295d682462a9abe96db1905ec5f5f84c0997eaee1beb143f0b650af2b08d9400',
    why: "`import(` in jest's importModule: snapshot resolvers and transformers, which no check uses",
  },
];

/** Whether this Node has a compile cache of its own (module.enableCompileCache, Node 22.1 and later: cli/compile-cache.ts turns it on). */
export const NODE_HAS_OWN_COMPILE_CACHE =
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/**
 * The cache's size bound. One Playwright install's entries take about 4.5 MB, and each new install
 * path (a project, a test's temporary package) adds its own: beyond this, the entries written longest
 * ago are removed (by the process that has just written one, so a run that reads the cache pays
 * nothing), down to three quarters of it.
 */
export const CJS_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** Where the cache is: NODE_COMPILE_CACHE's directory (Node's own variable) or Node's default under the temporary directory. */
export function cjsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(
    env['NODE_COMPILE_CACHE'] || join(tmpdir(), 'node-compile-cache'),
    `conformance-cjs-${process.version}-${process.arch}`,
  );
}

/**
 * Installs the cache in the process that runs it. Self-contained (no name from this module's scope):
 * its source travels to Playwright's processes in NODE_OPTIONS (cjsCompileCacheNodeOptions), and what
 * it needs comes as arguments.
 */
export function installCjsCompileCache(
  deps: {
    Module: {
      prototype: { _compile: (content: string, filename: string, ...rest: unknown[]) => unknown };
      _resolveFilename: (...a: unknown[]) => string;
      _resolveLookupPaths: (...a: unknown[]) => unknown;
      _extensions: unknown;
      _cache: unknown;
    };
    vm: typeof import('node:vm');
    fs: typeof import('node:fs');
    path: typeof import('node:path');
    crypto: typeof import('node:crypto');
  },
  dir: string,
  audited: readonly string[],
  maxBytes: number,
): void {
  const { Module, vm, fs, path, crypto } = deps;
  // Only a directory of this user's that no one else may write: what is read from it is run as code.
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return;
  } catch {
    return;
  }
  const trusted = new Set(audited);
  // The entries this process wrote: kept when the cache is pruned (they are what it runs now).
  const written = new Set<string>();
  let pruned = false;
  const prune = () => {
    if (pruned) return;
    pruned = true;
    try {
      const entries = fs.readdirSync(dir).map((name) => {
        const file = path.join(dir, name);
        const stat = fs.lstatSync(file);
        return { file, size: stat.size, mtimeMs: stat.mtimeMs };
      });
      let total = entries.reduce((sum, e) => sum + e.size, 0);
      if (total <= maxBytes) return;
      entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
      for (const e of entries) {
        if (total <= maxBytes * 0.75) break;
        if (written.has(e.file)) continue;
        try {
          fs.unlinkSync(e.file);
          total -= e.size;
        } catch {
          // Removed by another process pruning at the same time.
        }
      }
    } catch {
      // A cache that cannot be pruned is a larger cache, nothing more.
    }
  };
  const original = Module.prototype._compile;
  Module.prototype._compile = function (
    this: { exports: unknown; require: (id: string) => unknown },
    content: string,
    filename: string,
    ...rest: unknown[]
  ): unknown {
    const sha = crypto.createHash('sha256').update(content).digest('hex');
    if (content.includes('import(') && !trusted.has(sha)) return original.call(this, content, filename, ...rest);
    const entry = path.join(dir, crypto.createHash('sha256').update(filename).update('\0').update(sha).digest('hex'));
    let cachedData: Buffer | undefined;
    try {
      cachedData = fs.readFileSync(entry);
    } catch {
      cachedData = undefined;
    }
    // The wrapper on a line of its own, and the line offset back by one: positions in stack traces are the file's.
    const body = content.startsWith('#!') ? `//${content.slice(2)}` : content;
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${body}\n})`, {
      filename,
      lineOffset: -1,
      ...(cachedData ? { cachedData } : {}),
    });
    const require = Object.assign((id: string) => this.require(id), {
      resolve: Object.assign(
        (request: string, options?: unknown) => Module._resolveFilename(request, this, false, options),
        { paths: (request: string) => Module._resolveLookupPaths(request, this) },
      ),
      main: process.mainModule,
      extensions: Module._extensions,
      cache: Module._cache,
    });
    const result = (script.runInThisContext({ displayErrors: true }) as (...a: unknown[]) => unknown).call(
      this.exports,
      this.exports,
      require,
      this,
      filename,
      path.dirname(filename),
    );
    if (!cachedData || script.cachedDataRejected) {
      try {
        const temp = `${entry}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
        fs.renameSync(temp, entry);
        written.add(entry);
        prune();
      } catch {
        // A cache that cannot be written is a slower next run, nothing more.
      }
    }
    return result;
  };
}

/**
 * NODE_OPTIONS that install the cache in Playwright's runner and (inherited) its worker: on Node 20
 * only (Node 22.1 and later have their own, cli/compile-cache.ts), and not when
 * NODE_DISABLE_COMPILE_CACHE=1 (Node's switch for its own). Undefined when there is nothing to add.
 */
export function cjsCompileCacheNodeOptions(
  env: NodeJS.ProcessEnv = process.env,
  maxBytes: number = CJS_CACHE_MAX_BYTES,
): string | undefined {
  if (NODE_HAS_OWN_COMPILE_CACHE) return undefined;
  if (env['NODE_DISABLE_COMPILE_CACHE'] === '1') return undefined;
  const audited = AUDITED_BUNDLES.map((b) => b.sha256);
  const source = [
    // The function's source is as its loader compiled it: esbuild (tsx, a clone's runs) names arrow
    // functions through a helper of its module scope, which the data: URL must define too.
    'const __name = (target) => target;',
    "import Module from 'node:module';",
    "import vm from 'node:vm';",
    "import fs from 'node:fs';",
    "import path from 'node:path';",
    "import crypto from 'node:crypto';",
    `(${installCjsCompileCache.toString()})({ Module, vm, fs, path, crypto }, ${JSON.stringify(cjsCacheDir(env))}, ${JSON.stringify(audited)}, ${maxBytes});`,
  ].join('\n');
  return importSourceOption(source);
}
