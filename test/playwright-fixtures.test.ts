import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { expect, test } from '@playwright/test';
import { nodeStackFormatInCompiledWorker, REPLACED_AUTO_FIXTURES } from '../playwright/playwright-tests.ts';

// playwright/playwright-tests.ts replaces Playwright's automatic per-test fixtures by name. If an upgrade renames
// them, the replacement would silently stop applying (traces possible again, the run slower): this
// fails first.
test('the automatic fixtures the checks replace are still automatic fixtures of the installed Playwright', () => {
  const entry = createRequire(import.meta.url).resolve('playwright/test');
  const source = readFileSync(join(dirname(entry), 'lib', 'index.js'), 'utf8');
  for (const name of REPLACED_AUTO_FIXTURES) {
    const at = source.indexOf(`  ${name}: [async`);
    expect(at, `${name} is defined in playwright/lib/index.js`).toBeGreaterThan(0);
    const definition = source.slice(at, source.indexOf('\n  }, {', at) + 80);
    expect(definition, `${name} is automatic`).toMatch(/auto: "all-hooks-included"/);
  }
});

// In a worker of the compiled package, Node formats stacks (playwright/playwright-tests.ts): Playwright's
// source-map-support maps nothing there. Under tsx, and in the runner, Playwright's formatting stays.
test("a compiled worker formats stacks as Node does; a tsx worker and the runner keep Playwright's", () => {
  const installed = Error.prepareStackTrace;
  const sourceMapped = (error: Error, frames: NodeJS.CallSite[]) => `mapped ${error.message} ${frames.length}`;
  try {
    const stackOf = () => new Error('x').stack!;
    for (const [env, url] of [
      [{}, 'file:///p/dist/playwright/playwright-tests.js'],
      [{ TEST_WORKER_INDEX: '0' }, 'file:///p/playwright/playwright-tests.ts'],
    ] as const) {
      Error.prepareStackTrace = sourceMapped;
      nodeStackFormatInCompiledWorker(env, url);
      expect(stackOf(), `${JSON.stringify(env)} ${url}`).toMatch(/^mapped x \d+$/);
    }
    Error.prepareStackTrace = sourceMapped;
    nodeStackFormatInCompiledWorker({ TEST_WORKER_INDEX: '0' }, 'file:///p/dist/playwright/playwright-tests.js');
    expect(stackOf()).toMatch(/^Error: x\n +at /);
  } finally {
    Error.prepareStackTrace = installed;
  }
});
