import { expect, test } from '@playwright/test';
import { runCli } from '../support/harness.ts';
import {
  firstThen,
  HOSTILE_KEYS,
  OK_JSON,
  stackLines,
  startHostile,
  writeTarget,
  type HostileServer,
} from '../support/hostile-server.ts';

// A redirect is never followed: it is the answer, reported as a failure naming the redirect and its
// Location (the operations answer 200, section 4), and the key never travels to another origin.
test.describe.configure({ mode: 'parallel' });

/** cli/preflight.ts sends one request per operation (files, models, interns) before the checks. */
const PREFLIGHT_REQUESTS = 3;

const servers: HostileServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The three schema checks (one per operation): each expects a 200. */
const SCHEMA_CHECKS = ['--grep', ' (files|models|interns)\\.response\\.schema '];

for (const [where, transport] of [
  ['another origin', 'node'],
  ['another origin', 'playwright'],
  ['the same origin', 'node'],
] as const) {
  test(`a redirect to ${where} is not followed and is reported with its Location (--transport ${transport})`, async () => {
    // Another origin: another port of 127.0.0.1, which records every header it receives.
    const other = await startHostile(OK_JSON);
    servers.push(other);
    const location = where === 'the same origin' ? '/v1/redirected/elsewhere' : `${other.baseUrl}/collect?from=hostile`;
    const server = await startHostile(
      firstThen(PREFLIGHT_REQUESTS, OK_JSON, { kind: 'redirect', status: 302, location }),
    );
    servers.push(server);
    const run = await runCli(
      ['--target', writeTarget(server.baseUrl), '--timeout', '1000', '--transport', transport, ...SCHEMA_CHECKS],
      {
        env: { ...HOSTILE_KEYS },
        timeoutMs: 90_000,
      },
    );
    expect(stackLines(run)).toEqual([]);
    expect(run.code).toBe(1);
    expect(run.report?.verdict).toBe('non-conformant');
    const ran = run.report!.checks.filter((c) => c.reason !== 'not selected in this run');
    expect(ran).toHaveLength(3);
    for (const c of ran) {
      expect(c.status).toBe('fail');
      expect(c.reason).toContain(`got 302 (redirect to ${location}, not followed)`);
    }
    expect(run.stdout).toContain(`(redirect to ${location}, not followed)`);
    // Not followed: the redirect target was never asked for, on either origin.
    expect(server.received.filter((r) => r.url.includes('redirected') || r.url.includes('collect'))).toEqual([]);
    expect(other.received).toEqual([]);
    expect(other.received.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
    // The preflight, then one request per schema check.
    expect(server.received).toHaveLength(PREFLIGHT_REQUESTS + 3);
  });
}
