import { expect, test } from '@playwright/test';
import { mustNotJudgedParts, waitingText } from '../reports/format.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { shown } from '../suites/support/values.ts';

// What a report says of a target speaks of JSON: a field the target left out is `absent`, never the
// suite's own `undefined` (every report file of every fault's run is read so in test/self-test.test.ts).
test.describe.configure({ mode: 'parallel' });

test('a value shown in a message: JSON, bounded, and absent for a missing field', () => {
  expect(shown(undefined)).toBe('absent');
  expect(shown(null)).toBe('null');
  expect(shown('user')).toBe('"user"');
  expect(shown('x'.repeat(200))).toHaveLength(81);
});

test('the MUST requirements a run left unjudged are counted once, their causes beside the count', () => {
  const report = {
    counts: { MUST: { error: 0, skip: 2 } },
    run: { mustNotJudged: { count: 1, fields: ['modelEndpoints.forbiddenModel'] } },
    requirements: [],
  } as unknown as ConformanceReport;
  expect(mustNotJudgedParts(report)).toEqual([
    '2 MUST not judged: modelEndpoints.forbiddenModel absent (1), other causes (1)',
  ]);
  const onlyAbsent = { ...report, counts: { MUST: { error: 0, skip: 1 } } } as unknown as ConformanceReport;
  expect(mustNotJudgedParts(onlyAbsent)).toEqual(['1 MUST not judged: modelEndpoints.forbiddenModel absent']);
});

test("the time the run waited on the target's rate limit is said on the console and in summary.md", () => {
  const report = { run: { rateLimitedWaitMs: 33_000, retries: 7 } } as unknown as ConformanceReport;
  expect(waitingText(report)).toBe("waited 33.0 s for the target's rate limit (7 retries)");
  expect(waitingText({ run: { retries: 2 } } as unknown as ConformanceReport)).toBe('');
});
