import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { expect, test } from '@playwright/test';
import { REPLACED_AUTO_FIXTURES } from '../core/playwright-tests.ts';

// core/playwright.ts replaces Playwright's automatic per-test fixtures by name. If an upgrade renames
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
