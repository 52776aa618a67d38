import { expect, test } from '@playwright/test';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { JUDGE_SEEDS, judgeAgain, judgeCases, type JudgeCase } from './support/judge-again.ts';

// `conformance judge evidence.har` gives the live run's verdict and every requirement's status, offline,
// on the targets of the catalogue (rule "Verdicts in both directions": a recording judged again is the
// run's judgement, not another). The whole matrix, every fault and variant on seeds 1, 7 and 1234, is
// `npm run prove:judge` (scripts/prove-judge.ts); here, within npm test's time, the targets where a
// replay could part from its run: statuses answered by the count of requests (a request asked again
// must meet the answer it met live), a listing long enough to reach the run's limits, a key that sees
// no intern, a cursor that cycles, a SHOULD-only fault judged under --fail-on should. Each is judged on
// one seed of the three, by its place in this list, so every seed is taken.
test.describe.configure({ mode: 'parallel' });

const SAMPLE = [
  'reference',
  'variant transient-statuses',
  'fault interns-408-code-500',
  'fault files-503-code-500',
  'variant large-listing',
  'variant key-without-interns',
  'fault pagination-cursor-cycle',
  'fault auth-basic-scheme-accepted',
];

const cases = new Map(judgeCases().map((c) => [c.name, c]));

test('the sample names targets of the catalogue, and the matrix is every fault and every variant', () => {
  expect(SAMPLE.filter((name) => !cases.has(name))).toEqual([]);
  expect(cases.size).toBe(1 + FAULTS.length + CONFORMANT_VARIANTS.length);
  expect(cases.get('fault auth-basic-scheme-accepted')?.failOn).toBe('should');
});

for (const [i, name] of SAMPLE.entries()) {
  const seed = JUDGE_SEEDS[i % JUDGE_SEEDS.length]!;
  test(`${name}, --seed ${seed}: judged again from its recording, the live run's verdict and statuses`, async () => {
    const judged = await judgeAgain(cases.get(name) as JudgeCase, seed);
    expect(judged.runError, 'the live run was made').toBeUndefined();
    expect(judged.live?.requirements.length).toBeGreaterThan(0);
    expect(judged.differences, `${name} --seed ${seed}`).toEqual([]);
  });
}
