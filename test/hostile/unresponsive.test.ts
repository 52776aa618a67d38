import { expect, test } from '@playwright/test';
import { CONSECUTIVE_FAILURE_LIMIT } from '../../core/client.ts';
import { runCli } from '../support/harness.ts';
import { firstThen, HOSTILE_KEYS, OK_JSON, stackLines, startHostile, stderrLines, writeTarget, type Action, type HostileServer } from '../support/hostile-server.ts';

// A target that never answers, or answers only after the request time-out: at the preflight the run
// is refused in one line; after the preflight the client stops after CONSECUTIVE_FAILURE_LIMIT
// requests in a row without an answer, so the worst case is (1 + limit) time-outs plus start-up.
test.describe.configure({ mode: 'parallel' });

/** cli/preflight.ts sends one request per operation (files, models, interns) before the checks. */
const PREFLIGHT_REQUESTS = 3;

/** Short: every run below waits it out several times, and the stop shows with any time-out. */
const TIMEOUT_MS = 500;
/**
 * Start-up of the CLI and of Playwright, the worker restarts after the failed checks and the cut-short
 * checks: CPU time, not waiting on the target (about 8 s on an idle 2-core machine, 25-35 s when
 * several suites share it). Without the stop the run would wait one time-out per remaining check.
 */
const MARGIN_MS = 60_000;
const WORST_CASE_MS = (1 + CONSECUTIVE_FAILURE_LIMIT) * TIMEOUT_MS + MARGIN_MS;

const servers: HostileServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function against(respond: Action | ((req: never, i: number) => Action), args: string[] = []) {
  const server = await startHostile(respond as Action);
  servers.push(server);
  const run = await runCli(['--target', writeTarget(server.baseUrl), '--timeout', String(TIMEOUT_MS), ...args], { env: { ...HOSTILE_KEYS }, timeoutMs: 90_000 });
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
    expect(stderrLines(run)).toEqual([expect.stringMatching(new RegExp(`^conformance: target http://127\\.0\\.0\\.1:\\d+/v1 is unreachable: no complete answer within ${TIMEOUT_MS} ms$`))]);
    expect(run.report).toBeUndefined();
    expect(server.received).toHaveLength(1);
    // The CLI alone (tsx start-up, one time-out): no Playwright run at all.
    expect(run.ms).toBeLessThan(TIMEOUT_MS + 10_000);
  });
}

for (const [name, then, transport] of [
  ['never answers', { kind: 'hang' }, 'node'],
  ['answers only after the time-out', { kind: 'delay', ms: 3 * TIMEOUT_MS, then: OK_JSON }, 'node'],
  ['never answers (--transport playwright)', { kind: 'hang' }, 'playwright'],
] as const) {
  test(`a target that answers the preflight, then ${name}, stops the run after ${CONSECUTIVE_FAILURE_LIMIT} time-outs (exit 2)`, async () => {
    const { server, run } = await against(firstThen(PREFLIGHT_REQUESTS, OK_JSON, then), ['--transport', transport]);
    expect(stackLines(run)).toEqual([]);
    expect(run.code).toBe(2);
    // MUST requirements left unjudged because the target stopped answering: incomplete, never error nor fail.
    expect(run.report?.verdict).toBe('incomplete');
    const timedOut = transport === 'node' ? new RegExp(`no complete answer within ${TIMEOUT_MS} ms`) : new RegExp(`Timeout ${TIMEOUT_MS}ms exceeded|no complete answer`);
    expect(run.report?.run.incomplete).toMatch(/^\d+ MUST requirement\(s\) not judged: the target stopped answering \(3 requests in a row without a usable answer/);
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
    expect(run.stdout).toMatch(/^ {2}skip {2}\S+ — not sent: the target stopped answering \(3 requests in a row without a usable answer/m);
    expect(run.stdout).toMatch(/^verdict: INCOMPLETE — \d+ MUST requirement\(s\) not judged: /m);
    expect(run.ms).toBeLessThan(WORST_CASE_MS);
    test.info().annotations.push({ type: 'bound', description: `${run.ms} ms (bound ${WORST_CASE_MS} ms; report durationMs ${run.report?.run.durationMs})` });
  });
}
