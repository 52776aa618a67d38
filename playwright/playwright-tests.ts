import type { CheckListing } from '../core/check/check-listing.ts';
import { pathToFileURL } from 'node:url';
import { runInThisContext } from 'node:vm';
import { test as base, type TestInfo } from '@playwright/test';
import { OUTCOME_ATTACHMENT } from '../core/check/check.ts';
import { ENGINE_SOCKET_ENV, OutcomeFollower } from './engine-socket.ts';
import { terminalSafe } from '../core/text/terminal-text.ts';

export { ENGINE_SOCKET_ENV } from './engine-socket.ts';

/**
 * The declared checks as their tests need them, listed by the run's global set-up in the runner
 * process (core/check/check-listing.ts): a worker then registers the tests without loading a single check
 * module (their imports are most of a worker's start-up).
 */
export const CHECK_LIST_ENV = 'CONFORMANCE_CHECK_LIST';

/**
 * Playwright locates a test at the frame that called test(): its file, line and column (after its
 * source maps, looked up by file path). So each test is declared through a one-line function compiled
 * with the check's declaration as its file name and position: the frame that calls test() is then the
 * check's own `id:` line. The file name is given as a file URL with the host named (file://localhost/…),
 * which Playwright turns back into the path (fileURLToPath) and under which no source map of a module
 * it transformed is found: Playwright keys those by path or by file:/// URL, and the position given is
 * the file's own, not a generated one (test/direct-gate.test.ts checks every test's location).
 */
function declaredAt(
  location: NonNullable<CheckListing['location']>,
): (declare: typeof test, ...args: unknown[]) => void {
  const code = `(declare, ...args) =>\n${' '.repeat(Math.max(0, location.column - 1))}declare(...args)`;
  return runInThisContext(code, {
    filename: pathToFileURL(location.file).href.replace(/^file:\/\/\//, 'file://localhost/'),
    lineOffset: location.line - 2,
  }) as (declare: typeof test, ...args: unknown[]) => void;
}

/**
 * Playwright's two automatic per-test fixtures serve browser pages: trace recording (which would
 * record the Authorization header: rule "Hostile input", no secret in a trace) and browser context options.
 * A check uses neither, yet each costs a stack capture per test on set-up and tear-down. Replaced by
 * fixtures that do nothing and report no step; `npm test` verifies that these names are still
 * Playwright's (test/playwright-fixtures.test.ts).
 */
export const REPLACED_AUTO_FIXTURES = ['_setupArtifacts', '_setupContextOptions'] as const;
const noAutoFixtures = Object.fromEntries(
  REPLACED_AUTO_FIXTURES.map((name) => [
    name,
    [async ({}, use: () => Promise<void>) => use(), { auto: 'all-hooks-included', box: 'self' }],
  ]),
);
// biome-ignore lint/complexity/noBannedTypes: base.extend types its fixtures as `{}` when it adds none of its own.
const test = base.extend(noAutoFixtures as {});

/**
 * Node's own stack formatting in a worker of the compiled package. Playwright formats stacks through
 * source-map-support, for the source maps of the TypeScript it transforms; the compiled package's
 * modules and Playwright's bundles have none, so it maps nothing there, and it is most of the cost of
 * the two stack captures of each test's hook steps, on the worker's CPU at the end of a run's
 * longest chain. Under tsx (a clone's .ts modules)
 * it stays: Playwright's maps give the positions in the source.
 */
export function nodeStackFormatInCompiledWorker(
  env: NodeJS.ProcessEnv = process.env,
  moduleUrl: string = import.meta.url,
): void {
  if (env['TEST_WORKER_INDEX'] !== undefined && moduleUrl.endsWith('.js'))
    Reflect.deleteProperty(Error, 'prepareStackTrace');
}

let follower: OutcomeFollower | undefined;

/**
 * One Playwright test per declared check. The test holds no state: it asks the run's engine for its
 * check's outcome and reports it (attachment, skip, failure). Whole-run checks are registered last,
 * so a run without the engine's plan still asks for them after every other check.
 */
export type { CheckListing };

export function registerChecks(checks: readonly CheckListing[]): void {
  nodeStackFormatInCompiledWorker();
  const ordered = [...checks.filter((c) => !c.wholeRun), ...checks.filter((c) => c.wholeRun)];
  for (const check of ordered) {
    const declare = check.location
      ? declaredAt(check.location)
      : (t: typeof test, ...args: unknown[]) => (t as (...a: unknown[]) => void)(...args);
    // The test's own function is one call: Playwright reads each test function's source for its
    // fixtures' names, in the runner and in the worker, and a short one is read sooner.
    declare(
      test,
      check.id,
      { tag: check.tags, annotation: [{ type: 'check', description: check.id }] },
      async ({}, testInfo: TestInfo) => reportOutcome(check.id, testInfo),
    );
  }
  followTheRun();
}

/**
 * In a worker, the run is followed from the moment the tests are registered, not from the first test:
 * the checks settled while the worker was starting arrive while Playwright prepares that test, and
 * the engine's process, busy with the run's last checks and its report, need not answer a new
 * connection then. The runner, which registers the tests to list them, follows nothing.
 */
export function followTheRun(env: NodeJS.ProcessEnv = process.env): OutcomeFollower | undefined {
  const socket = env[ENGINE_SOCKET_ENV];
  if (socket && env['TEST_WORKER_INDEX'] !== undefined) follower ??= new OutcomeFollower(socket);
  return follower;
}

/** A check's test: its outcome asked of the run's engine and reported (attachment, skip, failure). */
async function reportOutcome(checkId: string, testInfo: TestInfo): Promise<void> {
  // One connection per worker, its outcomes sent as the checks settle (playwright/engine-socket.ts).
  const following = followTheRun();
  if (!following)
    throw new Error(
      `the conformance run was not set up (${ENGINE_SOCKET_ENV} is not set): start it with \`npm run conformance\` or the repository's playwright.config.ts`,
    );
  const { outcome, reportedByHost, gating } = await following.outcome(checkId);
  // Pushed, not testInfo.attach(): attach() records a step with a captured stack and makes the
  // test's output directory, for every check; a pushed attachment reaches the
  // reporters the same way (Playwright intercepts the push).
  testInfo.attachments.push({
    name: OUTCOME_ATTACHMENT,
    body: Buffer.from(JSON.stringify(outcome)),
    contentType: 'application/json',
  });
  if (outcome.status === 'skip') testInfo.skip(true, outcome.reason);
  // A failure that does not gate (a SHOULD under fail-on must) is shown, as the verdict shows it, and passes.
  if (outcome.status === 'fail' && !gating) {
    testInfo.annotations.push({
      type: 'warning',
      description: `not gating (fail-on must): FAIL ${outcome.reason ?? ''}`,
    });
    // Said in the run's own output too: Playwright's reporters (list, line) print a test's stderr,
    // so `npx playwright test` shows the warning where it shows the test passed.
    process.stderr.write(
      `WARN  ${checkId}: a SHOULD requirement failed (not gating without CONFORMANCE_FAIL_ON=should): ${terminalSafe(outcome.reason ?? '')}\n`,
    );
  }
  if (outcome.status === 'pass' || !gating || reportedByHost) return;
  // No host reporter to mark the failure (Playwright's --reporter replaced it): fail here, truthfully.
  const err = new Error(`${outcome.status === 'fail' ? 'FAIL' : 'ERROR'} ${outcome.reason ?? ''}`);
  err.stack = err.message;
  throw err;
}
