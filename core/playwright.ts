import { test as base, type TestInfo } from '@playwright/test';
import { OUTCOME_ATTACHMENT, type CheckDeclaration } from './check.ts';
import { executeCheck } from './execute-check.ts';
import { tagsOf } from './tags.ts';
import { Client } from './client.ts';
import { RequestLog } from './request-log.ts';
import { readRunSettings, type RunSettings } from './run-settings.ts';
import { loadTarget, viewOf, type TargetView } from './target.ts';
import { NodeTransport, PlaywrightTransport } from './transport.ts';

interface WorkerFixtures {
  run: { settings: RunSettings; target: TargetView; client: Client };
}

/**
 * Playwright's two automatic per-test fixtures serve browser pages: trace recording (which would
 * record the Authorization header: principle 4, no secret in a trace) and browser context options.
 * A check uses neither, yet each costs a stack capture per test on set-up and tear-down, about a
 * second of a default run. Replaced by fixtures that do nothing and report no step; `npm test`
 * verifies that these names are still Playwright's (test/playwright-fixtures.test.ts).
 */
export const REPLACED_AUTO_FIXTURES = ['_setupArtifacts', '_setupContextOptions'] as const;
const noAutoFixtures = Object.fromEntries(
  REPLACED_AUTO_FIXTURES.map((name) => [name, [async ({}, use: () => Promise<void>) => use(), { auto: 'all-hooks-included', box: 'self' }]]),
);

/** One client per worker: keep-alive connections and the request log survive from check to check. */
const test = base.extend(noAutoFixtures as {}).extend<{}, WorkerFixtures>({
  run: [
    async ({ playwright }, use) => {
      const settings = readRunSettings();
      const target = loadTarget(settings.targetFile, settings);
      const limits = { timeoutMs: settings.requestTimeoutMs, bodyCapBytes: settings.bodyCapBytes };
      const transport =
        settings.transport === 'playwright'
          ? new PlaywrightTransport(await playwright.request.newContext({ maxRedirects: 0 }), limits)
          : new NodeTransport(limits);
      const client = new Client(target, settings, transport, new RequestLog(settings.runDir));
      await use({ settings, target: viewOf(target), client });
      await transport.close();
    },
    { scope: 'worker' },
  ],
});

/** One Playwright test per declared check: the spec files under suites/ are this call and nothing else. */
export function registerChecks(checks: readonly CheckDeclaration[]): void {
  for (const check of checks) {
    test(check.id, { tag: tagsOf(check), annotation: [{ type: 'check', description: check.id }] }, async ({ run }, testInfo) => {
      await runCheck(check, run, testInfo);
    });
  }
}

async function runCheck(check: CheckDeclaration, run: WorkerFixtures['run'], testInfo: TestInfo): Promise<void> {
  const outcome = await executeCheck(check, run.client, run.target, run.settings);
  await testInfo.attach(OUTCOME_ATTACHMENT, { body: JSON.stringify(outcome), contentType: 'application/json' });
  if (outcome.status === 'skip') testInfo.skip(true, outcome.reason);
  if (outcome.status !== 'pass') {
    // Playwright prints this one line; the evidence lives in the attachment and the report.
    const err = new Error(`${outcome.status === 'fail' ? 'FAIL' : 'ERROR'} ${outcome.reason ?? ''}`);
    err.stack = err.message;
    throw err;
  }
}
