import { expect, test } from '@playwright/test';
import { CONSECUTIVE_FAILURE_LIMIT } from '../../core/http/client.ts';
import { DEFAULTS } from '../../core/run/run-settings.ts';
import { runCli } from '../support/harness.ts';
import {
  firstThen,
  HOSTILE_KEYS,
  OK_JSON,
  stackLines,
  startHostile,
  stderrLines,
  writeTarget,
  type Action,
  type HostileServer,
} from '../support/hostile-server.ts';

// A target that never answers, or answers only after the request time-out: at the preflight the run
// is refused in one line; after the preflight the client stops after CONSECUTIVE_FAILURE_LIMIT
// requests in a row without an answer, so the worst case is (1 + limit) time-outs plus start-up. What
// the time stands for is asserted: the requests sent (one per time-out), never the wall time.
test.describe.configure({ mode: 'parallel' });

/** cli/preflight.ts sends one request per operation (files, models, interns), together, before the checks. */
const PREFLIGHT_REQUESTS = 3;

/** Short: every run below waits it out several times, and the stop shows with any time-out. */
const TIMEOUT_MS = 500;

const servers: HostileServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function against(respond: Action | ((req: never, i: number) => Action), args: string[] = []) {
  const server = await startHostile(respond as Action);
  servers.push(server);
  const run = await runCli(['--target', writeTarget(server.baseUrl), '--timeout', String(TIMEOUT_MS), ...args], {
    env: { ...HOSTILE_KEYS },
    timeoutMs: 90_000,
  });
  return { server, run };
}

for (const [name, action] of [
  ['never answers', { kind: 'hang' }],
  ['answers only after the time-out', { kind: 'delay', ms: 3 * TIMEOUT_MS, then: OK_JSON }],
] as const) {
  test(`a target that ${name} is refused at the preflight in one line, exit 2, within the time-out`, async () => {
    const { server, run } = await against(action);
    expect(stackLines(run)).toEqual([]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^conformance: target http://127\\.0\\.0\\.1:\\d+/v1 is unreachable: no complete answer within ${TIMEOUT_MS} ms$`,
        ),
      ),
    ]);
    expect(run.report).toBeUndefined();
    // The CLI alone (one time-out): no Playwright run at all, the preflight's requests sent together.
    expect(server.received).toHaveLength(PREFLIGHT_REQUESTS);
  });
}

for (const [name, then, transport] of [
  ['never answers', { kind: 'hang' }, 'node'],
  ['answers only after the time-out', { kind: 'delay', ms: 3 * TIMEOUT_MS, then: OK_JSON }, 'node'],
  ['never answers (--transport playwright)', { kind: 'hang' }, 'playwright'],
] as const) {
  test(`a target that answers the preflight, then ${name}, stops the run after ${CONSECUTIVE_FAILURE_LIMIT} time-outs (exit 2)`, async () => {
    // One check at a time: the time-outs are the first three requests, each its own check's.
    const { server, run } = await against(firstThen(PREFLIGHT_REQUESTS, OK_JSON, then), [
      '--transport',
      transport,
      '--concurrency',
      '1',
    ]);
    expect(stackLines(run)).toEqual([]);
    expect(run.code).toBe(2);
    // MUST requirements left unjudged because the target stopped answering: incomplete, never error nor fail.
    expect(run.report?.verdict).toBe('incomplete');
    const timedOut =
      transport === 'node'
        ? new RegExp(`no complete answer within ${TIMEOUT_MS} ms`)
        : new RegExp(`Timeout ${TIMEOUT_MS}ms exceeded|no complete answer`);
    expect(run.report?.run.incomplete).toMatch(
      /^\d+ MUST requirement\(s\) not judged: the target stopped answering \(3 requests in a row without a usable answer/,
    );
    expect(run.report?.run.incomplete).toMatch(timedOut);
    // The preflight, then exactly the failures that stop the run: nothing more was sent.
    expect(server.received).toHaveLength(PREFLIGHT_REQUESTS + CONSECUTIVE_FAILURE_LIMIT);
    expect(run.report?.run.requests).toBe(PREFLIGHT_REQUESTS + CONSECUTIVE_FAILURE_LIMIT);
    const checks = run.report?.checks ?? [];
    const errors = checks.filter((c) => c.status === 'error');
    expect(errors).toHaveLength(CONSECUTIVE_FAILURE_LIMIT);
    for (const c of errors) expect(c.reason).toMatch(timedOut);
    // The rest is cut short with the reason, never failed: a silent target broke no requirement.
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    const cut = checks.filter((c) => c.reason?.startsWith('not sent: the target stopped answering'));
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((c) => c.status === 'skip' && c.requests === 0)).toBe(true);
    // The stop is named on the console by each check it cut short (README: Stops when the target stops).
    expect(run.stdout).toMatch(
      /^ {2}skip {2}(?:\S+|\d+ checks) — not sent: the target stopped answering \(3 requests in a row without a usable answer/m,
    );
    expect(run.stdout).toMatch(/^verdict: INCOMPLETE — \d+ MUST requirement\(s\) not judged: /m);
  });
}

test(`a target that answers the preflight, then never answers, at concurrency ${DEFAULTS.concurrency}: the stop holds every check in flight`, async () => {
  const { server, run } = await against(firstThen(PREFLIGHT_REQUESTS, OK_JSON, { kind: 'hang' }));
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  expect(run.report?.verdict).toBe('incomplete');
  expect(run.report?.run.incomplete).toMatch(
    /^\d+ MUST requirement\(s\) not judged: the target stopped answering \(3 requests in a row without a usable answer/,
  );
  // The requests in flight when the third time-out came were sent before the stop; none after it.
  const sent = server.received.length - PREFLIGHT_REQUESTS;
  expect(sent).toBeGreaterThanOrEqual(CONSECUTIVE_FAILURE_LIMIT);
  expect(sent).toBeLessThanOrEqual(CONSECUTIVE_FAILURE_LIMIT + DEFAULTS.concurrency - 1);
  expect(run.report?.run.requests).toBe(server.received.length);
  const checks = run.report?.checks ?? [];
  expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
  const cut = checks.filter((c) => c.reason?.startsWith('not sent: the target stopped answering'));
  expect(cut.length).toBeGreaterThan(0);
  // Cut short, never failed. Unlike one check at a time, a check may have had a request in flight
  // when the stop came and another waiting for its place, not sent: its reason is the one not sent,
  // its requests count the one that was. What was sent is bounded above.
  expect(cut.every((c) => c.status === 'skip')).toBe(true);
  expect(cut.reduce((n, c) => n + c.requests, 0)).toBeLessThanOrEqual(sent);
});
