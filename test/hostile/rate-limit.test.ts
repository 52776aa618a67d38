import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Client, CONSECUTIVE_FAILURE_LIMIT } from '../../core/http/client.ts';
import { CannotJudge } from '../../core/check/errors.ts';
import { DEFAULTS } from '../../core/run/run-settings.ts';
import { NodeTransport } from '../../core/http/transport.ts';
import type { ReferenceServer } from '../../reference/options.ts';
import { startReference } from '../../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../../reference/target-file.ts';
import { runCli, testSettings } from '../support/harness.ts';
import {
  firstThen,
  hostileTarget,
  OK_JSON,
  stackLines,
  startHostile,
  writeTargetYaml,
  type Action,
  type HostileServer,
} from '../support/hostile-server.ts';

// 429 and 503 (section 7.1, 8 rule 3): retried under a bounded back-off that follows Retry-After up
// to the cap, every retry counted in the report (run.retries), and a rate limit that outlasts the
// retries is the check's `error` with the reason (the run `incomplete`), never the `fail` of the
// requirement being probed. The waits are asserted as the client computed them (report.run.
// rateLimitedWaitMs, client.state.rateLimitedWaitMs), never as wall time between arrivals.
test.describe.configure({ mode: 'parallel' });

/** cli/preflight.ts sends one request per operation (files, models, interns) before the checks. */
const PREFLIGHT_OPERATIONS = 3;
/**
 * Against a key that lists interns (the reference's), one more: list interns again with the target
 * file's parameter names (cli/interns-params-preflight.ts, a mistyped name told apart).
 */
const PREFLIGHT_REQUESTS = PREFLIGHT_OPERATIONS + 1;

const servers: Array<HostileServer | ReferenceServer> = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const limited = (status: 429 | 503, retryAfter?: string): Action => ({
  kind: 'json',
  status,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: {
    error: { code: status, message: status === 429 ? 'Rate limit exceeded' : 'Service temporarily unavailable' },
  },
});

test('429 (Retry-After beyond the cap, and none) and 503 (Retry-After 1) are retried, counted, and the run stays conformant', async () => {
  const reference = await startReference();
  servers.push(reference);
  const proxy: Action = { kind: 'proxy', to: reference.baseUrl };
  // Requests 0-3 are the preflight, which never retries (maxRetries 0) and counts no retry: its 429
  // (to list models, which it sends with the other two operations) is an answer, the next request is
  // another operation's or the preflight's second list interns. After it, 4, 6 and 8 are refused once
  // each, and their retries (5, 7, 9) go through: one check at a time (--concurrency 1), so that a
  // retry is the very next request. The checks of list container files (--grep @files) meet them, and
  // the rate-limit point observes that operation's 429s.
  const first = PREFLIGHT_REQUESTS;
  const refusals: Record<number, Action> = {
    [first]: limited(429, '3600'),
    [first + 2]: limited(429),
    [first + 4]: limited(503, '1'),
  };
  const preflightRefusal = limited(429, '3600');
  const hostile = await startHostile((req, i) =>
    i < PREFLIGHT_OPERATIONS && req.url.includes('/models/') ? preflightRefusal : (refusals[i] ?? proxy),
  );
  servers.push(hostile);
  const file = writeTargetYaml(referenceTargetYaml(reference).replace(reference.baseUrl, hostile.baseUrl));
  const run = await runCli(['--target', file, '--timeout', '2000', '--concurrency', '1', '--grep', '@files'], {
    env: referenceKeyEnv(reference),
    timeoutMs: 110_000,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.report?.verdict).toBe('conformant');
  expect(run.report?.run.retries).toBe(3);
  expect(run.stdout).toMatch(
    /^requests: \d+ \(3 retries, waited [\d.]+ s for the target's rate limit\); run took \(engine start to report\) [\d.]+ m?s; command [\d.]+ s from start to verdict$/m,
  );
  // The first checks list files: the rate-limit point observes what the target chose (limited, with
  // which Retry-After values), never request counts.
  expect(run.report!.requirements.find((q) => q.id === 'files.rate-limit.thresholds')?.observed).toEqual([
    { limited: true, retryAfter: ['3600', null] },
  ]);
  const r = hostile.received;
  // The preflight's 429 was not retried: its first requests are one per operation, sent at once, and
  // its last lists interns again (the parameter names), never the models request again.
  expect(new Set(r.slice(0, PREFLIGHT_OPERATIONS).map((q) => q.url.split('?')[0])).size).toBe(PREFLIGHT_OPERATIONS);
  expect(r[PREFLIGHT_OPERATIONS]!.url).toMatch(/\/interns\?/);
  // Each retry is the same request again, after the wait the answer asked for, never above the cap:
  // Retry-After 3600 → the cap (5 s), none → 200 ms for a first retry, Retry-After 1 → 1 s.
  for (const i of [first, first + 2, first + 4]) expect(r[i + 1]!.url).toBe(r[i]!.url);
  expect(run.report?.run.rateLimitedWaitMs).toBe(DEFAULTS.retryCapMs + 200 + 1000);
});

test('a target that keeps answering 429 without Retry-After: exponential back-off, then incomplete (never fail), the run stops, exit 2', async () => {
  // The preflight is answered by the reference: its answers are judged like every other ("Judge every
  // response"), so a made-up body there would fail requirements this test is not about.
  const reference = await startReference();
  servers.push(reference);
  const hostile = await startHostile(
    firstThen(PREFLIGHT_REQUESTS, { kind: 'proxy', to: reference.baseUrl }, limited(429)),
  );
  servers.push(hostile);
  const file = writeTargetYaml(referenceTargetYaml(reference).replace(reference.baseUrl, hostile.baseUrl));
  // One check at a time: the checks that meet the limit are the first three, each its own request.
  const run = await runCli(['--target', file, '--timeout', '1000', '--concurrency', '1'], {
    env: referenceKeyEnv(reference),
    timeoutMs: 90_000,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  const report = run.report!;
  // MUST requirements left unjudged by the rate limit: incomplete, with the reason.
  expect(report.verdict).toBe('incomplete');
  expect(report.run.incomplete).toMatch(
    new RegExp(
      `^\\d+ MUST requirement\\(s\\) not judged: .*target still answered 429 after ${DEFAULTS.maxRetries} retries`,
    ),
  );
  expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
  expect(report.requirements.filter((r) => r.status === 'fail')).toEqual([]);
  const errors = report.checks.filter((c) => c.status === 'error');
  expect(errors).toHaveLength(CONSECUTIVE_FAILURE_LIMIT);
  for (const c of errors) expect(c.reason).toBe(`target still answered 429 after ${DEFAULTS.maxRetries} retries`);
  // Each request: the first try and maxRetries retries, waiting 200, 400, 800 ms between them.
  expect(hostile.received).toHaveLength(PREFLIGHT_REQUESTS + CONSECUTIVE_FAILURE_LIMIT * (1 + DEFAULTS.maxRetries));
  expect(report.run.retries).toBe(CONSECUTIVE_FAILURE_LIMIT * DEFAULTS.maxRetries);
  expect(report.run.rateLimitedWaitMs).toBe(CONSECUTIVE_FAILURE_LIMIT * (200 + 400 + 800));
  expect(run.stdout).toMatch(
    /^ {2}skip {2}(?:\S+|\d+ checks) — not sent: the target stopped answering .*429 after 3 retries/m,
  );
});

test('the client: Retry-After as seconds or HTTP date up to the cap; an unusable value falls back to the exponential wait', async () => {
  // retryCapMs 400 here; the exponential wait of a first retry is 200 ms.
  const cases: Array<{ retryAfter: string | undefined; expected: number }> = [
    { retryAfter: '0.3', expected: 300 },
    { retryAfter: '3600', expected: 400 },
    { retryAfter: new Date(Date.now() + 60_000).toUTCString(), expected: 400 },
    { retryAfter: undefined, expected: 200 },
    { retryAfter: '', expected: 200 },
    { retryAfter: '-5', expected: 200 },
    { retryAfter: 'soon', expected: 200 },
  ];
  // At once: each case its own target and client; the wait is the one the client computed and held the run for.
  await Promise.all(
    cases.map(async ({ retryAfter, expected }) => {
      const hostile = await startHostile(firstThen(1, limited(429, retryAfter), OK_JSON));
      servers.push(hostile);
      const runDir = mkdtempSync(join(tmpdir(), 'hostile-retry-'));
      const settings = testSettings(runDir, { maxRetries: 1, retryCapMs: 400 });
      const transport = new NodeTransport({ timeoutMs: 2_000, bodyCapBytes: settings.bodyCapBytes });
      const client = new Client(hostileTarget(hostile.baseUrl), settings, transport);
      try {
        const res = await client.listInterns();
        expect(res.status).toBe(200);
        expect(client.state.rateLimitedWaitMs, `Retry-After ${JSON.stringify(retryAfter)}`).toBe(expected);
        expect(hostile.received).toHaveLength(2);
        expect(client.log.entries.map((e) => e.retry)).toEqual([0, 1]);
      } finally {
        await transport.close();
      }
    }),
  );
});

test('the client: a 503 that outlasts the retries is CannotJudge rate-limited with the reason', async () => {
  const hostile = await startHostile(limited(503, '0'));
  servers.push(hostile);
  const runDir = mkdtempSync(join(tmpdir(), 'hostile-retry-'));
  const transport = new NodeTransport({ timeoutMs: 2_000, bodyCapBytes: DEFAULTS.bodyCapBytes });
  const client = new Client(
    hostileTarget(hostile.baseUrl),
    testSettings(runDir, { maxRetries: 2, retryCapMs: 400 }),
    transport,
  );
  try {
    const error = await client.listModelEndpoints('hostile/model').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CannotJudge);
    expect((error as CannotJudge).reason).toBe('rate-limited');
    expect((error as CannotJudge).message).toBe('target still answered 503 after 2 retries (Retry-After: 0)');
    expect(hostile.received).toHaveLength(3);
  } finally {
    await transport.close();
  }
});
