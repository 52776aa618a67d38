import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectedFinishOrder, planOrder, type CheckDeclaration } from '../core/check/check.ts';
import { listingOf } from '../core/check/check-listing.ts';
import { Engine } from '../core/run/engine.ts';
import { Places, type Ticket } from '../core/run/places.ts';
import { concurrencyOf } from '../core/run/run-settings.ts';
import { startReference } from '../reference/server.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { referenceTarget, testSettings } from './support/harness.ts';
import { MemoryTransport } from './support/memory-transport.ts';

// The run's order (core/check/check.ts): which check starts first, and which test asks first. Neither
// changes what a check concludes (test/order-independence.test.ts); these hold what the order is.

function check(id: string, estimatedRequests: number, more: Partial<CheckDeclaration> = {}): CheckDeclaration {
  return {
    id,
    title: id,
    operation: 'listContainerFiles',
    requirements: [],
    estimatedRequests,
    probe: async () => undefined,
    ...more,
  };
}

test('planOrder starts the checks expected to send most first, whole-run ones among them, the declared order among equals', () => {
  const checks = [
    check('a', 2),
    check('b', 9),
    check('w', 40, { wholeRun: true }),
    check('c', 2),
    check('p', 3, { kind: 'property' }),
  ];
  expect(planOrder(checks, 20).map((c) => c.id)).toEqual(['p', 'w', 'b', 'a', 'c']);
  expect(planOrder(checks, 1).map((c) => c.id)).toEqual(['w', 'b', 'p', 'a', 'c']);
});

test('expectedFinishOrder forecasts the end of each check started in plan order on the places given, whole-run checks last', () => {
  const checks = [check('d', 1), check('a', 10), check('w', 50, { wholeRun: true }), check('b', 1), check('c', 1)];
  // Two places: a holds one from 0 to 10; b, c, d follow one another on the other, ending at 1, 2 and 3.
  expect(expectedFinishOrder(checks, 20, 2).map((c) => c.id)).toEqual(['d', 'b', 'c', 'a', 'w']);
  // One place: one after another in plan order.
  expect(expectedFinishOrder(checks, 20, 1).map((c) => c.id)).toEqual(['a', 'd', 'b', 'c', 'w']);
});

test("the tests' listing holds every declared check once, whole-run checks after the others", () => {
  const listed = listingOf(ALL_CHECKS);
  expect(listed.map((c) => c.id).sort()).toEqual(ALL_CHECKS.map((c) => c.id).sort());
  const firstWholeRun = listed.findIndex((c) => c.wholeRun);
  expect(firstWholeRun).toBeGreaterThan(0);
  expect(listed.slice(firstWholeRun).every((c) => c.wholeRun)).toBe(true);
});

test('places serve the lowest rank first, the first come among equals, and a raised ticket moves ahead', async () => {
  const places = new Places();
  const served: string[] = [];
  await places.take(1);
  const wait = (name: string, ticket: Ticket) => places.take(1, ticket).then(() => served.push(name));
  const late = { rank: 9 };
  const all = [wait('late', late), wait('a', { rank: 5 }), wait('b', { rank: 5 }), wait('first', { rank: 1 })];
  // Another check now waits on the late one's request (the run's memory): it goes before a and b.
  places.raise(late, 3);
  // Raising never lowers a ticket's place.
  places.raise(late, 7);
  for (let i = 0; i < all.length; i++) places.leave();
  await Promise.all(all);
  expect(served).toEqual(['first', 'late', 'a', 'b']);
});

test('at --max-rps the checks listed first finish first: the pace serves requests in the expected finish order', async () => {
  // 100 requests/s: the pace is what holds the run back, as against a rate-limited deployment.
  const server = await startReference();
  const transport = new MemoryTransport(server);
  const settings = testSettings(mkdtempSync(join(tmpdir(), 'engine-')), { seed: 5, maxRps: 100 });
  const engine = new Engine({
    settings,
    target: referenceTarget(server),
    checks: ALL_CHECKS,
    judges: RESPONSE_JUDGES,
    transport,
  });
  const finished: string[] = [];
  try {
    engine.plan(ALL_CHECKS.map((c) => c.id));
    for (const c of ALL_CHECKS) void engine.outcome(c.id).then(() => finished.push(c.id));
    await engine.finished();
  } finally {
    await server.close();
  }
  const listed = expectedFinishOrder(ALL_CHECKS, settings.numRuns, concurrencyOf(settings)).map((c) => c.id);
  // What the Playwright worker waits on: the first ten listed are done among the first twenty of
  // 117 (served by arrival at the pace instead, they would finish much later).
  const early = new Set(finished.slice(0, 20));
  expect(listed.slice(0, 10).filter((id) => !early.has(id))).toEqual([]);
});
