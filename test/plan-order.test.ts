import { expect, test } from '@playwright/test';
import { expectedFinishOrder, planOrder, type CheckDeclaration } from '../core/check.ts';
import { listingOf } from '../core/check-listing.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';

// The run's order (core/check.ts): which check starts first, and which test asks first. Neither
// changes what a check concludes (test/order-independence.test.ts); these hold what the order is.

function check(id: string, estimatedRequests: number, more: Partial<CheckDeclaration> = {}): CheckDeclaration {
  return { id, title: id, operation: 'listContainerFiles', requirements: [], estimatedRequests, probe: async () => undefined, ...more };
}

test('planOrder starts the checks expected to send most first, whole-run ones among them, the declared order among equals', () => {
  const checks = [check('a', 2), check('b', 9), check('w', 40, { wholeRun: true }), check('c', 2), check('p', 3, { kind: 'property' })];
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
