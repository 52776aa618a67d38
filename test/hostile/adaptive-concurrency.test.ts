import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../../cli/api.ts';
import { NodeTransport } from '../../core/http/transport.ts';
import { parseTarget } from '../../core/target/target.ts';
import { FlightWindow } from '../../core/http/flight-window.ts';
import { DEFAULTS } from '../../core/run/run-settings.ts';
import type { ReferenceServer } from '../../reference/options.ts';
import { startReference } from '../../reference/server.ts';
import type { ConformanceReport } from '../../reports/model.ts';
import { referenceKeyEnv } from '../../reference/target-file.ts';
import { startCrowded, type Crowding, type CrowdedServer } from '../support/crowded-server.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import { runCli, runEngineOn, testSettings } from '../support/harness.ts';
import { HOSTILE_KEYS, OK_JSON, stackLines, startHostile, writeTarget } from '../support/hostile-server.ts';

// A target that turns requests away when more than it takes come at once (429, 503, 408 on list
// interns, a refused or reset connection) is answered with fewer at once: the run's window of requests
// in flight halves and grows back (core/http/flight-window.ts), and the requests turned away together
// retry at random instants. The verdict is the one of --concurrency 1 ("Verdicts in both directions").
test.describe.configure({ mode: 'parallel' });

const servers: Array<{ close(): Promise<void> }> = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function crowded(crowding: Crowding): Promise<{ reference: ReferenceServer; server: CrowdedServer }> {
  const reference = await startReference();
  const server = await startCrowded(reference, crowding);
  servers.push(server, reference);
  return { reference, server };
}

/**
 * The whole suite in-process (runConformance: the command's checks, engine, transport and verdict) over
 * HTTP to the crowded server: what is tested is how the run answers congestion, not the command around it.
 */
function runAgainst(reference: ReferenceServer, server: CrowdedServer, seed = 1234): Promise<ConformanceReport> {
  return runConformance({ target: server.targetFile, seed, env: referenceKeyEnv(reference) });
}

test('the window: halved once per congestion event, at least 1, grown back one at a time, slower near where it was turned away', () => {
  const w = new FlightWindow(8);
  const sentIn = w.epoch;
  w.congested(sentIn);
  // Answers to requests sent before the decrease are the same event.
  w.congested(sentIn);
  expect(w.size).toBe(4);
  w.congested(w.epoch);
  w.congested(w.epoch);
  w.congested(w.epoch);
  expect(w.size).toBe(1);
  expect(w.hint()).toContain('--concurrency 1');
  // Turned away at 2: back to 1 quickly, then 8 windows of answers before 2 is tried again.
  let answers = 0;
  while (w.size < 2 && answers < 1000) w.answered(), answers++;
  expect(answers).toBe(8);
  w.congested(w.epoch);
  answers = 0;
  while (w.size < 2 && answers < 1000) w.answered(), answers++;
  expect(answers).toBe(8);
  // Never above --concurrency.
  for (let i = 0; i < 10_000; i++) w.answered();
  expect(w.size).toBe(8);
  expect(new FlightWindow(1).hint()).toBe('');
});

test(`429 with Retry-After whenever more than 2 requests are in flight: CONFORMANT at the default --concurrency ${DEFAULTS.concurrency}`, async () => {
  const { reference, server } = await crowded({ kind: 'too-many', over: 2, retryAfter: '0' });
  const report = await runAgainst(reference, server);
  expect(server.stats.turnedAway, 'the target did turn requests away').toBeGreaterThan(0);
  expect(report.verdict, report.run.incomplete ?? '').toBe('conformant');
  expect(report.run.retries).toBeGreaterThan(0);
});

test('a connection reset whenever more than 2 requests are in flight: CONFORMANT at the default --concurrency', async () => {
  const { reference, server } = await crowded({ kind: 'reset', over: 2 });
  const report = await runAgainst(reference, server);
  expect(server.stats.turnedAway, 'the target did reset connections').toBeGreaterThan(0);
  expect(report.verdict, report.run.incomplete ?? '').toBe('conformant');
});

// The engine in-process (no Playwright processes), over HTTP to the crowded server: requests really
// overlap there, and the run is the one the command line makes. Only list interns is answered 408:
// the checks that send it (those of list interns, and the general ones that ask every operation) are
// run; the others meet the plain reference, whose verdict test/self-test.test.ts holds.
const SENDS_LIST_INTERNS = new Set(
  ALL_CHECKS.filter((c) => c.operation === 'listInterns' || c.operation === 'general').map((c) => c.id),
);

for (const concurrency of [1, 8]) {
  for (const seed of [1, 2, 3, 4, 5]) {
    test(`408 to every third list-interns request (8 rule 4): the checks that list interns CONFORMANT at --concurrency ${concurrency}, seed ${seed}`, async () => {
      const { reference, server } = await crowded({ kind: 'interns-408', every: 3 });
      const runDir = mkdtempSync(join(tmpdir(), 'interns-408-'));
      const settings = testSettings(runDir, {
        seed,
        concurrency,
        maxRetries: DEFAULTS.maxRetries,
        // The order of the tries is what is tested, not the length of the pauses: short ones keep it quick.
        retryCapMs: 20,
        requestTimeoutMs: DEFAULTS.requestTimeoutMs,
      });
      const target = parseTarget(readFileSync(server.targetFile, 'utf8'), server.targetFile, {
        env: referenceKeyEnv(reference),
      });
      const transport = new NodeTransport({
        timeoutMs: settings.requestTimeoutMs,
        bodyCapBytes: settings.bodyCapBytes,
      });
      try {
        const report = await runEngineOn(target, transport, settings, { select: (id) => SENDS_LIST_INTERNS.has(id) });
        expect(server.stats.turnedAway, 'the target did answer 408').toBeGreaterThan(0);
        expect(report.run.retries).toBeGreaterThan(0);
        expect(report.verdict, report.run.incomplete ?? '').toBe('conformant');
        const ran = report.checks.filter((c) => SENDS_LIST_INTERNS.has(c.checkId));
        expect(ran.filter((c) => c.status !== 'pass' && c.level === 'MUST').map((c) => c.checkId)).toEqual([]);
      } finally {
        await transport.close();
      }
    });
  }
}

test('a target that answers 429 to everything at the default --concurrency: INCOMPLETE, and the reason suggests --concurrency 1', async () => {
  const hostile = await startHostile((_req, i) =>
    i < 3
      ? OK_JSON
      : {
          kind: 'json',
          status: 429,
          headers: { 'retry-after': '0' },
          body: { error: { code: 429, message: 'Rate limit exceeded' } },
        },
  );
  servers.push(hostile);
  const run = await runCli(['--target', writeTarget(hostile.baseUrl), '--timeout', '2000'], {
    env: { ...HOSTILE_KEYS },
    timeoutMs: 120_000,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  expect(run.report?.verdict).toBe('incomplete');
  expect(run.report?.run.incomplete).toMatch(/429 after 3 retries.*try --concurrency 1/);
  expect(run.report!.checks.filter((c) => c.status === 'fail')).toEqual([]);
  // Bounded: the first requests, at most CROWDED_RETRIES and --max-retries each, then the run stops.
  expect(hostile.received.length).toBeLessThan(3 + DEFAULTS.concurrency * 12 + 3 * 4);
});
