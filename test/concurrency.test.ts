import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Engine } from '../core/run/engine.ts';
import { DEFAULTS } from '../core/run/run-settings.ts';
import type { RawResponse, Transport } from '../core/http/transport.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { referenceTarget, runEngineAgainst, testSettings } from './support/harness.ts';
import { MemoryTransport } from './support/memory-transport.ts';
import { SEEDS, seedSettings, statusesOf } from './support/seeds.ts';
import { sharedEngineRun } from './support/shared-run.ts';

// Checks in flight together (--concurrency) share the run's budget, pace and memory; what a check
// concludes depends on the answers it receives, never on what ran beside it. The self-test holds the
// verdict and every requirement's status the same at concurrency 1 and at the default on every
// variant and a sample of faults (test/self-test.test.ts); here, on the reference, the requests too.
test.describe.configure({ mode: 'parallel' });

function statuses(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries([
    ['verdict', report.verdict],
    ...report.requirements.filter((r) => r.status !== 'disabled').map((r) => [r.id, r.status]),
  ]);
}

async function atBoth(
  options: Partial<ReferenceOptions>,
  seed: number,
  run: typeof sharedEngineRun = (o, settings) => runEngineAgainst(o, { settings }),
): Promise<void> {
  const one = await run(options, { seed, concurrency: 1 });
  const many = await run(options, { seed, concurrency: DEFAULTS.concurrency });
  expect(DEFAULTS.concurrency).toBeGreaterThan(1);
  expect(statuses(many)).toEqual(statuses(one));
  // The same requests reach the target, in another order: the run's memory answers the same repeats.
  // A property judges its runs several at once; one whose run did not pass may have had later runs in
  // flight, which runs one at a time never send (their outcomes are not read: the verdict above is the same).
  const propertyEnded = many.checks.some((c) => c.kind === 'property' && c.status !== 'pass');
  if (propertyEnded) expect(many.run.requests).toBeGreaterThanOrEqual(one.run.requests);
  else
    expect({ requests: many.run.requests, saved: many.run.requestsSaved }).toEqual({
      requests: one.run.requests,
      saved: one.run.requestsSaved,
    });
}

// The reference's runs of seeds 1 to 3 at both concurrencies hold three of the five the verdict across
// seeds reads: these tests run one after another in one worker, and share them (test/support/shared-run.ts).
test.describe('the reference', () => {
  test.describe.configure({ mode: 'default' });

  for (const seed of [1, 2, 3]) {
    test(`the reference: the same statuses and requests at concurrency 1 and ${DEFAULTS.concurrency} (seed ${seed})`, async () => {
      await atBoth({}, seed, sharedEngineRun);
    });
  }

  // The self-test holds one verdict on every seed for every variant and a sample of faults; here the plain reference's.
  test(`one verdict per target: every requirement has the same status on seeds ${SEEDS.join(', ')} (even ones at concurrency 1), on the reference`, async () => {
    const statuses = new Set<string>();
    for (const seed of SEEDS) statuses.add(statusesOf(await sharedEngineRun({}, seedSettings(seed))));
    expect(statuses.size, 'statuses differ across seeds or concurrencies on the reference').toBe(1);
  });
});

// A fault and a variant whose statuses differ from the plain reference's, with properties that fail
// (a property judges its runs several at once: later runs may be in flight when one fails).
for (const [name, options] of [
  ['fault files-listed-twice', { faults: ['files-listed-twice'] }],
  [
    'variant transient-statuses (every 7th request 408/429/503)',
    CONFORMANT_VARIANTS.find((v) => v.name === 'transient-statuses')!.options,
  ],
] as const) {
  test(`${name}: the same statuses at concurrency 1 and ${DEFAULTS.concurrency}`, async () => {
    await atBoth(options, 7);
  });
}

/** Answers like the reference, except the requests whose index is in `limited`: 429 with Retry-After. */
class RateLimiting implements Transport {
  /** Date.now() at each request, and when each 429 was answered. */
  readonly calls: number[] = [];
  readonly answered429: number[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly limited: ReadonlySet<number>,
    private readonly retryAfterS: number,
  ) {}

  async get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const i = this.calls.push(Date.now()) - 1;
    if (!this.limited.has(i)) return this.inner.get(url, headers);
    // Answered a little later, as a target would: the checks in flight meanwhile have taken their slots.
    await new Promise((r) => setTimeout(r, 5));
    this.answered429.push(Date.now());
    const body = Buffer.from(JSON.stringify({ error: { code: 429, message: 'Rate limit exceeded' } }));
    return {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': String(this.retryAfterS) },
      body,
    };
  }

  async close(): Promise<void> {}
}

test(`a rate-limited target (429 with Retry-After) at concurrency ${DEFAULTS.concurrency}: one pace for all checks, one pause for the run, within the budget`, async () => {
  const server = await startReference();
  const maxRps = 100;
  const maxRequests = 100;
  const settings = testSettings(mkdtempSync(join(tmpdir(), 'concurrency-rps-')), {
    maxRps,
    maxRequests,
    maxRetries: 3,
    retryCapMs: 5_000,
    concurrency: DEFAULTS.concurrency,
  });
  const transport = new RateLimiting(new MemoryTransport(server), new Set([10, 60]), 0.3);
  const engine = new Engine({
    settings,
    target: referenceTarget(server),
    checks: ALL_CHECKS,
    judges: RESPONSE_JUDGES,
    transport,
  });
  try {
    engine.plan(ALL_CHECKS.map((c) => c.id));
    const outcomes = await engine.finished();
    // Within the budget, every request sent is in the log the report counts.
    expect(transport.calls.length).toBeLessThanOrEqual(maxRequests);
    expect(engine.state.log.count).toBe(transport.calls.length);
    expect([...outcomes.values()].filter((o) => o.cause === 'run-limit').map((o) => o.reason)).toContainEqual(
      expect.stringMatching(`^request budget of ${maxRequests} spent`),
    );
    // --max-rps across every check in flight: the instants the pace let each request leave are
    // 1000/maxRps ms apart or more.
    const slots = engine.state.slots;
    expect(slots).toHaveLength(transport.calls.length);
    const closest = Math.min(...slots.slice(1).map((s, i) => s - slots[i]!));
    expect(closest).toBeGreaterThanOrEqual(1000 / maxRps - 1e-9);
    // One pause for the whole run: both 429s were retried after it, and no check's request left
    // during it. The run's retry budget counts each pause once, not once per check it held.
    expect(engine.state.log.entries.filter((e) => e.retry)).toHaveLength(2);
    expect(engine.state.rateLimitedWaitMs).toBe(2 * 300);
    for (const answered of transport.answered429) {
      const givenAfter = slots.filter((slot) => slot > answered);
      expect(givenAfter.length).toBeGreaterThan(0);
      for (const slot of givenAfter) expect(slot).toBeGreaterThanOrEqual(answered + 300);
    }
  } finally {
    await server.close();
  }
});

test('a run that stops at --max-rps takes no slot after the stop: the requests lined up for the pace are refused, not sent or waited out', async () => {
  const server = await startReference();
  const transport = new MemoryTransport(server);
  const engine = new Engine({
    settings: testSettings(mkdtempSync(join(tmpdir(), 'engine-')), { seed: 3, maxRps: 5 }),
    target: referenceTarget(server),
    checks: ALL_CHECKS,
    judges: RESPONSE_JUDGES,
    transport,
  });
  let stoppedAt = Infinity;
  const get = transport.get.bind(transport);
  transport.get = async (url, headers) => {
    // As the deadline or a signal stops a run (cli/api.ts): the run's state says why, and nothing more is sent.
    if (engine.state.slots.length === 10 && stoppedAt === Infinity) {
      engine.state.stopped = 'stopped by the test';
      stoppedAt = Date.now();
    }
    return get(url, headers);
  };
  try {
    engine.plan(ALL_CHECKS.map((c) => c.id));
    await engine.finished();
  } finally {
    await server.close();
  }
  expect(stoppedAt).toBeLessThan(Infinity);
  expect(engine.state.slots.filter((at) => at > stoppedAt)).toEqual([]);
  expect(engine.state.log.entries.length).toBeLessThanOrEqual(10);
});
