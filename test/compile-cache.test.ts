/**
 * cli/cjs-compile-cache.ts: the compile cache of Playwright's runner and worker on Node 20. A module
 * read back from it behaves as compiled afresh (exports, require, positions in stack traces); a module
 * whose `import(` could run is never read from it; a directory others may write is not used.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  AUDITED_BUNDLES,
  cjsCacheDir,
  cjsCompileCacheNodeOptions,
  NODE_HAS_OWN_COMPILE_CACHE,
} from '../cli/cjs-compile-cache.ts';
import { ROOT } from './support/harness.ts';

/** An audited bundle's installed text: playwright/… beside @playwright/test, playwright-core/… beside playwright (none is exported). */
function installedText(file: string): string {
  const testPackage = createRequire(import.meta.url).resolve('@playwright/test/package.json');
  const playwrightPackage = createRequire(testPackage).resolve('playwright/package.json');
  const [pkg, ...rest] = file.split('/');
  const root = dirname(
    pkg === 'playwright' ? playwrightPackage : createRequire(playwrightPackage).resolve('playwright-core/package.json'),
  );
  return readFileSync(join(root, ...rest), 'utf8');
}

test('every audited bundle is the installed Playwright file it was read in, and holds the `import(` it was read for', () => {
  for (const bundle of AUDITED_BUNDLES) {
    const text = installedText(bundle.file);
    const sha = createHash('sha256').update(text).digest('hex');
    // A new Playwright's bundle is not read from the cache until it is read (audited) again: say so here.
    expect(
      sha,
      `${bundle.file} changed (Playwright was upgraded?): read its \`import(\` again, then update AUDITED_BUNDLES in cli/cjs-compile-cache.ts`,
    ).toBe(bundle.sha256);
    expect(text.includes('import('), bundle.file).toBe(true);
    expect(bundle.why.length, bundle.file).toBeGreaterThan(20);
  }
});

test('off where Node has its own compile cache, and off with NODE_DISABLE_COMPILE_CACHE=1', () => {
  expect(cjsCompileCacheNodeOptions({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
  if (NODE_HAS_OWN_COMPILE_CACHE) expect(cjsCompileCacheNodeOptions({})).toBeUndefined();
  else expect(cjsCompileCacheNodeOptions({})).toMatch(/^--import=data:text\/javascript,/);
});

test.describe('on Node 20', () => {
  test.skip(
    NODE_HAS_OWN_COMPILE_CACHE,
    `Node ${process.version} has module.enableCompileCache: the suite uses Node's own cache (cli/compile-cache.ts) and this one is never installed`,
  );

  let dir: string;
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-compile-cache-'));
    mkdirSync(join(dir, 'app'));
    // A CommonJS program: a module that requires another, reads require.resolve, and reads its own position in a stack trace.
    writeFileSync(
      join(dir, 'app', 'main.cjs'),
      [
        "const { where } = require('./lib.cjs');",
        "const dynamic = require('./dynamic.cjs');",
        'dynamic.load().then((os) => {',
        "  process.stdout.write(JSON.stringify({ where: where(), resolved: require.resolve('./lib.cjs'), file: __filename, os: typeof os.cpus }));",
        '});',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'app', 'lib.cjs'),
      [
        '#!/usr/bin/env node',
        'exports.where = () => {',
        '  const line = new Error().stack.split("\\n")[1];',
        '  return line.slice(line.lastIndexOf("lib.cjs")).replace(")", "");',
        '};',
      ].join('\n'),
    );
    // `import(` that runs: never read from the cache (Node 20 keeps the writing process's loader in cached code).
    writeFileSync(join(dir, 'app', 'dynamic.cjs'), "exports.load = () => import('node:os');\n");
  });
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (
    env: NodeJS.ProcessEnv = {},
    nodeOptions: (env: NodeJS.ProcessEnv) => string | undefined = cjsCompileCacheNodeOptions,
  ): { out: unknown; entries: Map<string, { ino: number; mtimeMs: number }> } => {
    const full = { ...process.env, NODE_COMPILE_CACHE: join(dir, 'cache'), ...env };
    const out = JSON.parse(
      execFileSync(process.execPath, [join(dir, 'app', 'main.cjs')], {
        env: { ...full, NODE_OPTIONS: nodeOptions(full) ?? '' },
        encoding: 'utf8',
      }),
    ) as unknown;
    const cache = cjsCacheDir(full);
    let names: string[] = [];
    try {
      names = readdirSync(cache);
    } catch {
      names = [];
    }
    return {
      out,
      entries: new Map(
        names.map((n) => {
          const { ino, mtimeMs } = statSync(join(cache, n));
          return [n, { ino, mtimeMs }];
        }),
      ),
    };
  };

  test('a module read back from the cache runs as compiled afresh; one with `import(` is compiled as usual', () => {
    const expected = {
      where: 'lib.cjs:3:16',
      resolved: join(dir, 'app', 'lib.cjs'),
      file: join(dir, 'app', 'main.cjs'),
      os: 'function',
    };
    const first = run();
    expect(first.out).toEqual(expected);
    // main.cjs and lib.cjs written, dynamic.cjs not; nothing half-written left.
    expect(first.entries.size).toBe(2);
    const second = run();
    expect(second.out).toEqual(expected);
    // Read and accepted by V8: a rejected entry would have been written again (a new file by rename).
    for (const [name, stat] of first.entries) expect(second.entries.get(name), name).toEqual(stat);
  });

  test('an entry V8 rejects is compiled afresh and written again', () => {
    run();
    const cache = cjsCacheDir({ NODE_COMPILE_CACHE: join(dir, 'cache') });
    for (const name of readdirSync(cache)) writeFileSync(join(cache, name), 'not a code cache');
    const again = run();
    expect(again.out).toMatchObject({ where: 'lib.cjs:3:16', os: 'function' });
    for (const name of readdirSync(cache)) expect(readFileSync(join(cache, name), 'utf8')).not.toBe('not a code cache');
  });

  test('past its size bound, a process that writes an entry removes the entries written longest ago, never its own, down to three quarters of the bound', () => {
    const cache = cjsCacheDir({ NODE_COMPILE_CACHE: join(dir, 'cache') });
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    const entry = (name: string, mtimeS: number) => {
      const file = join(cache, name);
      writeFileSync(file, 'x'.repeat(3000));
      utimesSync(file, mtimeS, mtimeS);
      return name;
    };
    // Entries of other installs: four written long ago, one by a process still running (after this one's).
    const old = ['a', 'b', 'c', 'd'].map((n, i) => entry(`old-${n}`, 1_000_000 + i));
    const later = entry('later', Date.now() / 1000 + 3600);
    const bound = 4_000;
    const r = run({}, (env) => cjsCompileCacheNodeOptions(env, bound));
    expect(r.out).toMatchObject({ where: 'lib.cjs:3:16', os: 'function' });
    const left = readdirSync(cache);
    const own = left.filter((n) => !old.includes(n) && n !== later);
    expect(own, 'the entries this process wrote').toHaveLength(2);
    for (const n of [...old, later]) expect(left, n).not.toContain(n);
    // Under the bound nothing is removed (one entry removed first, so that the next run writes one).
    writeFileSync(join(cache, 'small'), 'x');
    rmSync(join(cache, own[0]!));
    const again = run({}, (env) => cjsCompileCacheNodeOptions(env, 1_000_000));
    expect([...again.entries.keys()].sort()).toEqual([...own, 'small'].sort());
  });

  test('a cache directory others may write is not used', () => {
    const cache = cjsCacheDir({ NODE_COMPILE_CACHE: join(dir, 'cache') });
    mkdirSync(cache, { recursive: true });
    chmodSync(cache, 0o777);
    const r = run();
    expect(r.out).toMatchObject({ where: 'lib.cjs:3:16', os: 'function' });
    expect(r.entries.size).toBe(0);
  });

  test("the options a clone's command makes (its modules compiled by tsx) install the same cache", () => {
    // tsx compiles the function whose source the options carry: what its compiler adds must run too.
    const fromTsx = (env: NodeJS.ProcessEnv) =>
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(join(ROOT, 'cli', 'cjs-compile-cache.ts'))}); process.stdout.write(m.cjsCompileCacheNodeOptions() ?? '')`,
        ],
        { cwd: ROOT, env, encoding: 'utf8' },
      );
    const expected = { where: 'lib.cjs:3:16', os: 'function' };
    const first = run({}, fromTsx);
    expect(first.out).toMatchObject(expected);
    expect(first.entries.size).toBe(2);
    const second = run({}, fromTsx);
    expect(second.out).toMatchObject(expected);
    for (const [name, stat] of first.entries) expect(second.entries.get(name), name).toEqual(stat);
  });
});
