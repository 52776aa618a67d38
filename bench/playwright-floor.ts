/**
 * Playwright's own start, measured alone: `playwright test` of one empty test, its runner and one
 * worker, with the compile cache the command gives them (cli/cjs-compile-cache.ts on Node 20, Node's
 * own from 22.1). Every command run of the suite pays it before its first test reports, so it is the
 * floor of the default run's wall as long as the checks run as Playwright tests.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cjsCompileCacheNodeOptions, NODE_HAS_OWN_COMPILE_CACHE } from '../cli/cjs-compile-cache.ts';
import { nodeOfSuite } from './commands.ts';
import { ROOT } from './root.ts';

/** The command line of that run, its config and test written into `dir`. */
export function playwrightFloorArgv(dir: string): string[] {
  const require = createRequire(join(ROOT, 'package.json'));
  const cli = require.resolve('@playwright/test/cli');
  // The test requires the runner's own @playwright/test, by path: the scratch folder has no node_modules.
  const playwrightTest = require.resolve('@playwright/test');
  writeFileSync(
    join(dir, 'floor.spec.cjs'),
    `const { test } = require(${JSON.stringify(playwrightTest)});\ntest('empty', () => {});\n`,
  );
  const config = join(dir, 'floor.config.mjs');
  writeFileSync(
    config,
    `export default ${JSON.stringify({ testDir: dir, testMatch: 'floor.spec.cjs', workers: 1, reporter: 'dot', outputDir: join(dir, 'floor-output') })};\n`,
  );
  const cache = NODE_HAS_OWN_COMPILE_CACHE
    ? `NODE_COMPILE_CACHE=${process.env['NODE_COMPILE_CACHE'] || join(tmpdir(), 'node-compile-cache')}`
    : `NODE_OPTIONS=${cjsCompileCacheNodeOptions() ?? ''}`;
  return ['env', cache, nodeOfSuite(), cli, 'test', '-c', config];
}
